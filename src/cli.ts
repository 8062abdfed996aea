import './ops/supported-node';
import { ConsoleLogger, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TokensService } from './auth/tokens.service';
import { AccountProvidersService } from './admin/account-providers.service';
import { SecretBox } from './common/secrets/secret-box';
import {
  IssuerReplacement,
  ISSUER_KEYS,
  PROVIDER_KEYS,
  ProviderReplacement,
} from './admin/admin.dto';
import { AdminService } from './admin/admin.service';
import { TokenIssuersService } from './admin/token-issuers.service';
import type { Collection, Page } from './common/pagination';
import { JsonBodyPipe } from './common/validation/json-body.pipe';
import {
  AccountProviderEntry,
  TokenIssuerEntry,
} from './tenants/tenant-file.dto';
import { CliModule } from './cli.module';
import { DomainError, NoSecretKey } from './common/errors';
import { Database } from './database/database';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { EventsService } from './events/events.service';
import { IdentityService } from './identity/identity.service';
import { TenantFileError } from './tenants/tenant-file.validator';
import { TenantsService } from './tenants/tenants.service';
import {
  ReplayRequest,
  RotateSecretRequest,
  WebhookPatch,
  WebhookRequest,
} from './webhooks/webhooks.dto';
import { WebhooksService } from './webhooks/webhooks.service';

const WEBHOOK_KEYS = ['url', 'eventTypes', 'description', 'enabled'] as const;
import { explainStartupError } from './ops/startup';

const USAGE = `Usage: npm run cli -- <command>

  migrate                              apply pending database migrations
  import <file> [--replace [--replace-tokens]]
                                       import a tenant file (shared import format);
                                       a replace keeps the tokens the file does not
                                       list unless --replace-tokens
  export <tenant> [--output <file>]    write a tenant in the import format (no tokens)
  token create --tenant <t> (--identity <id> [--account <acc>] | --app <name>)
               [--scope <scope> ...] [--ttl <n>(s|m|h|d)]
                                       print a new token secret (shown once)
  token revoke --tenant <t> <id|secret>
                                       revoke a token, by the id token list shows or by its secret
  token list --tenant <t>              list tokens with their ids (never their secrets)
  tenant show --tenant <t>             print the tenant's settings
  tenant set --tenant <t> [--name <name>] [--admin-role <role> ... | --no-admin-roles]
             [--link-return-url <url> ...]
                                       change its name, admin roles or return URLs (each list whole)
  provider list|show|add|set|remove --tenant <t> [<id>]
      add <id> --sign-in-url <url> [--display-name <n>] [--image-url <url>]
               [--multiple-accounts] [--json <object>] [--client-secret-stdin]
                                       add an account provider after the others
                                       (--json: any key, e.g. link settings;
                                       --client-secret-stdin: the link's client
                                       secret, read from standard input)
      set <id> [the same options] [--single-account] [--no-client-secret]
                                       change the options given, keep the others
      remove <id> [--delete-accounts]  remove it (with its accounts, when asked)
  issuer list|show|add|set|remove --tenant <t> [<id|url>]
      add --json <object>              trust a token issuer (the tenant file's keys)
      set <id|url> --json <object>     change the keys given, keep the others
      remove <id|url>                  stop trusting it
  webhook list|show|add|set|remove|rotate-secret|replay|status|attempts --tenant <t> [<id>]
      add --url <url> [--json <object>]
                                       subscribe an endpoint (--json: eventTypes,
                                       description, enabled); prints the secret once
      set <id> --json <object>         change the keys given, keep the others
      rotate-secret <id> [--overlap <seconds>]
                                       a new secret; the old one signs too meanwhile
      replay <id> (--from-event <id> | --since <date-time>)
                                       deliver again from there
  merge --tenant <t> --into <id> --from <id>
                                       merge an identity into another
  events --tenant <t> [--after <id>] [--follow]
                                       print the change log as JSON lines
  audit --tenant <t>                   print the audit log of administration as JSON lines
  secret-keys rotate                   seal every stored client secret under the first key
                                       (on the embedded database: a new key first)`;

const count = (n: number, one: string, many: string) =>
  `${n} ${n === 1 ? one : many}`;

/** Wrong usage of the command line: exit code 2. */
class UsageError extends Error {}
/** A well-formed command that cannot be done (unknown tenant or token): exit code 1. */
class Refused extends Error {}

const FOLLOW_POLL_MS = 500;

const TTL = /^(\d+)([smhd])$/;
const TTL_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

async function main(argv: string[]): Promise<void> {
  const { values: opts, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      replace: { type: 'boolean' },
      'replace-tokens': { type: 'boolean' },
      output: { type: 'string' },
      tenant: { type: 'string' },
      identity: { type: 'string' },
      account: { type: 'string' },
      app: { type: 'string' },
      scope: { type: 'string', multiple: true },
      ttl: { type: 'string' },
      into: { type: 'string' },
      from: { type: 'string' },
      after: { type: 'string' },
      follow: { type: 'boolean' },
      name: { type: 'string' },
      'admin-role': { type: 'string', multiple: true },
      'no-admin-roles': { type: 'boolean' },
      'link-return-url': { type: 'string', multiple: true },
      'sign-in-url': { type: 'string' },
      'display-name': { type: 'string' },
      'image-url': { type: 'string' },
      'multiple-accounts': { type: 'boolean' },
      'single-account': { type: 'boolean' },
      'delete-accounts': { type: 'boolean' },
      'client-secret-stdin': { type: 'boolean' },
      'no-client-secret': { type: 'boolean' },
      json: { type: 'string' },
      url: { type: 'string' },
      overlap: { type: 'string' },
      'from-event': { type: 'string' },
      since: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const [command, ...args] = positionals;
  if (!command || opts.help) throw new UsageError(USAGE);
  config = loadConfig(process.env);
  if (command === 'migrate') config.migrateOnStart = true;
  const app = await NestFactory.createApplicationContext(
    CliModule.forRoot(config),
    // Failures to start reach main's catch, which says them in one line.
    { bufferLogs: true, autoFlushLogs: false, abortOnError: false },
  );
  app.useLogger(
    new ConsoleLogger({
      logLevels: ['fatal', 'error', 'warn'],
      colors: Boolean(process.stderr.isTTY),
    }),
  );
  app.flushLogs();
  // Which database every command works on, so that a token made on the
  // embedded database is not mistaken for one of the service's PostgreSQL.
  console.error(`Database: ${app.get(Database).description}`);
  try {
    await run(app, command, args, opts);
  } finally {
    await app.close();
  }
}

async function run(
  app: INestApplicationContext,
  command: string,
  args: string[],
  opts: Record<string, string | boolean | string[] | undefined>,
): Promise<void> {
  const [tenants, tokens] = [app.get(TenantsService), app.get(TokensService)];
  const need = (value: unknown, what: string) => {
    if (typeof value !== 'string' || value === '')
      throw new UsageError(`Missing ${what}.\n\n${USAGE}`);
    return value;
  };
  /** --tenant's tenant, which must exist. */
  const knownTenant = async () => {
    const tenantId = need(opts.tenant, '--tenant');
    if (!(await tenants.hasTenant(tenantId)))
      throw new Refused(`Unknown tenant "${tenantId}".`);
    return tenantId;
  };
  const withAction = [
    'token',
    'tenant',
    'provider',
    'issuer',
    'webhook',
    'secret-keys',
  ];
  switch (
    `${command} ${withAction.includes(command) ? (args[0] ?? '') : ''}`.trim()
  ) {
    case 'migrate':
      return console.log('Migrations are up to date.');
    case 'import': {
      const file = need(args[0], 'the file to import');
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        throw new TenantFileError([
          {
            field: '$',
            message: `cannot read JSON from ${file}: ${(error as Error).message}`,
          },
        ]);
      }
      const started = Date.now();
      if (opts['replace-tokens'] && !opts.replace)
        throw new UsageError('--replace-tokens goes with --replace.');
      const s = await tenants.importTenant(parsed, {
        replace: opts.replace === true,
        replaceTokens: opts['replace-tokens'] === true,
        // What goes, said before it goes (on stderr: stdout stays the summary).
        beforeReplace: (n) =>
          console.error(
            `Replacing tenant "${n.tenantId}" removes ${count(n.removedIdentities.length, 'identity', 'identities')} the file lacks` +
              `${n.removedIdentities.length ? ` (${n.removedIdentities.slice(0, 10).join(', ')}${n.removedIdentities.length > 10 ? ', …' : ''})` : ''}` +
              ` and ${count(n.removedTokens, 'token', 'tokens')} (${opts['replace-tokens'] ? 'every token the file does not list' : 'of the identities and accounts that go'});` +
              ` it keeps ${count(n.keptTokens, 'token', 'tokens')} the file does not list.`,
          ),
      });
      return console.log(
        `${s.replaced ? 'Replaced' : 'Imported'} tenant "${s.tenantId}": ${s.identities} identities, ` +
          `${s.accounts} accounts, ${s.friendships} friendships, ${s.tokens} tokens in ${Date.now() - started} ms` +
          `${s.replaced ? `; ${count(s.keptTokens, 'token', 'tokens')} kept, ${s.removedTokens} removed` : ''}.`,
      );
    }
    case 'export': {
      const tenantId = need(args[0], 'the tenant to export');
      const file = await tenants.exportTenant(tenantId);
      if (!file) throw new Refused(`Unknown tenant "${tenantId}".`);
      const json = `${JSON.stringify(file, null, 2)}\n`;
      if (typeof opts.output === 'string')
        return writeFileSync(opts.output, json);
      return void process.stdout.write(json);
    }
    case 'token create': {
      const ttl = typeof opts.ttl === 'string' ? TTL.exec(opts.ttl) : null;
      if (opts.ttl !== undefined && !ttl)
        throw new UsageError(
          '--ttl takes a number and a unit: 90s, 15m, 1h, 7d.',
        );
      const { secret } = await tokens.createToken({
        tenantId: need(opts.tenant, '--tenant'),
        identityId: opts.identity as string | undefined,
        accountId: opts.account as string | undefined,
        appId: opts.app as string | undefined,
        scopes: (opts.scope as string[] | undefined) ?? [],
        ttlSeconds: ttl
          ? Number(ttl[1]) * TTL_SECONDS[ttl[2] as keyof typeof TTL_SECONDS]
          : undefined,
      });
      return console.log(secret);
    }
    case 'token revoke': {
      const revoked = await tokens.revokeToken(
        need(opts.tenant, '--tenant'),
        need(args[1], 'the token id or secret'),
      );
      if (!revoked)
        throw new Refused(
          'No live token with that id or secret in this tenant.',
        );
      return console.log('Revoked.');
    }
    case 'token list': {
      for (const t of await tokens.listTokens(need(opts.tenant, '--tenant')))
        console.log(
          JSON.stringify({
            id: t.id,
            type: t.type,
            owner: t.type === 'access' ? t.identityId : t.appId,
            ...(t.accountId ? { accountId: t.accountId } : {}),
            scopes: t.scopes,
            expiresAt: t.expiresAt?.toISOString() ?? null,
            revoked: t.revokedAt !== null,
            createdAt: t.createdAt.toISOString(),
            lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          }),
        );
      return;
    }
    case 'tenant show':
      return print(await app.get(AdminService).settings(await knownTenant()));
    case 'tenant set': {
      if (opts['no-admin-roles'] && opts['admin-role'])
        throw new UsageError(
          '--admin-role and --no-admin-roles exclude each other.',
        );
      const patch = {
        ...(typeof opts.name === 'string' && { name: opts.name }),
        ...(opts['admin-role'] && {
          adminRoles: opts['admin-role'] as string[],
        }),
        ...(opts['no-admin-roles'] && { adminRoles: [] }),
        ...(opts['link-return-url'] && {
          linkReturnUrls: opts['link-return-url'] as string[],
        }),
      };
      if (!Object.keys(patch).length)
        throw new UsageError(`Nothing to set.\n\n${USAGE}`);
      return print(
        await app
          .get(AdminService)
          .updateSettings(await knownTenant(), patch, undefined, CLI),
      );
    }
    case 'provider list': {
      const [providers, tenantId] = [
        app.get(AccountProvidersService),
        await knownTenant(),
      ];
      return printAll((page) => providers.listProviders(tenantId, page));
    }
    case 'issuer list': {
      const [issuers, tenantId] = [
        app.get(TokenIssuersService),
        await knownTenant(),
      ];
      return printAll((page) => issuers.listIssuers(tenantId, page));
    }
    case 'provider show':
      return print(
        await app
          .get(AccountProvidersService)
          .provider(await knownTenant(), need(args[1], 'the provider id')),
      );
    case 'provider add':
    case 'provider set': {
      const providers = app.get(AccountProvidersService);
      const [tenantId, id] = [
        await knownTenant(),
        need(args[1], 'the provider id'),
      ];
      if (opts['multiple-accounts'] && opts['single-account'])
        throw new UsageError(
          '--multiple-accounts and --single-account exclude each other.',
        );
      const given = {
        // --json gives any key, link settings included; the options win.
        ...(opts.json !== undefined && jsonOption(opts)),
        ...(typeof opts['sign-in-url'] === 'string' && {
          signInUrl: opts['sign-in-url'],
        }),
        ...(typeof opts['display-name'] === 'string' && {
          displayName: opts['display-name'],
        }),
        ...(typeof opts['image-url'] === 'string' && {
          providerImageUrl: opts['image-url'],
        }),
        ...(opts['multiple-accounts'] && { allowsMultipleAccounts: true }),
        ...(opts['single-account'] && { allowsMultipleAccounts: false }),
      };
      const secret = await clientSecretOption(opts);
      if (args[0] === 'add')
        return print(
          await providers.createProvider(
            tenantId,
            checkedBody(
              AccountProviderEntry,
              PROVIDER_KEYS,
              withClientSecret({ accountProviderId: id, ...given }, secret),
            ),
            CLI,
          ),
        );
      const current = await providers.provider(tenantId, id);
      return print(
        await providers.replaceProvider(
          tenantId,
          id,
          checkedBody(
            ProviderReplacement,
            PROVIDER_KEYS,
            withClientSecret({ ...current, ...given }, secret),
          ),
          undefined,
          CLI,
        ),
      );
    }
    case 'provider remove': {
      const id = need(args[1], 'the provider id');
      const removed = await app
        .get(AccountProvidersService)
        .removeProvider(
          await knownTenant(),
          id,
          opts['delete-accounts'] === true,
          undefined,
          CLI,
        );
      return console.log(
        `Removed provider "${id}"${removed ? ` and ${count(removed, 'account', 'accounts')}` : ''}.`,
      );
    }
    case 'issuer show':
      return print(
        await app
          .get(TokenIssuersService)
          .issuer(await knownTenant(), need(args[1], 'the issuer id or URL')),
      );
    case 'issuer add':
      return print(
        await app
          .get(TokenIssuersService)
          .createIssuer(
            await knownTenant(),
            checkedBody(TokenIssuerEntry, ISSUER_KEYS, jsonOption(opts)),
            CLI,
          ),
      );
    case 'issuer set': {
      const issuers = app.get(TokenIssuersService);
      const [tenantId, id] = [
        await knownTenant(),
        need(args[1], 'the issuer id or URL'),
      ];
      const current = await issuers.issuer(tenantId, id);
      return print(
        await issuers.replaceIssuer(
          tenantId,
          id,
          checkedBody(IssuerReplacement, [...ISSUER_KEYS, 'id'], {
            ...current,
            ...jsonOption(opts),
          }),
          undefined,
          CLI,
        ),
      );
    }
    case 'issuer remove': {
      const id = need(args[1], 'the issuer id or URL');
      await app
        .get(TokenIssuersService)
        .removeIssuer(await knownTenant(), id, undefined, CLI);
      return console.log(`Removed issuer "${id}".`);
    }
    case 'webhook list': {
      const [webhooks, tenantId] = [
        app.get(WebhooksService),
        await knownTenant(),
      ];
      return printAll((page) => webhooks.listWebhooks(tenantId, page));
    }
    case 'webhook show':
      return print(
        await app
          .get(WebhooksService)
          .webhook(await knownTenant(), need(args[1], 'the webhook id')),
      );
    case 'webhook status':
      return print(
        await app
          .get(WebhooksService)
          .status(await knownTenant(), need(args[1], 'the webhook id')),
      );
    case 'webhook attempts': {
      const [webhooks, tenantId, id] = [
        app.get(WebhooksService),
        await knownTenant(),
        need(args[1], 'the webhook id'),
      ];
      return printAll((page) => webhooks.attempts(tenantId, id, page));
    }
    case 'webhook add':
      return print(
        await app.get(WebhooksService).createWebhook(
          await knownTenant(),
          checkedBody(WebhookRequest, WEBHOOK_KEYS, {
            ...jsonOption(opts, {}),
            url: need(opts.url, '--url'),
          }),
          CLI,
        ),
      );
    case 'webhook set':
      return print(
        await app.get(WebhooksService).updateWebhook(
          await knownTenant(),
          need(args[1], 'the webhook id'),
          // null stays: `"description": null` removes it, as PATCH does.
          new JsonBodyPipe(WebhookPatch, [...WEBHOOK_KEYS]).transform(
            jsonOption(opts),
          ),
          undefined,
          CLI,
        ),
      );
    case 'webhook remove': {
      const id = need(args[1], 'the webhook id');
      await app
        .get(WebhooksService)
        .removeWebhook(await knownTenant(), id, undefined, CLI);
      return console.log(`Removed webhook "${id}".`);
    }
    case 'webhook rotate-secret': {
      const overlap =
        opts.overlap === undefined
          ? {}
          : { overlapSeconds: Number(opts.overlap) };
      const body = checkedBody(
        RotateSecretRequest,
        ['overlapSeconds'],
        overlap,
      );
      return print(
        await app
          .get(WebhooksService)
          .rotateSecret(
            await knownTenant(),
            need(args[1], 'the webhook id'),
            body.overlapSeconds,
            undefined,
            CLI,
          ),
      );
    }
    case 'webhook replay':
      return print(
        await app.get(WebhooksService).replay(
          await knownTenant(),
          need(args[1], 'the webhook id'),
          checkedBody(ReplayRequest, ['fromEventId', 'since'], {
            ...(opts['from-event'] !== undefined && {
              fromEventId: opts['from-event'],
            }),
            ...(opts.since !== undefined && { since: opts.since }),
          }),
          CLI,
        ),
      );
    case 'secret-keys rotate': {
      const box = app.get(SecretBox);
      if (box.currentKeyId === undefined) throw new NoSecretKey();
      const { added } = box.addKey();
      const { resealed, unreadable } = await app
        .get(AccountProvidersService)
        .resealSecrets();
      console.log(
        `${added ? `Added key "${box.currentKeyId}" to the embedded database's key file. ` : ''}` +
          `${count(resealed, 'client secret', 'client secrets')} sealed anew under key "${box.currentKeyId}".` +
          (unreadable.length
            ? ` ${count(unreadable.length, 'secret', 'secrets')} no key of this command opens (${unreadable.slice(0, 10).join(', ')}): set them again.`
            : ' Keys other than it now seal nothing.'),
      );
      if (unreadable.length) process.exitCode = 1;
      return;
    }
    case 'audit': {
      const [admin, tenantId] = [app.get(AdminService), await knownTenant()];
      return printAll((page) => admin.listEvents(tenantId, page));
    }
    case 'merge': {
      const [tenantId, into, from] = [
        need(opts.tenant, '--tenant'),
        need(opts.into, '--into'),
        need(opts.from, '--from'),
      ];
      await app.get(IdentityService).mergeIdentities(tenantId, into, from);
      return console.log(`Merged "${from}" into "${into}".`);
    }
    case 'events': {
      const tenantId = need(opts.tenant, '--tenant');
      if (opts.after !== undefined && !/^\d{1,18}$/.test(String(opts.after)))
        throw new UsageError('--after takes an event id.');
      return printEvents(
        app.get(EventsService),
        tenantId,
        BigInt((opts.after as string) ?? 0),
        opts.follow === true,
      );
    }
    default:
      throw new UsageError(
        `Unknown command "${[command, ...args.slice(0, 1)].join(' ')}".\n\n${USAGE}`,
      );
  }
}

/** The actor of every change the command line makes, in the audit log. */
const CLI = 'cli';

const print = (value: object) => console.log(JSON.stringify(value, null, 2));

/** Every element of a paged collection, a JSON line each. */
async function printAll(
  fetch: (page: Page) => Promise<Collection<object[]>>,
): Promise<void> {
  let page: Page = { limit: 1000 };
  for (;;) {
    const { items, next } = await fetch(page);
    for (const item of items) console.log(JSON.stringify(item));
    if (!next) return;
    page = next;
  }
}

/** --json's object. */
function jsonOption(opts: Record<string, unknown>, otherwise?: object): object {
  if (typeof opts.json !== 'string' && otherwise) return otherwise;
  if (typeof opts.json !== 'string')
    throw new UsageError(`Missing --json.\n\n${USAGE}`);
  let value: unknown;
  try {
    value = JSON.parse(opts.json);
  } catch (error) {
    throw new UsageError(`--json is not JSON: ${(error as Error).message}`);
  }
  return value as object;
}

/**
 * A body checked as the admin API checks it (unknown keys refused, every
 * problem named); a key set to null is left out, so that `set` can remove
 * an optional one.
 */
function checkedBody<T extends object>(
  rules: new () => T,
  keys: readonly string[],
  body: object,
): T {
  const given = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== null),
  );
  return new JsonBodyPipe(rules, keys as (keyof T & string)[]).transform(given);
}

/**
 * The client secret the options give: read from standard input (never an
 * argument, which other users of the host can see), null for none, or
 * undefined when they say nothing of it.
 */
async function clientSecretOption(
  opts: Record<string, unknown>,
): Promise<string | null | undefined> {
  if (opts['client-secret-stdin'] && opts['no-client-secret'])
    throw new UsageError(
      '--client-secret-stdin and --no-client-secret exclude each other.',
    );
  if (opts['no-client-secret']) return null;
  if (!opts['client-secret-stdin']) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
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
  if (typeof body.link !== 'object' || body.link === null)
    throw new UsageError(
      'A client secret goes with link settings: give them with --json.',
    );
  return { ...body, link: { ...body.link, clientSecret: secret } };
}

/** Prints events in id order; with `follow`, keeps polling until stopped. */
async function printEvents(
  events: EventsService,
  tenantId: string,
  after: bigint,
  follow: boolean,
) {
  let stopped = false;
  const stop = () => (stopped = true);
  process.once('SIGINT', stop).once('SIGTERM', stop);
  for (;;) {
    const batch = await events.listEvents(tenantId, after);
    for (const event of batch)
      process.stdout.write(`${JSON.stringify(event)}\n`);
    if (batch.length) after = BigInt(batch[batch.length - 1].id);
    if (batch.length === 0 && (!follow || stopped)) return;
    if (batch.length === 0)
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
  }
}

let config: AppConfig | undefined;

/** The URL commands connect through: the primary itself when DATABASE_DIRECT_URL names it. */
const commandDatabase = (config: AppConfig) =>
  config.databaseDirectUrl
    ? {
        databaseUrl: config.databaseDirectUrl,
        databaseVariable: 'DATABASE_DIRECT_URL',
      }
    : { databaseUrl: config.databaseUrl };

main(process.argv.slice(2)).catch((error: Error) => {
  const usage =
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  const known =
    usage ||
    error instanceof Refused ||
    error instanceof ConfigError ||
    error instanceof TenantFileError ||
    error instanceof DomainError;
  console.error(
    known
      ? error.message
      : explainStartupError(error, config && commandDatabase(config)),
  );
  process.exit(usage ? 2 : 1);
});
