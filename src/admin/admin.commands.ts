import {
  CLI,
  command,
  CommandContext,
  TENANT,
  UsageError,
} from '../common/command-line/command';
import { printAll, printJson } from '../common/command-line/command-output';
import {
  ADMIN_ACTIONS,
  type AdminAction,
  MAX_ACTOR_LENGTH,
} from '../events/admin-actions';

/** Required as a command runs: help and wrong usage load no service (src/cli.ts). */
const adminService = ({ app }: CommandContext) =>
  app.get(
    (require('./admin.service') as typeof import('./admin.service'))
      .AdminService,
  );

/** A tenant's settings and its audit log, as the administration API has them. */
export const ADMIN_COMMANDS = [
  command({
    name: 'tenant show',
    usage: '--tenant <t>',
    summary: "print the tenant's settings",
    options: { tenant: TENANT },
    example: ['--tenant', 'acme'],
    check: (given) => ({ tenantId: given.need('tenant') }),
    handler: async (context, { tenantId }) =>
      printJson(context, await adminService(context).settings(tenantId)),
  }),
  command({
    name: 'tenant set',
    usage:
      '--tenant <t> [--name <name>] [--admin-role <role> ... | --no-admin-roles] [--link-return-url <url> ...]',
    summary: 'change its name, admin roles or return URLs (each list whole)',
    help: 'Prints the settings as they are then.',
    options: {
      tenant: TENANT,
      name: { type: 'string', value: '<name>', help: 'its name' },
      'admin-role': {
        type: 'string',
        value: '<role>',
        multiple: true,
        help: 'a role whose identities administer it (again for each; the list whole)',
      },
      'no-admin-roles': { type: 'boolean', help: 'no admin roles' },
      'link-return-url': {
        type: 'string',
        value: '<url>',
        multiple: true,
        help: 'where a user returns after linking an account (again for each; the list whole)',
      },
    },
    example: ['--tenant', 'acme', '--admin-role', 'admin'],
    check: (given) => {
      const [name, roles] = [given.string('name'), given.strings('admin-role')];
      const urls = given.strings('link-return-url');
      if (given.flag('no-admin-roles') && roles)
        throw new UsageError(
          '--admin-role and --no-admin-roles exclude each other.',
        );
      const patch = {
        ...(name !== undefined && { name }),
        ...(roles && { adminRoles: roles }),
        ...(given.flag('no-admin-roles') && { adminRoles: [] }),
        ...(urls && { linkReturnUrls: urls }),
      };
      if (!Object.keys(patch).length) throw new UsageError('Nothing to set.');
      return { tenantId: given.need('tenant'), patch };
    },
    handler: async (context, { tenantId, patch }) => {
      const admin = adminService(context);
      printJson(
        context,
        await admin.updateSettings(tenantId, patch, undefined, CLI),
      );
    },
  }),
  command({
    name: 'audit',
    usage: '--tenant <t> [--action <action>] [--actor <actor>]',
    summary: 'print the audit log of administration as JSON lines',
    help: 'In order: every change of the administration API and of the command line (actor cli); --action and --actor keep the entries of one action or one actor, as GET /events does.',
    options: {
      tenant: TENANT,
      action: {
        type: 'string',
        value: '<action>',
        help: `only this action's entries: ${ADMIN_ACTIONS.join(', ')}`,
      },
      actor: {
        type: 'string',
        value: '<actor>',
        help: "only this actor's entries, as the log names it: app:<appId> or cli",
      },
    },
    example: ['--tenant', 'acme', '--action', 'token.revoked'],
    check: (given) => ({
      tenantId: given.need('tenant'),
      filter: auditFilter(given.string('action'), given.string('actor')),
    }),
    handler: (context, { tenantId, filter }) => {
      const admin = adminService(context);
      return printAll(context, (page) =>
        admin.listEvents(tenantId, filter, page),
      );
    },
  }),
];

/** The audit log's filter of `audit`, as GET /events takes it. */
function auditFilter(
  action: string | undefined,
  actor: string | undefined,
): { action?: AdminAction; actor?: string } {
  if (
    action !== undefined &&
    !(ADMIN_ACTIONS as readonly string[]).includes(action)
  )
    throw new UsageError(`--action takes one of ${ADMIN_ACTIONS.join(', ')}.`);
  if (
    actor !== undefined &&
    (!actor ||
      Array.from(actor).length > MAX_ACTOR_LENGTH ||
      actor.includes('\0'))
  )
    throw new UsageError(
      `--actor takes 1 to ${MAX_ACTOR_LENGTH} characters, none of them U+0000.`,
    );
  return {
    ...(action !== undefined && { action: action as AdminAction }),
    ...(actor !== undefined && { actor }),
  };
}
