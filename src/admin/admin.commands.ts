import {
  CLI,
  command,
  CommandContext,
  TENANT,
  UsageError,
} from '../common/command-line/command';
import { printAll, printJson } from '../common/command-line/command-output';

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
    usage: '--tenant <t>',
    summary: 'print the audit log of administration as JSON lines',
    help: 'In order: every change of the administration API and of the command line (actor cli).',
    options: { tenant: TENANT },
    example: ['--tenant', 'acme'],
    check: (given) => ({ tenantId: given.need('tenant') }),
    handler: (context, { tenantId }) => {
      const admin = adminService(context);
      return printAll(context, (page) => admin.listEvents(tenantId, {}, page));
    },
  }),
];
