import { loadConfig } from '../src/config/app-config';
import { AuditLogRetention } from '../src/events/audit-log-retention';
import { tenantFile, token } from './support/factories';
import { adminRequests } from './support/admin-requests';
import { problemBody } from './support/problem';
import { useTestApp } from './support/test-app';
import type { TestTenant } from './support/test-tenant';

// A tenant:admin token cannot grow its tenant without bound: account
// providers and live tokens are capped by the operator's quotas, counted
// behind the tenant's settings lock in the transaction that adds the row.

/** Subscriptions are made, never delivered: no request leaves loopback. */
const NO_DELIVERY = loadConfig({ WEBHOOK_DELIVERY: 'false' }).webhooks;
const QUOTAS = loadConfig({
  TENANT_MAX_PROVIDERS: '3',
  TENANT_MAX_TOKENS: '4',
}).quotas;
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });

describe('per-tenant quotas', () => {
  const t = useTestApp({
    config: { rateLimit: 1_000_000, webhooks: NO_DELIVERY, quotas: QUOTAS },
  });
  let tenant: TestTenant;
  beforeEach(async () => {
    tenant = await t.newTenant(tenantFile({ tokens: [ADMIN] }));
  });

  const { admin, auth, post, list, postAtOnce, refusal } = adminRequests(
    t,
    () => tenant,
    ADMIN.token,
  );

  const provider = (i: number) => ({
    accountProviderId: `p${i}`,
    signInUrl: `https://login.example.test/p${i}`,
  });
  const PROVIDERS_FULL = [
    'accountProviderId',
    'is one more than the 3 account providers a tenant may have',
  ] as const;
  const TOKENS_FULL = [
    'appId',
    'is one more than the 4 live tokens a tenant may have',
  ] as const;

  it('account providers: 12 POSTs at once make exactly TENANT_MAX_PROVIDERS, the rest get the 400 of the quota', async () => {
    const answers = await postAtOnce('/account-providers', 12, provider);
    expect(answers).toStrictEqual({
      made: 3,
      refused: Array(9).fill(refusal('/account-providers', ...PROVIDERS_FULL)),
    });
    expect(await list('/account-providers')).toHaveLength(3);
    const audit = await list('/events');
    expect(audit.map((e) => e.action)).toStrictEqual(
      Array(3).fill('provider.created'),
    );
  });

  it('account providers: a tenant file with more than TENANT_MAX_PROVIDERS is refused whole', async () => {
    const file = tenantFile({
      accountProviders: [0, 1, 2, 3].map((i) => ({
        accountProviderId: `p${i}`,
        signInUrl: `https://login.example.test/p${i}`,
      })),
    });
    await expect(t.tenants.importTenant(file)).rejects.toMatchObject({
      errors: [
        {
          field: 'accountProviders',
          message: 'must have at most 3 items (TENANT_MAX_PROVIDERS)',
        },
      ],
    });
    expect(await t.tenants.hasTenant(file.tenant.id)).toBe(false);
  });

  it('account providers: a removed one makes room for another', async () => {
    for (const i of [0, 1, 2])
      await post('/account-providers', provider(i)).expect(201);
    const full = await post('/account-providers', provider(3));
    expect([full.status, full.body]).toStrictEqual(
      refusal('/account-providers', ...PROVIDERS_FULL),
    );
    await t
      .http()
      .delete(admin('/account-providers/p1'))
      .set('Authorization', auth())
      .expect(204);
    await post('/account-providers', provider(3)).expect(201);
  });

  it('tokens: 12 POSTs at once make exactly the live tokens TENANT_MAX_TOKENS leaves, the rest get the 400 of the quota', async () => {
    // The admin token of the tenant file is one of the four live ones.
    const answers = await postAtOnce('/tokens', 12, (i) => ({
      appId: `app-${i}`,
    }));
    expect(answers).toStrictEqual({
      made: 3,
      refused: Array(9).fill(refusal('/tokens', ...TOKENS_FULL)),
    });
    expect(await list('/tokens')).toHaveLength(4);
    const audit = await list('/events');
    expect(audit.map((e) => e.action)).toStrictEqual(
      Array(3).fill('token.created'),
    );
  });

  it('tokens: revoked and expired ones do not count', async () => {
    const short = await post('/tokens', { appId: 'short', ttlSeconds: 1 });
    expect(short.status).toBe(201);
    const kept = await post('/tokens', { appId: 'kept' }).expect(201);
    await post('/tokens', { appId: 'third' }).expect(201);
    const full = await post('/tokens', { appId: 'x' });
    expect([full.status, full.body]).toStrictEqual(
      refusal('/tokens', ...TOKENS_FULL),
    );
    await t
      .http()
      .delete(admin(`/tokens/${(kept.body as { tokenId: string }).tokenId}`))
      .set('Authorization', auth())
      .expect(204);
    await post('/tokens', { appId: 'after-revoke' }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await post('/tokens', { appId: 'after-expiry' }).expect(201);
    const again = await post('/tokens', { appId: 'y' });
    expect([again.status, again.body]).toStrictEqual(
      refusal('/tokens', ...TOKENS_FULL),
    );
  });

  describe('the audit log', () => {
    const roles = (tag: string) =>
      Array.from({ length: 100 }, (_, i) => `${tag}-${i}-`.padEnd(200, 'r'));
    const urls = (tag: string) =>
      Array.from(
        { length: 20 },
        (_, i) => `https://app.example/${tag}/${i}/${'u'.repeat(2000)}`,
      );
    /** A list as a cut entry keeps it: ten items of at most 500 characters, then a marker. */
    const cut = (list: string[]) => [
      ...list
        .slice(0, 10)
        .map((s) => (s.length > 500 ? `${s.slice(0, 500)}…` : s)),
      `… ${list.length - 10} more`,
    ];
    const patch = (body: object) =>
      t.http().patch(admin('/tenant')).set('Authorization', auth()).send(body);

    it('a PATCH of the largest settings writes an entry of the changed keys, cut to 16 KiB', async () => {
      tenant = await t.newTenant(
        tenantFile({
          tokens: [ADMIN],
          adminRoles: roles('old'),
          linkReturnUrls: urls('old'),
        }),
      );
      await patch({
        adminRoles: roles('new'),
        linkReturnUrls: urls('new'),
      }).expect(200);
      const [entry] = await list('/events');
      expect(entry).toStrictEqual({
        id: expect.stringMatching(/^\d+$/),
        actor: 'app:console',
        action: 'tenant.updated',
        target: 'tenant',
        before: {
          adminRoles: cut(roles('old')),
          linkReturnUrls: cut(urls('old')),
        },
        after: {
          adminRoles: cut(roles('new')),
          linkReturnUrls: cut(urls('new')),
        },
        occurredAt: expect.stringMatching(/Z$/),
      });
      const bytes = Buffer.byteLength(
        JSON.stringify({ before: entry.before, after: entry.after }),
      );
      // Whole, both settings would be 121,968 bytes.
      expect(bytes).toBeGreaterThan(14_000);
      expect(bytes).toBeLessThanOrEqual(16 * 1024);
    });

    it('a PATCH within 16 KiB is recorded whole, its changed keys only', async () => {
      tenant = await t.newTenant(
        tenantFile({ tokens: [ADMIN], name: 'Before' }),
      );
      await patch({ name: 'Renamed', adminRoles: ['a', 'b'] }).expect(200);
      expect(await list('/events')).toStrictEqual([
        {
          id: expect.stringMatching(/^\d+$/),
          actor: 'app:console',
          action: 'tenant.updated',
          target: 'tenant',
          before: { name: 'Before', adminRoles: [] },
          after: { name: 'Renamed', adminRoles: ['a', 'b'] },
          occurredAt: expect.stringMatching(/Z$/),
        },
      ]);
    });

    it('entries older than AUDIT_LOG_DAYS are dropped by the retention', async () => {
      await patch({ name: 'First' }).expect(200);
      await t.database.prisma.$executeRaw`
        UPDATE admin_event SET occurred_at = now() - interval '91 days'
         WHERE tenant_id = ${tenant.id}`;
      await patch({ name: 'Second' }).expect(200);
      await t.app.get(AuditLogRetention).prune();
      expect(await list('/events')).toStrictEqual([
        {
          id: expect.stringMatching(/^\d+$/),
          actor: 'app:console',
          action: 'tenant.updated',
          target: 'tenant',
          before: { name: 'First' },
          after: { name: 'Second' },
          occurredAt: expect.stringMatching(/Z$/),
        },
      ]);
    });
  });

  describe('webhook replays', () => {
    const replay = (id: string) =>
      post(`/webhooks/${id}/replay`, { fromEventId: '1' });
    const subscription = async () =>
      (
        (
          await post('/webhooks', { url: 'https://hooks.example/in' }).expect(
            201,
          )
        ).body as { id: string }
      ).id;

    it('a second replay within WEBHOOK_REPLAY_SECONDS gets a 429 with Retry-After and changes nothing', async () => {
      const id = await subscription();
      await replay(id).expect(202);
      const again = await replay(id);
      const wait = again.headers['retry-after'];
      expect(['59', '60']).toContain(wait);
      expect([again.status, again.body]).toStrictEqual([
        429,
        {
          ...problemBody(
            429,
            'too-many-requests',
            `The request budget is spent; retry in ${wait} s.`,
            admin(`/webhooks/${id}/replay`),
          ),
          title: 'Too many requests',
        },
      ]);
      const audit = await list('/events');
      expect(audit.map((e) => e.action)).toStrictEqual([
        'webhook.created',
        'webhook.replayed',
      ]);
      // Another subscription's replays are its own.
      await replay(await subscription()).expect(202);
    });

    it('a replay goes ahead once WEBHOOK_REPLAY_SECONDS have passed', async () => {
      const id = await subscription();
      await replay(id).expect(202);
      await t.database.prisma.$executeRaw`
        UPDATE webhook SET replayed_at = now() - interval '61 seconds'
         WHERE id = ${id}`;
      await replay(id).expect(202);
      await replay(id).expect(429);
    });
  });
});
