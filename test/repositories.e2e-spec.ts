import { AccountsRepository } from '../src/accounts/accounts.repository';
import { AccessRepository } from '../src/auth/access.repository';
import { hashTokenSecret } from '../src/auth/token-secret';
import { EventsRepository } from '../src/events/events.repository';
import { FRIEND_FIELDS } from '../src/friends/friends.dto';
import { FriendsRepository } from '../src/friends/friends.repository';
import {
  FIELD_NAMES,
  FieldKind,
  IDENTITY_FIELDS,
} from '../src/identity/identity-fields';
import {
  pickFields,
  toIdentityResponse,
} from '../src/identity/identity.mapper';
import { IdentityRecord } from '../src/identity/identity.record';
import { IdentityRepository } from '../src/identity/identity.repository';
import { ReadinessRepository } from '../src/ops/readiness.repository';
import { RolesRepository } from '../src/roles/roles.repository';
import { Prisma } from '../src/generated/prisma/client';
import { example, TOKENS } from './support/example';
import { useTestApp } from './support/test-app';
import { wholeJson } from './support/lists';

// Raw queries are typed by a cast: these tests hold each one to its type,
// key by key, on both databases. An identity's row is checked against the
// field table, so a column read under a wrong name or type fails here.

/** What a value of each kind of identity field is in a stored row. */
const ROW_TYPE: Record<FieldKind, (value: unknown) => boolean> = {
  id: (v) => typeof v === 'string',
  text: (v) => v === null || typeof v === 'string',
  email: (v) => v === null || typeof v === 'string',
  locality: (v) => v === null || typeof v === 'string',
  datetime: (v) => v === null || v instanceof Date,
  flag: (v) => typeof v === 'boolean',
  texts: isStrings,
  emails: isStrings,
  localities: isStrings,
  urls: isStrings,
  properties: (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((p) => typeof p === 'string'),
};

function isStrings(value: unknown) {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** An identity row: exactly the table's fields and the version, each of its kind's type. */
function expectIdentityRecord(row: IdentityRecord | null | undefined) {
  expect(row).toBeTruthy();
  const record = row as unknown as Record<string, unknown>;
  expect(Object.keys(record).sort()).toStrictEqual(
    [...FIELD_NAMES, 'version'].sort(),
  );
  expect(typeof record.version).toBe('bigint');
  const wrong = FIELD_NAMES.filter(
    (field) => !ROW_TYPE[IDENTITY_FIELDS[field].kind](record[field]),
  );
  expect(wrong).toStrictEqual([]);
}

const typesOf = (row: object) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      value === null ? 'null' : value instanceof Date ? 'Date' : typeof value,
    ]),
  );

describe('repositories', () => {
  const t = useTestApp({ tenants: [example()] });

  it('value rows read through the driver adapter exactly as $queryRaw does', async () => {
    // Every column type the service reads: text, enum as text, arrays,
    // booleans, int4, int8, timestamptz, jsonb, and the nulls of each.
    const sql = Prisma.sql`
      SELECT i.*, e.id AS event_id, e.type::text AS event_type, e.fields, e.occurred_at,
             t.expires_at, t.scopes, count(*) OVER ()::int AS n, NULL::bigint AS no_version,
             NULL::timestamptz AS no_time, NULL::jsonb AS no_json
        FROM identity i
        JOIN identity_event e ON e.tenant_id = i.tenant_id AND e.identity_id = i.identity_id
        LEFT JOIN token t ON t.tenant_id = i.tenant_id AND t.identity_id = i.identity_id
       WHERE i.tenant_id = ${'example'}
       ORDER BY i.identity_id, e.id, t.token_hash`;
    const direct = await t.database.read.rows(
      { text: sql.text, values: () => sql.values },
      {},
    );
    expect(direct.length).toBeGreaterThan(3);
    expect(direct).toStrictEqual(await t.database.prisma.$queryRaw(sql));
  });

  it('read a registered token with its caller and identity', async () => {
    const caller = await t.app
      .get(AccessRepository)
      .findTokenCaller(hashTokenSecret(TOKENS.ada));
    const { identity, ...token } = caller!;
    expect(typesOf(token)).toStrictEqual({
      tokenId: 'string',
      tenantId: 'string',
      type: 'string',
      accountId: 'string',
      appId: 'null',
      scopes: 'object',
      expiresAt: 'null',
      revokedAt: 'null',
      lastUsedAt: 'null',
      isAdmin: 'boolean',
    });
    expectIdentityRecord(identity);
    const app = await t.app
      .get(AccessRepository)
      .findTokenCaller(hashTokenSecret(TOKENS.crm));
    expect(app!.identity).toBeNull();
  });

  it("read an identity's access facts, and the survivor of a merged-away id", async () => {
    const access = t.app.get(AccessRepository);
    const facts = await access.accessFacts('example', 'mary', 'charles');
    expect(Object.keys(facts).sort()).toStrictEqual([
      'identity',
      'isFriend',
      'mergedInto',
    ]);
    expect([facts.isFriend, facts.mergedInto]).toStrictEqual([true, null]);
    expectIdentityRecord(facts.identity);
    expect(await access.accessFacts('example', 'ada-old', null)).toStrictEqual({
      identity: null,
      isFriend: false,
      mergedInto: { identityId: 'ada', isFriend: false },
    });
  });

  it('read the identity a JWT names, and an identity by id', async () => {
    const caller = await t.app
      .get(AccessRepository)
      .findIdentityCaller('example', 'ada', 'acc-ada-google-1');
    expect([caller!.isAdmin, caller!.accountId]).toStrictEqual([
      true,
      'acc-ada-google-1',
    ]);
    expectIdentityRecord(caller!.identity);
    expectIdentityRecord(
      await t.app.get(IdentityRepository).findIdentity('example', 'grace'),
    );
  });

  it('read providers with their accounts', async () => {
    const rows = await t.app
      .get(AccountsRepository)
      .findProviderAccounts('example', 'ada');
    expect(typesOf(rows[1])).toStrictEqual({
      accountProviderId: 'string',
      providerDisplayName: 'string',
      providerImageUrl: 'string',
      signInUrl: 'string',
      linkable: 'boolean',
      lastLinkStart: 'string',
      allowsMultipleAccounts: 'boolean',
      accountId: 'string',
      issuedUserId: 'string',
      accountPrivatePersonalIdentifier: 'string',
      displayName: 'string',
      emailAddress: 'string',
      accountProfileUrl: 'string',
      pictureUrl: 'string',
    });
  });

  it('write friends as the identity mapper answers them: one representation rule on both paths', async () => {
    const { items } = await t.app
      .get(FriendsRepository)
      .findFriends('example', 'ada', {});
    const friends = JSON.parse(await wholeJson(items)) as {
      identityId: string;
    }[];
    expect(friends.map((f) => f.identityId)).toStrictEqual(['charles', 'mary']);
    const identities = t.app.get(IdentityRepository);
    for (const friend of friends) {
      const row = await identities.findIdentity('example', friend.identityId);
      expect(friend).toStrictEqual(
        pickFields(toIdentityResponse(row!), new Set(FRIEND_FIELDS)),
      );
    }
  });

  it('read roles, the change log and the applied migrations', async () => {
    expect(
      await t.app
        .get(RolesRepository)
        .findRoleNames('example', 'ada', { limit: 1 }),
    ).toStrictEqual({
      items: ['admin'],
      next: { limit: 1, after: ['admin'] },
    });
    // The change log is the command line's; the repository needs only the database.
    const [event] = await new EventsRepository(t.database).findEvents(
      'example',
      0n,
      1,
    );
    expect(typesOf(event)).toStrictEqual({
      id: 'bigint',
      tenantId: 'string',
      identityId: 'string',
      type: 'string',
      fields: 'object',
      relatedIdentityId: 'null',
      occurredAt: 'Date',
      version: 'bigint',
      // Set while tracing is on only.
      traceParent: 'null',
    });
    const applied = await t.app.get(ReadinessRepository).appliedMigrations();
    expect(applied.every((name) => typeof name === 'string')).toBe(true);
  });
});
