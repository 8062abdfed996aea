import {
  CLI,
  command,
  CommandContext,
  jsonOption,
  TENANT,
} from '../common/command-line/command';
import {
  checkedBody,
  printAll,
  printJson,
  printLine,
} from '../common/command-line/command-output';

/**
 * Required as a command runs: help and wrong usage load no service, nor the
 * rules of the bodies (src/cli.ts).
 */
const issuersService = ({ app }: CommandContext) =>
  app.get(
    (
      require('./token-issuers.service') as typeof import('./token-issuers.service')
    ).TokenIssuersService,
  );
const adminDto = (): typeof import('./admin.dto') => require('./admin.dto');
const fileDto = (): typeof import('../tenants/tenant-file.dto') =>
  require('../tenants/tenant-file.dto');

const ID = { name: 'id|url', help: 'the issuer id or URL' };
const ISSUER = 'https://sso.acme.example/realms/acme';

/** The token issuers a tenant trusts, as the administration API has them. */
export const ISSUER_COMMANDS = [
  command({
    name: 'issuer list',
    usage: '--tenant <t>',
    summary: 'list the token issuers, a JSON line each',
    options: { tenant: TENANT },
    example: ['--tenant', 'acme'],
    check: (given) => ({ tenantId: given.need('tenant') }),
    handler: (context, { tenantId }) => {
      const issuers = issuersService(context);
      return printAll(context, (page) => issuers.listIssuers(tenantId, page));
    },
  }),
  command({
    name: 'issuer show',
    usage: '--tenant <t> <id|url>',
    summary: 'print a token issuer',
    options: { tenant: TENANT },
    args: [ID],
    example: ['--tenant', 'acme', ISSUER],
    check: (given) => ({
      tenantId: given.need('tenant'),
      id: given.arg('id|url'),
    }),
    handler: async (context, { tenantId, id }) =>
      printJson(context, await issuersService(context).issuer(tenantId, id)),
  }),
  command({
    name: 'issuer add',
    usage: '--tenant <t> --json <object>',
    summary: "trust a token issuer (the tenant file's keys)",
    help: "Its keys and rules are those of the tenant file's tokenIssuers.",
    options: {
      tenant: TENANT,
      json: jsonOption('the issuer: {"issuer": …, "audiences": […], …}', true),
    },
    example: [
      '--tenant',
      'acme',
      '--json',
      JSON.stringify({ issuer: ISSUER, audiences: ['identity-api'] }),
    ],
    check: (given) => ({
      tenantId: given.need('tenant'),
      body: given.json() ?? {},
    }),
    handler: async (context, { tenantId, body }) =>
      printJson(
        context,
        await issuersService(context).createIssuer(
          tenantId,
          checkedBody(fileDto().TokenIssuerEntry, adminDto().ISSUER_KEYS, body),
          CLI,
        ),
      ),
  }),
  command({
    name: 'issuer set',
    usage: '--tenant <t> <id|url> --json <object>',
    summary: 'change the keys given, keep the others',
    help: 'null removes an optional key.',
    options: {
      tenant: TENANT,
      json: jsonOption('the keys to change', true),
    },
    args: [ID],
    example: ['--tenant', 'acme', ISSUER, '--json', '{"audiences":["api"]}'],
    check: (given) => ({
      tenantId: given.need('tenant'),
      id: given.arg('id|url'),
      changes: given.json() ?? {},
    }),
    handler: async (context, { tenantId, id, changes }) => {
      const issuers = issuersService(context);
      const current = await issuers.issuer(tenantId, id);
      const { IssuerReplacement, ISSUER_KEYS } = adminDto();
      const body = checkedBody(IssuerReplacement, [...ISSUER_KEYS, 'id'], {
        ...current,
        ...changes,
      });
      printJson(
        context,
        await issuers.replaceIssuer(tenantId, id, body, undefined, CLI),
      );
    },
  }),
  command({
    name: 'issuer remove',
    usage: '--tenant <t> <id|url>',
    summary: 'stop trusting a token issuer',
    options: { tenant: TENANT },
    args: [ID],
    example: ['--tenant', 'acme', ISSUER],
    check: (given) => ({
      tenantId: given.need('tenant'),
      id: given.arg('id|url'),
    }),
    handler: async (context, { tenantId, id }) => {
      const issuers = issuersService(context);
      await issuers.removeIssuer(tenantId, id, undefined, CLI);
      printLine(context, `Removed issuer "${id}".`);
    },
  }),
];
