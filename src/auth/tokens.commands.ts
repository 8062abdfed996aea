import {
  command,
  CommandContext,
  Refused,
  TENANT,
  UsageError,
} from '../common/command-line/command';
import { printLine } from '../common/command-line/command-output';
import { SCOPES } from '../identity/principal';
import type { TokenSummary } from './token.repository';
import type { TokensService } from './tokens.service';

const TTL = /^(\d+)([smhd])$/;
const TTL_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** Required as a command runs: help and wrong usage load no service (src/cli.ts). */
const tokensService = ({ app }: CommandContext): TokensService =>
  app.get(
    (require('./tokens.service') as typeof import('./tokens.service'))
      .TokensService,
  );

/** Registered tokens: made, revoked and listed (never their secrets). */
export const TOKEN_COMMANDS = [
  command({
    name: 'token create',
    usage:
      '--tenant <t> (--identity <id> [--account <acc>] | --app <name>) [--scope <scope> ...] [--ttl <n>(s|m|h|d)]',
    summary: 'print a new token secret (shown once)',
    help: `An access token acts as an identity; an app token as an application, with the scopes given (${SCOPES.join(', ')}). The secret is idt_ and 256 random bits, URL-safe; only its hash is stored.`,
    options: {
      tenant: TENANT,
      identity: {
        type: 'string',
        value: '<id>',
        help: 'an access token of this identity',
      },
      account: {
        type: 'string',
        value: '<acc>',
        help: 'with --identity: the account of it the token signs in with',
      },
      app: {
        type: 'string',
        value: '<name>',
        help: 'an app token of this app',
      },
      scope: {
        type: 'string',
        value: '<scope>',
        multiple: true,
        help: 'a scope of the token (again for each)',
      },
      ttl: {
        type: 'string',
        value: '<n>(s|m|h|d)',
        help: 'how long it lives: 90s, 15m, 1h, 7d (without it, until revoked)',
      },
    },
    example: ['--tenant', 'acme', '--identity', 'ada', '--ttl', '1h'],
    check: (given) => {
      const [identityId, appId] = [
        given.string('identity'),
        given.string('app'),
      ];
      if ((identityId === undefined) === (appId === undefined))
        throw new UsageError(
          'Name either --identity (an access token) or --app (an app token).',
        );
      const accountId = given.string('account');
      if (accountId !== undefined && identityId === undefined)
        throw new UsageError('--account goes with --identity.');
      const ttl = given.string('ttl');
      const parts = ttl === undefined ? undefined : TTL.exec(ttl);
      if (parts === null)
        throw new UsageError(
          '--ttl takes a number and a unit: 90s, 15m, 1h, 7d.',
        );
      return {
        tenantId: given.need('tenant'),
        identityId,
        accountId,
        appId,
        scopes: given.strings('scope') ?? [],
        ttlSeconds: parts
          ? Number(parts[1]) * TTL_SECONDS[parts[2] as keyof typeof TTL_SECONDS]
          : undefined,
      };
    },
    handler: async (context, request) => {
      const tokens = tokensService(context);
      const { secret } = await tokens.createToken(request);
      printLine(context, secret);
    },
  }),
  command({
    name: 'token revoke',
    usage: '--tenant <t> <id|secret>',
    summary: 'revoke a token, by the id token list shows or by its secret',
    help: 'Put -- before a secret that starts with -.',
    options: { tenant: TENANT },
    args: [{ name: 'id|secret', help: 'the token id or secret' }],
    example: ['--tenant', 'acme', '0b5c7e0a-3f1d-4c56-9a8e-2d4f6b8c1e3a'],
    check: (given) => ({
      tenantId: given.need('tenant'),
      token: given.arg('id|secret'),
    }),
    handler: async (context, { tenantId, token }) => {
      if (!(await tokensService(context).revokeToken(tenantId, token)))
        throw new Refused(
          'No live token with that id or secret in this tenant.',
        );
      printLine(context, 'Revoked.');
    },
  }),
  command({
    name: 'token list',
    usage: '--tenant <t>',
    summary: 'list tokens with their ids (never their secrets)',
    help: 'One JSON line per token: id, type, owner, account, scopes, expiry, revoked, creation, last use (to the minute).',
    options: { tenant: TENANT },
    example: ['--tenant', 'acme'],
    check: (given) => ({ tenantId: given.need('tenant') }),
    handler: async (context, { tenantId }) => {
      const tokens = await tokensService(context).listTokens(tenantId);
      for (const token of tokens)
        printLine(context, JSON.stringify(listed(token)));
    },
  }),
];

const listed = (t: TokenSummary) => ({
  id: t.id,
  type: t.type,
  owner: t.type === 'access' ? t.identityId : t.appId,
  ...(t.accountId ? { accountId: t.accountId } : {}),
  scopes: t.scopes,
  expiresAt: t.expiresAt?.toISOString() ?? null,
  revoked: t.revokedAt !== null,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
});
