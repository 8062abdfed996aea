import {
  loadConfig,
  type MetricsConfig,
  type WebhookConfig,
} from '../src/config/app-config';
import { Database } from '../src/database/database';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository';
import { identity, tenantFile, token } from './support/factories';
import { TestApp, useTestApp } from './support/test-app';
import { until } from './support/until';

// What an outside security review found of the public /metrics: scrapes
// that each counted every webhook backlog, labels naming every tenant.
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const fileOf = (id: string) =>
  tenantFile({ id, identities: [identity('ann')], tokens: [ADMIN] });
const METRICS_TOKEN = 'scrape-secret-0123456789abcdef';
const HELP =
  '# HELP webhook_backlog_events Events waiting to be delivered to each webhook, among the next 10000 of its tenant: 10000 means at least that many.';

/** Delivery off, so that backlogs stay as the test makes them. */
const webhooks = (tenantId: string): WebhookConfig => ({
  ...loadConfig({}).webhooks,
  deliver: false,
  privateNetworkTenants: [tenantId],
});

/** The service with a tenant of this id, and the id of the webhook made for it. */
function useMetricsApp(tenantId: string, metrics: MetricsConfig) {
  const t = useTestApp({
    tenants: [fileOf(tenantId)],
    config: { webhooks: webhooks(tenantId), metrics },
  });
  const webhook = { id: '' };
  beforeAll(async () => {
    const made = await t
      .http()
      .post(`/${tenantId}/api/admin/v1/webhooks`)
      .set('Authorization', `Bearer ${ADMIN.token}`)
      .send({ url: 'http://127.0.0.1:9/hooks' })
      .expect(201);
    webhook.id = made.body.id as string;
  });
  return { t, webhook };
}

/** The lines of one metric in a scrape. */
const linesOf = (text: string, name: string) =>
  text
    .split('\n')
    .filter((line) => line.includes(`${name} `) || line.startsWith(`${name}{`));

/** `count` events of the tenant's identity, written straight to the change log. */
const addEvents = (t: TestApp, tenantId: string, count: number) =>
  t.app.get(Database).prisma.$executeRawUnsafe(
    `INSERT INTO identity_event (tenant_id, identity_id, type)
     SELECT $1, 'ann', 'updated' FROM generate_series(1, ${count})`,
    tenantId,
  );

describe('/metrics by default', () => {
  const TENANT = 'metrics-public';
  const { t, webhook } = useMetricsApp(TENANT, {
    tenantLabels: false,
    cacheMs: 0,
  });
  afterEach(() => jest.restoreAllMocks());

  it('labels backlogs without tenant ids and counts each up to 10000', async () => {
    await addEvents(t, TENANT, 3);
    const three = await t.http().get('/metrics').expect(200);
    expect(linesOf(three.text, 'webhook_backlog_events')).toStrictEqual([
      HELP,
      '# TYPE webhook_backlog_events gauge',
      `webhook_backlog_events{webhook="${webhook.id}",status="active"} 3`,
    ]);
    expect(three.text).not.toContain(TENANT);
    await addEvents(t, TENANT, 10_000);
    const many = await t.http().get('/metrics').expect(200);
    expect(linesOf(many.text, 'webhook_backlog_events')).toStrictEqual([
      HELP,
      '# TYPE webhook_backlog_events gauge',
      `webhook_backlog_events{webhook="${webhook.id}",status="active"} 10000`,
    ]);
  });

  it('runs one backlog query for the scrapes that arrive while it runs, however long it takes', async () => {
    const repository = t.app.get(WebhooksRepository);
    const original = repository.backlogs.bind(repository);
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    const queries = jest
      .spyOn(repository, 'backlogs')
      .mockImplementation(async (...args) => {
        await released;
        return original(...args);
      });
    // Every scrape reads the pool figures as it starts collecting.
    const scrapesCollecting = jest.spyOn(t.database, 'poolStats');
    const first = t
      .http()
      .get('/metrics')
      .then((res) => res);
    await until(() => queries.mock.calls.length === 1);
    // The query in flight has run for a minute when more scrapes come.
    const now = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => now() + 60_000);
    const more = [1, 2].map(() =>
      t
        .http()
        .get('/metrics')
        .then((res) => res),
    );
    await until(() => scrapesCollecting.mock.calls.length >= 3);
    release();
    const answers = await Promise.all([first, ...more]);
    expect(queries).toHaveBeenCalledTimes(1);
    expect(answers.map((res) => res.status)).toStrictEqual([200, 200, 200]);
    expect(
      answers.map((res) => linesOf(res.text, 'webhook_backlog_events')[2]),
    ).toStrictEqual(
      Array(3).fill(
        `webhook_backlog_events{webhook="${webhook.id}",status="active"} 10000`,
      ),
    );
    await t.http().get('/metrics').expect(200);
    expect(queries).toHaveBeenCalledTimes(2);
  });
});

describe('/metrics with METRICS_TOKEN and tenant labels', () => {
  const TENANT = 'metrics-labelled';
  const { t, webhook } = useMetricsApp(TENANT, {
    token: METRICS_TOKEN,
    tenantLabels: true,
    cacheMs: 30_000,
  });
  afterEach(() => jest.restoreAllMocks());

  it('refuses a scrape without the token, or with another, and runs no query for it', async () => {
    const queries = jest.spyOn(t.app.get(WebhooksRepository), 'backlogs');
    const refused = (detail: string) => ({
      type: 'urn:problem:identity:unauthorized',
      title: 'Authentication required',
      status: 401,
      detail,
      instance: '/metrics',
    });
    const none = await t.http().get('/metrics').expect(401);
    expect(none.headers['content-type']).toBe('application/problem+json');
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.body).toStrictEqual(
      refused('Send the metrics token in the Authorization header (Bearer).'),
    );
    for (const header of [
      `Bearer ${METRICS_TOKEN}x`,
      `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`u:${METRICS_TOKEN}`).toString('base64')}`,
      ADMIN.token,
    ]) {
      const wrong = await t
        .http()
        .get('/metrics')
        .set('Authorization', header)
        .expect(401);
      expect(wrong.headers['www-authenticate']).toBe(
        'Bearer realm="metrics", error="invalid_token"',
      );
      expect(wrong.body).toStrictEqual(
        refused('The token is not the metrics token.'),
      );
    }
    expect(queries).not.toHaveBeenCalled();
  });

  it('answers the token, with tenant labels, reusing a reading for the configured time', async () => {
    const queries = jest.spyOn(t.app.get(WebhooksRepository), 'backlogs');
    await addEvents(t, TENANT, 2);
    const scrape = () =>
      t
        .http()
        .get('/metrics')
        .set('Authorization', `bearer ${METRICS_TOKEN}`)
        .expect(200);
    const line = `webhook_backlog_events{tenant="${TENANT}",webhook="${webhook.id}",status="active"}`;
    expect(
      linesOf((await scrape()).text, 'webhook_backlog_events'),
    ).toStrictEqual([HELP, '# TYPE webhook_backlog_events gauge', `${line} 2`]);
    await addEvents(t, TENANT, 1);
    const now = Date.now.bind(Date);
    const clock = jest.spyOn(Date, 'now');
    clock.mockImplementation(() => now() + 29_000);
    expect(linesOf((await scrape()).text, 'webhook_backlog_events')[2]).toBe(
      `${line} 2`,
    );
    expect(queries).toHaveBeenCalledTimes(1);
    clock.mockImplementation(() => now() + 31_000);
    expect(linesOf((await scrape()).text, 'webhook_backlog_events')[2]).toBe(
      `${line} 3`,
    );
    expect(queries).toHaveBeenCalledTimes(2);
  });
});
