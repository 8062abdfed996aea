import { loadConfig } from '../src/config/app-config';
import { tenantFile, token } from './support/factories';
import { adminRequests } from './support/admin-requests';
import { useTestApp } from './support/test-app';
import type { TestTenant } from './support/test-tenant';

// A tenant's caps are counted behind its settings lock, in the transaction
// that adds the row: requests sent at once cannot each count the others
// out, so they end with exactly the cap made and the rest refused.

/** Subscriptions are made, never delivered: no request leaves loopback. */
const NO_DELIVERY = loadConfig({ WEBHOOK_DELIVERY: 'false' }).webhooks;
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });

describe('per-tenant caps under concurrent requests', () => {
  const t = useTestApp({
    config: { rateLimit: 1_000_000, webhooks: NO_DELIVERY },
  });
  let tenant: TestTenant;

  const { list, postAtOnce, refusal } = adminRequests(
    t,
    () => tenant,
    ADMIN.token,
  );

  it('webhooks: 60 POSTs at once make exactly 20, the rest get the 400 of the cap', async () => {
    tenant = await t.newTenant(tenantFile({ tokens: [ADMIN] }));
    const answers = await postAtOnce('/webhooks', 60, () => ({
      url: 'https://hooks.example/in',
    }));
    expect(answers).toStrictEqual({
      made: 20,
      refused: Array(40).fill(
        refusal(
          '/webhooks',
          'url',
          'is one more than the 20 webhooks a tenant may have',
        ),
      ),
    });
    expect(await list('/webhooks')).toHaveLength(20);
  });

  it('token issuers: 40 POSTs at once on a tenant with 90 make exactly 10, the rest get the 400 of the cap', async () => {
    // Ninety from the tenant file: a hundred and thirty at once would wait
    // longer for the lock than a request may wait for a connection.
    const file = tenantFile({ tokens: [ADMIN] });
    const issuer = (i: number) => ({
      issuer: `https://${file.tenant.id}-${i}.example`,
      jwksUri: `https://${file.tenant.id}-${i}.example/jwks`,
      audiences: ['api'],
    });
    file.tenant.tokenIssuers = Array.from({ length: 90 }, (_, i) => issuer(i));
    tenant = await t.newTenant(file);
    const answers = await postAtOnce('/token-issuers', 40, (i) =>
      issuer(90 + i),
    );
    expect(answers).toStrictEqual({
      made: 10,
      refused: Array(30).fill(
        refusal(
          '/token-issuers',
          'issuer',
          'is one more than the 100 a tenant may have',
        ),
      ),
    });
    expect(await list('/token-issuers')).toHaveLength(100);
  });
});
