import request from 'supertest';
import { identity, tenantFile, token } from './support/factories';
import { useTestApp } from './support/test-app';
import type { TestTenant } from './support/test-tenant';
import { until } from './support/until';
import { fastWebhooks, WebhookReceiver } from './support/webhook-receiver';

const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const ANN = token({ identityId: 'ann' });
const FILE = tenantFile({
  id: 'fair',
  identities: [identity('ann')],
  tokens: [ADMIN, ANN],
});

/**
 * Two delivery slots, one a tenant may hold, and claims that start
 * attempts for 200 ms: each bound alone decides whether a subscription
 * waiting behind slow ones gets its turn in time.
 */
const FAIR = fastWebhooks({
  timeoutMs: 1000,
  leaseMs: 4000,
  concurrency: 2,
  tenantConcurrency: 1,
  claimMs: 200,
});
/** How long a receiver that answers late takes: 30 events last 6 s. */
const LATE_MS = 200;
const BACKLOG = 30;
/** How soon the event of a subscription waiting behind slow ones must arrive. */
const WITHIN_MS = 2000;

describe('webhook delivery shared between subscriptions', () => {
  const app = useTestApp({ config: { webhooks: FAIR } });
  const slow = new WebhookReceiver();
  const fast = new WebhookReceiver();
  const made: { tenant: TestTenant; id: string }[] = [];
  beforeAll(async () => {
    await slow.start();
    slow.delayMs = LATE_MS;
    await fast.start();
  });
  afterEach(async () => {
    // The slow backlogs go, so that nothing is under way at the end.
    for (const { tenant, id } of made.splice(0))
      await admin(tenant)
        .delete(`/${tenant.id}/api/admin/v1/webhooks/${id}`)
        .expect(204);
  });
  afterAll(async () => {
    await slow.stop();
    await fast.stop();
  });

  const admin = (tenant: TestTenant) => ({
    post: (path: string, body: object) =>
      request(app.app.getHttpServer())
        .post(path)
        .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
        .send(body),
    delete: (path: string) =>
      request(app.app.getHttpServer())
        .delete(path)
        .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`),
  });
  const subscribe = async (tenant: TestTenant, url: string) => {
    const res = await admin(tenant).post(
      `/${tenant.id}/api/admin/v1/webhooks`,
      {
        url,
      },
    );
    expect(res.status).toBe(201);
    made.push({ tenant, id: res.body.id });
  };
  const rename = (tenant: TestTenant, displayName: string) =>
    tenant.as(ANN.token).put('', { displayName }).expect(200);
  /** Subscribes `count` receivers that answer late to a backlog of one identity's events. */
  const slowBacklog = async (tenant: TestTenant, count: number) => {
    const before = slow.deliveries.length;
    for (let n = 0; n < count; n++)
      await subscribe(tenant, `${slow.url}?n=${n}`);
    for (let n = 0; n < BACKLOG; n++) await rename(tenant, `Busy ${n}`);
    await slow.waitFor(() => slow.deliveries.length >= before + 2);
  };
  /** How long the tenant's next event takes to reach the fast receiver, its only subscriber there. */
  const arrival = async (tenant: TestTenant) => {
    const before = slow.deliveries.length;
    const renamedAt = performance.now();
    await rename(tenant, 'Waiting');
    await until(
      () => fast.deliveries.some((d) => d.payload.data.tenantId === tenant.id),
      {
        what: `the event of ${tenant.id} delivered`,
        withinMs: WITHIN_MS,
        context: () => `meanwhile ${slow.deliveries.length - before} sent late`,
      },
    );
    return performance.now() - renamedAt;
  };

  it(`gives another tenant its turn: its event arrives within ${WITHIN_MS} ms while one tenant's receivers answer late`, async () => {
    const busy = await app.newTenant(FILE);
    const other = await app.newTenant(FILE);
    await slowBacklog(busy, 10);
    await subscribe(other, fast.url);
    expect(await arrival(other)).toBeLessThan(WITHIN_MS);
  });

  it(`gives a subscription its turn behind another of its tenant: its event arrives within ${WITHIN_MS} ms`, async () => {
    const tenant = await app.newTenant(FILE);
    await slowBacklog(tenant, 2);
    await subscribe(tenant, fast.url);
    expect(await arrival(tenant)).toBeLessThan(WITHIN_MS);
  });
});
