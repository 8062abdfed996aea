import { Injectable } from '@nestjs/common';
import { Columns, insertRows } from '../database/bulk-insert';
import { Database, type Models, type Transaction } from '../database/database';
import { sql } from 'kysely';
import { statement } from '../database/sql';
import { lockTenantSettings } from '../database/tenant-lock';
import {
  appendAdminEvent,
  appendEvents,
  NewEvent,
} from '../events/events.repository';
import { SECRET_NEEDED_AGAIN, secretWrite } from './client-secrets';
import type { LinkRow, TenantData } from './tenant-data';
import { IDENTITY_FIELDS } from '../identity/identity-fields';
import { SQL_TYPE_OF_KIND } from '../identity/identity.repository';

/** Long enough for the largest imports; the default is five seconds. */
const IMPORT_TIMEOUT_MS = 30 * 60 * 1000;

/** Every column of an identity, from the field table. */
function identityColumns(): Columns {
  return Object.fromEntries(
    Object.entries(IDENTITY_FIELDS).map(([field, spec]) => [
      spec.column,
      [SQL_TYPE_OF_KIND[spec.kind], field] as const,
    ]),
  );
}

/**
 * A replace keeps the id, externalId and creation time of each role the
 * file still lists (`roles`: JSON rows of name, id, external_id, created_at).
 */
const KEEP_ROLE_IDS = statement(
  (p: { tenantId: string; roles: string }) =>
    sql`
    UPDATE role r
       SET id = o.id, external_id = o.external_id, created_at = o.created_at
      FROM jsonb_to_recordset(${p.roles}::jsonb)
           AS o(name text, id text, external_id text, created_at timestamptz)
     WHERE r.tenant_id = ${p.tenantId} AND r.name = o.name`,
);

/** Fresh statistics of the tables an import fills. */
const ANALYZE = statement(
  () =>
    sql`ANALYZE identity, account, friendship, role_assignment, token, token_issuer`,
);

// The columns the importer fills, per table (see insertRows).
const TABLES = {
  account_provider: {
    account_provider_id: ['text', 'accountProviderId'],
    position: ['int', 'position'],
    display_name: ['text', 'displayName'],
    provider_image_url: ['text', 'providerImageUrl'],
    sign_in_url: ['text', 'signInUrl'],
    allows_multiple_accounts: ['boolean', 'allowsMultipleAccounts'],
    link: ['jsonb', 'link'],
    client_secret: ['text', 'clientSecret'],
    client_secret_set_at: ['timestamptz', 'clientSecretSetAt'],
  },
  identity: identityColumns(),
  token_issuer: {
    issuer: ['text', 'issuer'],
    position: ['int', 'position'],
    jwks_uri: ['text', 'jwksUri'],
    audiences: ['text[]', 'audiences'],
    algorithms: ['text[]', 'algorithms'],
    identity_claim: ['text', 'identityClaim'],
    identity_match: ['text', 'identityMatch'],
    account_claim: ['text', 'accountClaim'],
    app_id_claims: ['text[]', 'appIdClaims'],
    scope_claim: ['text', 'scopeClaim'],
    provisioning: ['text', 'provisioning'],
    account_provider_id: ['text', 'accountProvider'],
  },
  role: { name: ['text', 'name'] },
  role_assignment: {
    identity_id: ['text', 'identityId'],
    role_name: ['text', 'roleName'],
  },
  account: {
    account_id: ['text', 'accountId'],
    identity_id: ['text', 'identityId'],
    account_provider_id: ['text', 'accountProviderId'],
    issued_user_id: ['text', 'issuedUserId'],
    account_private_personal_identifier: [
      'text',
      'accountPrivatePersonalIdentifier',
    ],
    display_name: ['text', 'displayName'],
    email_address: ['text', 'emailAddress'],
    account_profile_url: ['text', 'accountProfileUrl'],
    picture_url: ['text', 'pictureUrl'],
  },
  friendship: {
    identity_id: ['text', 'identityId'],
    friend_id: ['text', 'friendId'],
  },
  token: {
    id: ['uuid', 'id'],
    token_hash: ['text', 'tokenHash'],
    type: ['token_type', 'type'],
    identity_id: ['text', 'identityId'],
    account_id: ['text', 'accountId'],
    app_id: ['text', 'appId'],
    scopes: ['text[]', 'scopes'],
    expires_at: ['timestamptz', 'expiresAt'],
  },
} as const satisfies Record<string, Columns>;

/** A provider of a replace whose stored client secret the file would send elsewhere. */
export class SecretNeededAgain extends Error {
  constructor(readonly accountProviderId: string) {
    super(`provider "${accountProviderId}": ${SECRET_NEEDED_AGAIN}`);
  }
}

/**
 * The providers' rows to insert, each with its client secret: the one the
 * file gives (sealed), or the one the replaced tenant had when the file
 * gives none and the link sends it where it did (client-secrets.ts).
 */
function providersWithSecrets(
  data: TenantData,
  sealed: Record<string, string | null>,
  old: {
    accountProviderId: string;
    link: unknown;
    clientSecret: string | null;
    clientSecretSetAt: Date | null;
  }[],
) {
  const before = new Map(old.map((p) => [p.accountProviderId, p]));
  return data.providers.map((row) => {
    const had = before.get(row.accountProviderId);
    const write = secretWrite(
      had
        ? {
            link: had.link as LinkRow | null,
            hasSecret: had.clientSecret !== null,
          }
        : null,
      row.link,
      sealed[row.accountProviderId],
    );
    if (write === undefined) throw new SecretNeededAgain(row.accountProviderId);
    const secret =
      write === 'set'
        ? {
            clientSecret: sealed[row.accountProviderId],
            clientSecretSetAt: new Date(),
          }
        : write === 'keep'
          ? {
              clientSecret: had!.clientSecret,
              clientSecretSetAt: had!.clientSecretSetAt,
            }
          : { clientSecret: null, clientSecretSetAt: null };
    return { ...row, ...secret };
  });
}

export class TenantExists extends Error {
  constructor(readonly tenantId: string) {
    super(`tenant "${tenantId}" exists already`);
  }
}

@Injectable()
export class TenantsRepository {
  constructor(private readonly database: Database) {}

  async exists(tenantId: string): Promise<boolean> {
    return (
      (await this.database.models.tenant.count({ where: { id: tenantId } })) > 0
    );
  }

  /** Issuer/audience pairs that another tenant already trusts. */
  async issuerClashes(
    tenantId: string,
    pairs: { issuer: string; audience: string }[],
  ): Promise<{ tenantId: string; issuer: string; audience: string }[]> {
    if (pairs.length === 0) return [];
    const others = await this.database.models.tokenIssuer.findMany({
      where: {
        tenantId: { not: tenantId },
        issuer: { in: pairs.map((p) => p.issuer) },
      },
      select: { tenantId: true, issuer: true, audiences: true },
    });
    return pairs.flatMap(({ issuer, audience }) =>
      others
        .filter((o) => o.issuer === issuer && o.audiences.includes(audience))
        .map((o) => ({ tenantId: o.tenantId, issuer, audience })),
    );
  }

  async countTenants(): Promise<number> {
    return this.database.models.tenant.count();
  }

  /**
   * Writes a whole tenant in one transaction. With `replace`, the tenant's
   * old data is removed first (cascading from the tenant row); without it an
   * existing tenant makes the insert fail and nothing is written. A replace
   * keeps what the file does not mention: the tokens it does not list (unless
   * `replaceTokens`), as long as their identity and account are still there,
   * the Group id, externalId and creation time of each role that is still
   * there, and the webhook subscriptions with their delivery log. The
   * change log records `events`, and a deletion for every identity the
   * replaced tenant had that the new data lacks.
   */
  async write(
    data: TenantData,
    replace: boolean,
    events: NewEvent[],
    options: ImportOptions = {},
  ): Promise<{ replaced: boolean } & ReplacePlan> {
    const result = await this.database.transaction(
      (tx) => writeTenant(tx, data, replace, events, options),
      { timeoutMs: IMPORT_TIMEOUT_MS },
    );
    // Fresh statistics after a bulk load, so the planner picks the indexes.
    await this.database.primary.rows(ANALYZE, {});
    return result;
  }

  /** What replacing the tenant with `data` would remove; nothing for a new tenant. */
  async replacePlan(
    data: TenantData,
    replaceTokens: boolean,
  ): Promise<ReplacePlan> {
    const tenantId = data.tenant.id;
    const old = (await this.exists(tenantId))
      ? await readReplaced(this.database.models, tenantId)
      : { identityIds: [], tokens: [], roles: [] };
    return planReplace(data, old, replaceTokens);
  }

  /**
   * Everything of a tenant except its tokens, or undefined when unknown:
   * one snapshot (a REPEATABLE READ transaction), so a write while it reads
   * cannot leave a friendship to an identity missing from the same export.
   */
  read(
    tenantId: string,
  ): Promise<Omit<TenantData, 'tokens' | 'clientSecrets'> | undefined> {
    return this.database.transaction((tx) => readTenant(tx.models, tenantId), {
      isolationLevel: 'RepeatableRead',
      timeoutMs: IMPORT_TIMEOUT_MS,
    });
  }
}

interface ImportOptions {
  replaceTokens?: boolean;
  /** The file's client secrets, sealed, by provider id (null: none). */
  sealedSecrets?: Record<string, string | null>;
}

/**
 * TenantsRepository.write's transaction: it reads what a replace needs of
 * the tenant there, writes the tenant anew with its webhooks and the file's
 * rows, restores what a replace keeps, and records the change and audit logs.
 */
async function writeTenant(
  tx: Transaction,
  data: TenantData,
  replace: boolean,
  events: NewEvent[],
  { replaceTokens = false, sealedSecrets = {} }: ImportOptions,
): Promise<{ replaced: boolean } & ReplacePlan> {
  const tenantId = data.tenant.id;
  // Imports of one tenant queue here, so a replace sees the tenant as
  // the previous import committed it.
  await lockTenantSettings(tx, tenantId);
  const existed =
    (await tx.models.tenant.count({ where: { id: tenantId } })) > 0;
  if (existed && !replace) throw new TenantExists(tenantId);
  const before = existed
    ? await readBefore(tx.models, tenantId)
    : {
        replaced: { identityIds: [], tokens: [], roles: [] },
        settings: false as const,
        providers: [],
      };
  const providers = providersWithSecrets(data, sealedSecrets, before.providers);
  const plan = planReplace(data, before.replaced, replaceTokens);
  // Webhook subscriptions are not in the file: they and their
  // delivery log outlive the replace, and deliver its events.
  const webhooks = existed
    ? await readWebhooks(tx.models, tenantId)
    : { subscriptions: [], attempts: [] };
  if (replace) await tx.models.tenant.deleteMany({ where: { id: tenantId } });
  await tx.models.tenant.create({ data: data.tenant });
  await restoreWebhooks(tx.models, webhooks);
  await insertTenantRows(tx, data, providers);
  await keepReplaced(tx, data, plan, before.replaced.roles);
  await logImport(tx, tenantId, plan, events, before.settings);
  return { replaced: existed, ...plan };
}

/**
 * What an import needs of the tenant it replaces: what the replace plan
 * weighs, the settings its audit entry starts from, the providers whose
 * client secrets it may keep.
 */
async function readBefore(
  db: Reader & Pick<Models, 'tenant' | 'accountProvider'>,
  tenantId: string,
) {
  const replaced = await readReplaced(db, tenantId);
  const settings = await readSettings(db, tenantId);
  const providers = await db.accountProvider.findMany({
    where: { tenantId },
    select: {
      accountProviderId: true,
      link: true,
      clientSecret: true,
      clientSecretSetAt: true,
    },
  });
  return { replaced, settings, providers };
}

/** The tenant's webhook subscriptions and their delivery log. */
async function readWebhooks(
  db: Pick<Models, 'webhook' | 'webhookAttempt'>,
  tenantId: string,
) {
  const subscriptions = await db.webhook.findMany({ where: { tenantId } });
  const attempts = subscriptions.length
    ? await db.webhookAttempt.findMany({
        where: { webhookId: { in: subscriptions.map((w) => w.id) } },
      })
    : [];
  return { subscriptions, attempts };
}

/** The webhook subscriptions and delivery log read before the replace, written back. */
async function restoreWebhooks(
  db: Pick<Models, 'webhook' | 'webhookAttempt'>,
  { subscriptions, attempts }: Awaited<ReturnType<typeof readWebhooks>>,
): Promise<void> {
  if (subscriptions.length) {
    await db.webhook.createMany({ data: subscriptions });
    await db.webhookAttempt.createMany({ data: attempts });
  }
}

/** The file's rows, table by table, each after the rows it refers to. */
async function insertTenantRows(
  tx: Transaction,
  data: TenantData,
  providers: object[],
): Promise<void> {
  const insert = (table: keyof typeof TABLES, rows: object[]) =>
    insertRows(tx, table, data.tenant.id, TABLES[table], rows);
  await insert('account_provider', providers);
  await insert('token_issuer', data.issuers);
  await insert('identity', data.identities);
  await insert(
    'role',
    data.roles.map((name) => ({ name })),
  );
  await insert('role_assignment', data.roleAssignments);
  await insert('account', data.accounts);
  await insert('friendship', data.friendships);
  await insert('token', data.tokens);
}

/**
 * What a replace keeps of the tenant it replaces: the tokens of the plan,
 * and the id, externalId and creation time of each role the file still lists.
 */
async function keepReplaced(
  tx: Transaction,
  data: TenantData,
  plan: ReplacePlan,
  oldRoles: Replaced['roles'],
): Promise<void> {
  const tenantId = data.tenant.id;
  if (plan.keptTokens.length)
    await tx.models.token.createMany({
      data: plan.keptTokens.map((token) => ({ ...token, tenantId })),
    });
  const roles = oldRoles.filter((r) => data.roles.includes(r.name));
  if (roles.length)
    await tx.rows(KEEP_ROLE_IDS, {
      tenantId,
      roles: JSON.stringify(roles),
    });
}

/**
 * The change log of an import: a deletion for every identity the replace
 * removes, then `events`; and, for a replace, its entry in the audit log.
 */
async function logImport(
  tx: Transaction,
  tenantId: string,
  plan: ReplacePlan,
  events: NewEvent[],
  settingsBefore: Settings | false,
): Promise<void> {
  const deletions = plan.removedIdentities.map((identityId) => ({
    identityId,
    type: 'deleted' as const,
    fields: [],
  }));
  await appendEvents(tx, tenantId, [...deletions, ...events]);
  // A replace is an administration of the tenant: in its audit log.
  if (settingsBefore)
    await appendAdminEvent(tx, tenantId, {
      actor: 'cli',
      action: 'tenant.replaced',
      target: 'tenant',
      before: settingsBefore,
      after: await readSettings(tx.models, tenantId),
    });
}

/** What an export reads. */
type ExportReader = Reader &
  Pick<
    Models,
    | 'tenant'
    | 'tokenIssuer'
    | 'accountProvider'
    | 'account'
    | 'friendship'
    | 'roleAssignment'
  >;

/** The reads of an export, in the transaction given. */
async function readTenant(
  prisma: ExportReader,
  tenantId: string,
): Promise<Omit<TenantData, 'tokens' | 'clientSecrets'> | undefined> {
  const tenant = await prisma.tenant.findUnique({
    where: { id: tenantId },
    select: { id: true, name: true, adminRoles: true, linkReturnUrls: true },
  });
  if (!tenant) return undefined;
  const [
    issuers,
    providers,
    identities,
    accounts,
    friendships,
    roles,
    roleAssignments,
  ] = await readTenantRows(prisma, tenantId);
  return {
    tenant,
    // The migration's check constraint holds identity_match to IDENTITY_MATCHES.
    issuers: issuers as TenantData['issuers'],
    // Link settings are stored as the validator wrote them (LinkRow).
    providers: providers as TenantData['providers'],
    identities: identities.map((i) => ({
      ...i,
      properties: i.properties as Record<string, string>,
    })),
    accounts,
    friendships,
    roles: roles.map((r) => r.name),
    roleAssignments,
  };
}

/** The rows of the tenant's tables, read at once, each in the order of an export. */
function readTenantRows(prisma: ExportReader, tenantId: string) {
  const where = { tenantId };
  return Promise.all([
    prisma.tokenIssuer.findMany({
      where,
      orderBy: { position: 'asc' },
      omit: { tenantId: true },
    }),
    // The sealed secret never leaves: an export says when one was set.
    prisma.accountProvider.findMany({
      where,
      orderBy: { position: 'asc' },
      omit: { tenantId: true, clientSecret: true },
    }),
    prisma.identity.findMany({
      where,
      orderBy: { identityId: 'asc' },
      omit: {
        tenantId: true,
        version: true,
        createdAt: true,
        updatedAt: true,
      },
    }),
    prisma.account.findMany({
      where,
      orderBy: [{ provider: { position: 'asc' } }, { accountId: 'asc' }],
      omit: { tenantId: true },
    }),
    prisma.friendship.findMany({
      where,
      orderBy: [{ identityId: 'asc' }, { friendId: 'asc' }],
      omit: { tenantId: true },
    }),
    prisma.role.findMany({
      where,
      orderBy: { name: 'asc' },
      select: { name: true },
    }),
    prisma.roleAssignment.findMany({
      where,
      orderBy: [{ identityId: 'asc' }, { roleName: 'asc' }],
      omit: { tenantId: true },
    }),
  ]);
}

/** What a replace removes, and the tokens it keeps. */
export interface ReplacePlan {
  /** Identities of the tenant that the file lacks. */
  removedIdentities: string[];
  /** Tokens that go: not in the file, and either `replaceTokens` or their identity or account goes. */
  removedTokens: number;
  keptTokens: KeptToken[];
}

type KeptToken = Replaced['tokens'][number];

type Settings = Awaited<ReturnType<typeof readSettings>>;

/** The settings an audit log entry of a replace holds: no identity data, no secret. */
async function readSettings(db: Pick<Models, 'tenant'>, tenantId: string) {
  const tenant = await db.tenant.findUniqueOrThrow({
    where: { id: tenantId },
    select: {
      name: true,
      adminRoles: true,
      linkReturnUrls: true,
      providers: {
        select: { accountProviderId: true },
        orderBy: { position: 'asc' },
      },
      issuers: { select: { issuer: true }, orderBy: { position: 'asc' } },
    },
  });
  return {
    name: tenant.name,
    adminRoles: tenant.adminRoles,
    linkReturnUrls: tenant.linkReturnUrls,
    accountProviders: tenant.providers.map((p) => p.accountProviderId),
    tokenIssuers: tenant.issuers.map((i) => i.issuer),
  };
}

type Reader = Pick<Models, 'identity' | 'token' | 'role'>;

type Replaced = Awaited<ReturnType<typeof readReplaced>>;

/** What a replace needs of the tenant as it is. */
async function readReplaced(db: Reader, tenantId: string) {
  const [identities, tokens, roles] = await Promise.all([
    db.identity.findMany({ where: { tenantId }, select: { identityId: true } }),
    db.token.findMany({ where: { tenantId }, omit: { tenantId: true } }),
    db.role.findMany({
      where: { tenantId },
      select: { name: true, id: true, externalId: true, createdAt: true },
    }),
  ]);
  return {
    identityIds: identities.map((i) => i.identityId),
    tokens,
    roles: roles.map((r) => ({
      name: r.name,
      id: r.id,
      external_id: r.externalId,
      created_at: r.createdAt,
    })),
  };
}

function planReplace(
  data: TenantData,
  old: Replaced,
  replaceTokens: boolean,
): ReplacePlan {
  const identities = new Set(data.identities.map((i) => i.identityId));
  const accounts = new Set(data.accounts.map((a) => a.accountId));
  const listed = new Set(data.tokens.map((t) => t.tokenHash));
  const keptTokens = replaceTokens
    ? []
    : old.tokens.filter(
        (t) =>
          !listed.has(t.tokenHash) &&
          (t.identityId === null || identities.has(t.identityId)) &&
          (t.accountId === null || accounts.has(t.accountId)),
      );
  const kept = new Set(keptTokens);
  return {
    removedIdentities: old.identityIds.filter((id) => !identities.has(id)),
    removedTokens: old.tokens.filter(
      (t) => !kept.has(t) && !listed.has(t.tokenHash),
    ).length,
    keptTokens,
  };
}
