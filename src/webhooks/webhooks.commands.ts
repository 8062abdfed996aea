import {
  CLI,
  command,
  CommandContext,
  jsonOption,
  TENANT,
  UsageError,
} from '../common/command-line/command';
import {
  checkedBody,
  printAll,
  printJson,
  printLine,
} from '../common/command-line/command-output';
import { DATE_TIME } from '../common/validation/date-time';
import type { WebhooksService } from './webhooks.service';

/**
 * Required as a command runs: help and wrong usage load no service, nor the
 * rules of the bodies (src/cli.ts).
 */
const webhooksService = ({ app }: CommandContext) =>
  app.get(
    (require('./webhooks.service') as typeof import('./webhooks.service'))
      .WebhooksService,
  );
const dto = (): typeof import('./webhooks.dto') => require('./webhooks.dto');
const jsonBodyPipe = (): typeof import('../common/validation/json-body.pipe') =>
  require('../common/validation/json-body.pipe');

const WEBHOOK_KEYS = ['url', 'eventTypes', 'description', 'enabled'] as const;
const ID = { name: 'id', help: 'the webhook id' };
const WEBHOOK = 'wh_0mc2pq5w8k3n4v6x7y9z1a2b3c';

/** The commands that name one subscription and print what the service says of it. */
const shown = (
  name: string,
  summary: string,
  view: (
    webhooks: WebhooksService,
    tenantId: string,
    id: string,
  ) => Promise<object>,
) =>
  command({
    name,
    usage: '--tenant <t> <id>',
    summary,
    options: { tenant: TENANT },
    args: [ID],
    example: ['--tenant', 'acme', WEBHOOK],
    check: (given) => ({ tenantId: given.need('tenant'), id: given.arg('id') }),
    handler: async (context, { tenantId, id }) =>
      printJson(context, await view(webhooksService(context), tenantId, id)),
  });

/** Webhook subscriptions of a tenant, as the administration API has them. */
export const WEBHOOK_COMMANDS = [
  command({
    name: 'webhook list',
    usage: '--tenant <t>',
    summary: 'list the webhook subscriptions, a JSON line each',
    options: { tenant: TENANT },
    example: ['--tenant', 'acme'],
    check: (given) => ({ tenantId: given.need('tenant') }),
    handler: (context, { tenantId }) => {
      const webhooks = webhooksService(context);
      return printAll(context, (page) => webhooks.listWebhooks(tenantId, page));
    },
  }),
  shown('webhook show', 'print a webhook subscription', (webhooks, t, id) =>
    webhooks.webhook(t, id),
  ),
  shown(
    'webhook status',
    'print where its delivery stands',
    (webhooks, t, id) => webhooks.status(t, id),
  ),
  command({
    name: 'webhook attempts',
    usage: '--tenant <t> <id>',
    summary: 'list its delivery attempts, newest first, a JSON line each',
    options: { tenant: TENANT },
    args: [ID],
    example: ['--tenant', 'acme', WEBHOOK],
    check: (given) => ({ tenantId: given.need('tenant'), id: given.arg('id') }),
    handler: (context, { tenantId, id }) => {
      const webhooks = webhooksService(context);
      return printAll(context, (page) => webhooks.attempts(tenantId, id, page));
    },
  }),
  command({
    name: 'webhook add',
    usage: '--tenant <t> --url <url> [--json <object>]',
    summary: 'subscribe an endpoint; prints the secret once',
    options: {
      tenant: TENANT,
      url: {
        type: 'string',
        value: '<url>',
        required: true,
        help: 'where the events are sent',
      },
      json: jsonOption('eventTypes, description, enabled'),
    },
    example: ['--tenant', 'acme', '--url', 'https://crm.acme.example/hooks'],
    check: (given) => ({
      tenantId: given.need('tenant'),
      body: { ...given.json(), url: given.need('url') },
    }),
    handler: async (context, { tenantId, body }) =>
      printJson(
        context,
        await webhooksService(context).createWebhook(
          tenantId,
          checkedBody(dto().WebhookRequest, WEBHOOK_KEYS, body),
          CLI,
        ),
      ),
  }),
  command({
    name: 'webhook set',
    usage: '--tenant <t> <id> --json <object>',
    summary: 'change the keys given, keep the others',
    help: 'The keys are url, eventTypes, description and enabled; "description": null removes it.',
    options: { tenant: TENANT, json: jsonOption('the keys to change', true) },
    args: [ID],
    example: ['--tenant', 'acme', WEBHOOK, '--json', '{"enabled":false}'],
    check: (given) => ({
      tenantId: given.need('tenant'),
      id: given.arg('id'),
      changes: given.json() ?? {},
    }),
    handler: async (context, { tenantId, id, changes }) => {
      // null stays: `"description": null` removes it, as PATCH does.
      const { JsonBodyPipe } = jsonBodyPipe();
      const patch = new JsonBodyPipe(dto().WebhookPatch, [
        ...WEBHOOK_KEYS,
      ]).transform(changes);
      const webhooks = webhooksService(context);
      printJson(
        context,
        await webhooks.updateWebhook(tenantId, id, patch, undefined, CLI),
      );
    },
  }),
  command({
    name: 'webhook remove',
    usage: '--tenant <t> <id>',
    summary: 'end a webhook subscription',
    options: { tenant: TENANT },
    args: [ID],
    example: ['--tenant', 'acme', WEBHOOK],
    check: (given) => ({ tenantId: given.need('tenant'), id: given.arg('id') }),
    handler: async (context, { tenantId, id }) => {
      const webhooks = webhooksService(context);
      await webhooks.removeWebhook(tenantId, id, undefined, CLI);
      printLine(context, `Removed webhook "${id}".`);
    },
  }),
  command({
    name: 'webhook rotate-secret',
    usage: '--tenant <t> <id> [--overlap <seconds>]',
    summary: 'a new secret; the old one signs too meanwhile',
    options: {
      tenant: TENANT,
      overlap: {
        type: 'string',
        value: '<seconds>',
        help: 'how long the old secret goes on signing (default a day)',
      },
    },
    args: [ID],
    example: ['--tenant', 'acme', WEBHOOK, '--overlap', '3600'],
    check: (given) => {
      const overlap = given.string('overlap');
      if (overlap !== undefined && !/^\d{1,9}$/.test(overlap))
        throw new UsageError('--overlap takes a number of seconds.');
      return {
        tenantId: given.need('tenant'),
        id: given.arg('id'),
        body: overlap === undefined ? {} : { overlapSeconds: Number(overlap) },
      };
    },
    handler: async (context, { tenantId, id, body }) => {
      const { overlapSeconds } = checkedBody(
        dto().RotateSecretRequest,
        ['overlapSeconds'],
        body,
      );
      const webhooks = webhooksService(context);
      printJson(
        context,
        await webhooks.rotateSecret(
          tenantId,
          id,
          overlapSeconds,
          undefined,
          CLI,
        ),
      );
    },
  }),
  command({
    name: 'webhook replay',
    usage: '--tenant <t> <id> (--from-event <id> | --since <date-time>)',
    summary: 'deliver again from there',
    options: {
      tenant: TENANT,
      'from-event': {
        type: 'string',
        value: '<id>',
        help: 'from this event of the change log on',
      },
      since: {
        type: 'string',
        value: '<date-time>',
        help: 'from the events that occurred at or after this time on',
      },
    },
    args: [ID],
    example: ['--tenant', 'acme', WEBHOOK, '--since', '2026-11-25T10:00:00Z'],
    check: (given) => {
      const [fromEventId, since] = [
        given.string('from-event'),
        given.string('since'),
      ];
      if ((fromEventId === undefined) === (since === undefined))
        throw new UsageError('Give either --from-event or --since.');
      if (fromEventId !== undefined && !/^[1-9]\d{0,18}$/.test(fromEventId))
        throw new UsageError('--from-event takes an event id.');
      if (since !== undefined && !DATE_TIME.test(since))
        throw new UsageError(
          '--since takes an RFC 3339 date-time, such as 2026-11-25T10:00:00Z.',
        );
      return {
        tenantId: given.need('tenant'),
        id: given.arg('id'),
        body: fromEventId !== undefined ? { fromEventId } : { since },
      };
    },
    handler: async (context, { tenantId, id, body }) => {
      const request = checkedBody(
        dto().ReplayRequest,
        ['fromEventId', 'since'],
        body,
      );
      const webhooks = webhooksService(context);
      printJson(context, await webhooks.replay(tenantId, id, request, CLI));
    },
  }),
];
