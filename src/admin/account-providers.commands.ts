import {
  CLI,
  command,
  CommandContext,
  Given,
  jsonOption,
  OptionSpec,
  Refused,
  TENANT,
  UsageError,
} from '../common/command-line/command';
import {
  checkedBody,
  count,
  printAll,
  printJson,
  printLine,
} from '../common/command-line/command-output';

/**
 * Required as a command runs: help and wrong usage load no service, nor the
 * rules of the bodies (src/cli.ts).
 */
const providersService = ({ app }: CommandContext) =>
  app.get(
    (
      require('./account-providers.service') as typeof import('./account-providers.service')
    ).AccountProvidersService,
  );
const adminDto = (): typeof import('./admin.dto') => require('./admin.dto');
const fileDto = (): typeof import('../tenants/tenant-file.dto') =>
  require('../tenants/tenant-file.dto');

const ID = { name: 'id', help: 'the provider id' };

/** The options of add, which set takes too. */
const SETTINGS: Record<string, OptionSpec> = {
  'sign-in-url': {
    type: 'string',
    value: '<url>',
    help: "where a user signs in to the provider's accounts",
  },
  'display-name': { type: 'string', value: '<n>', help: 'its name to show' },
  'image-url': { type: 'string', value: '<url>', help: 'its image' },
  'multiple-accounts': {
    type: 'boolean',
    help: 'an identity may have several accounts there',
  },
  json: jsonOption(
    'any of its keys, link settings included ({"link": {"type": "oidc", …}}); the options above win',
  ),
  'client-secret-stdin': {
    type: 'boolean',
    help: "the link's client secret, read from standard input (never an argument, which every user of the host can see)",
  },
};

/** The settings the options give, and what they say of the client secret. */
interface ProviderInput {
  tenantId: string;
  id: string;
  given: { link?: unknown; [key: string]: unknown };
  /** Read the client secret from standard input, remove it, or neither. */
  secret: 'stdin' | 'none' | undefined;
}

/** The account providers of a tenant, as the administration API has them. */
export const PROVIDER_COMMANDS = [
  command({
    name: 'provider list',
    usage: '--tenant <t>',
    summary: 'list the account providers, a JSON line each',
    options: { tenant: TENANT },
    example: ['--tenant', 'acme'],
    check: (given) => ({ tenantId: given.need('tenant') }),
    handler: (context, { tenantId }) => {
      const providers = providersService(context);
      return printAll(context, (page) =>
        providers.listProviders(tenantId, page),
      );
    },
  }),
  command({
    name: 'provider show',
    usage: '--tenant <t> <id>',
    summary: 'print an account provider',
    options: { tenant: TENANT },
    args: [ID],
    example: ['--tenant', 'acme', 'gitlab'],
    check: (given) => ({ tenantId: given.need('tenant'), id: given.arg('id') }),
    handler: async (context, { tenantId, id }) =>
      printJson(
        context,
        await providersService(context).provider(tenantId, id),
      ),
  }),
  command({
    name: 'provider add',
    usage:
      '--tenant <t> <id> --sign-in-url <url> [--display-name <n>] [--image-url <url>] [--multiple-accounts] [--json <object>] [--client-secret-stdin]',
    summary: 'add an account provider after the others',
    help: '--sign-in-url may come in --json instead.',
    options: { tenant: TENANT, ...SETTINGS },
    args: [ID],
    example: [
      '--tenant',
      'acme',
      'gitlab',
      '--sign-in-url',
      'https://gitlab.example/link',
    ],
    check: (given) => {
      const input = providerInput(given);
      if (input.given.signInUrl === undefined)
        throw new UsageError('Missing --sign-in-url.');
      if (input.secret === 'stdin' && !isObject(input.given.link))
        throw new UsageError(
          'A client secret goes with link settings: give them with --json.',
        );
      return input;
    },
    handler: async (context, { tenantId, id, given, secret }) => {
      const providers = providersService(context);
      const body = withClientSecret(
        { accountProviderId: id, ...given },
        await clientSecret(context, secret),
      );
      printJson(
        context,
        await providers.createProvider(
          tenantId,
          checkedBody(
            fileDto().AccountProviderEntry,
            adminDto().PROVIDER_KEYS,
            body,
          ),
          CLI,
        ),
      );
    },
  }),
  command({
    name: 'provider set',
    usage:
      '--tenant <t> <id> [--sign-in-url <url>] [--display-name <n>] [--image-url <url>] [--multiple-accounts | --single-account] [--json <object>] [--client-secret-stdin | --no-client-secret]',
    summary: 'change the options given, keep the others',
    help: '--json \'{"link": null}\' removes the link settings.',
    options: {
      tenant: TENANT,
      ...SETTINGS,
      'single-account': {
        type: 'boolean',
        help: 'an identity may have one account there',
      },
      'no-client-secret': {
        type: 'boolean',
        help: "remove the link's client secret",
      },
    },
    args: [ID],
    example: ['--tenant', 'acme', 'gitlab', '--display-name', 'GitLab'],
    check: providerInput,
    handler: async (context, { tenantId, id, given, secret }) => {
      const providers = providersService(context);
      const current = await providers.provider(tenantId, id);
      const body = withClientSecret(
        { ...current, ...given },
        await clientSecret(context, secret),
      );
      printJson(
        context,
        await providers.replaceProvider(
          tenantId,
          id,
          checkedBody(
            adminDto().ProviderReplacement,
            adminDto().PROVIDER_KEYS,
            body,
          ),
          undefined,
          CLI,
        ),
      );
    },
  }),
  command({
    name: 'provider remove',
    usage: '--tenant <t> <id> [--delete-accounts]',
    summary: 'remove an account provider (with its accounts, when asked)',
    help: 'Refused while a token issuer names it, or while it has accounts unless --delete-accounts.',
    options: {
      tenant: TENANT,
      'delete-accounts': { type: 'boolean', help: 'remove its accounts too' },
    },
    args: [ID],
    example: ['--tenant', 'acme', 'gitlab'],
    check: (given) => ({
      tenantId: given.need('tenant'),
      id: given.arg('id'),
      deleteAccounts: given.flag('delete-accounts'),
    }),
    handler: async (context, { tenantId, id, deleteAccounts }) => {
      const providers = providersService(context);
      const removed = await providers.removeProvider(
        tenantId,
        id,
        deleteAccounts,
        undefined,
        CLI,
      );
      const accounts = removed
        ? ` and ${count(removed, 'account', 'accounts')}`
        : '';
      printLine(context, `Removed provider "${id}"${accounts}.`);
    },
  }),
];

function providerInput(given: Given): ProviderInput {
  for (const [one, other] of [
    ['multiple-accounts', 'single-account'],
    ['client-secret-stdin', 'no-client-secret'],
  ])
    if (given.flag(one) && given.flag(other))
      throw new UsageError(`--${one} and --${other} exclude each other.`);
  const [signInUrl, displayName] = [
    given.string('sign-in-url'),
    given.string('display-name'),
  ];
  const providerImageUrl = given.string('image-url');
  return {
    tenantId: given.need('tenant'),
    id: given.arg('id'),
    given: {
      // --json gives any key, link settings included; the options win.
      ...given.json(),
      ...(signInUrl !== undefined && { signInUrl }),
      ...(displayName !== undefined && { displayName }),
      ...(providerImageUrl !== undefined && { providerImageUrl }),
      ...(given.flag('multiple-accounts') && { allowsMultipleAccounts: true }),
      ...(given.flag('single-account') && { allowsMultipleAccounts: false }),
    },
    secret: given.flag('client-secret-stdin')
      ? 'stdin'
      : given.flag('no-client-secret')
        ? 'none'
        : undefined,
  };
}

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null;

/**
 * The client secret the options give: read from standard input (never an
 * argument, which other users of the host can see), null for none, or
 * undefined when they say nothing of it.
 */
async function clientSecret(
  context: CommandContext,
  secret: ProviderInput['secret'],
): Promise<string | null | undefined> {
  if (secret !== 'stdin') return secret === 'none' ? null : undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of context.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** A provider's body with the client secret of the options in its link settings. */
function withClientSecret(
  body: { link?: unknown; [key: string]: unknown },
  secret: string | null | undefined,
): object {
  if (secret === undefined) return body;
  if (!isObject(body.link))
    throw new Refused(
      'A client secret goes with link settings: give them with --json.',
    );
  return { ...body, link: { ...body.link, clientSecret: secret } };
}
