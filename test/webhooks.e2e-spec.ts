import request from 'supertest';
import { EventsService } from '../src/events/events.service';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository';
import { loadConfig } from '../src/config/app-config';
import { identity, tenantFile, token, type Token } from './support/factories';
import { problemBody as problem } from './support/problem';
import { useTestApp } from './support/test-app';
import type { TestTenant } from './support/test-tenant';
import { until } from './support/until';
import { fastWebhooks, WebhookReceiver } from './support/webhook-receiver';

const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const DELETER = token({
  appId: 'deleter',
  scopes: ['identities:read', 'identities:delete'],
});
/** Each identity's own access token: a PUT of the identity API changes its caller. */
const OWN = Object.fromEntries(
  ['ann', 'bob', 'cy'].map((identityId) => [identityId, token({ identityId })]),
);

const FILE = tenantFile({
  id: 'hooks',
  adminRoles: ['admin'],
  identities: [
    identity('ann', { displayName: 'Ann', roles: ['admin'] }),
    identity('bob', { displayName: 'Bob' }),
    identity('cy', { displayName: 'Cy' }),
  ],
  tokens: [ADMIN, ...Object.values(OWN), DELETER],
});

/** Short times, so that back-off, timeouts and leases play out in a test. */
const FAST = fastWebhooks();

const ID = expect.stringMatching(/^wh_[0-9a-v]{26}$/);
const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
const SECRET = expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('webhooks', () => {
  // Replays back to back: their spacing is test/quotas.e2e-spec.ts's.
  const app = useTestApp({
    config: {
      webhooks: FAST,
      quotas: loadConfig({ WEBHOOK_REPLAY_SECONDS: '0' }).quotas,
    },
  });
  let tenant: TestTenant;
  beforeEach(async () => {
    tenant = await app.newTenant(FILE);
  });
  const admin = () => `/${tenant.id}/api/admin/v1/webhooks`;
  const as = ({ token: secret }: Token) => ({
    get: (path: string) =>
      request(app.app.getHttpServer())
        .get(path)
        .set('Authorization', `Bearer ${tenant.token(secret)}`),
    post: (path: string, body: object) =>
      request(app.app.getHttpServer())
        .post(path)
        .set('Authorization', `Bearer ${tenant.token(secret)}`)
        .send(body),
    patch: (path: string, body: object) =>
      request(app.app.getHttpServer())
        .patch(path)
        .set('Authorization', `Bearer ${tenant.token(secret)}`)
        .send(body),
    put: (path: string, body: object) =>
      request(app.app.getHttpServer())
        .put(path)
        .set('Authorization', `Bearer ${tenant.token(secret)}`)
        .send(body),
    delete: (path: string) =>
      request(app.app.getHttpServer())
        .delete(path)
        .set('Authorization', `Bearer ${tenant.token(secret)}`),
  });

  /** Subscribes `receiver` (with its secret) to the tenant. */
  async function subscribe(receiver: WebhookReceiver, body: object = {}) {
    const res = await as(ADMIN).post(admin(), { url: receiver.url, ...body });
    expect(res.status).toBe(201);
    receiver.secrets = [res.body.secret];
    return res.body as { id: string; secret: string };
  }

  /** Renames an identity (one `updated` event). */
  const rename = (identityId: string, displayName: string) =>
    as(OWN[identityId]).put(tenant.api, { displayName }).expect(200);

  const status = async (id: string) =>
    (await as(ADMIN).get(`${admin()}/${id}/status`).expect(200)).body;

  /** The change log since the tenant was imported (what a subscription made after it sees). */
  const changeLog = async () =>
    (await app.app.get(EventsService).listEvents(tenant.id, 0n)).filter(
      (e) => e.type !== 'imported',
    );

  describe('subscriptions', () => {
    it('are made, shown, changed and removed, with ETags, never showing the secret again', async () => {
      const made = await as(ADMIN).post(admin(), {
        url: 'http://127.0.0.1:9/hooks',
        eventTypes: ['identity.updated', 'identity.deleted'],
        description: 'CRM',
      });
      const view = {
        id: ID,
        url: 'http://127.0.0.1:9/hooks',
        eventTypes: ['identity.updated', 'identity.deleted'],
        description: 'CRM',
        enabled: true,
        status: 'active',
        createdAt: TIME,
        updatedAt: TIME,
        secretCreatedAt: TIME,
      };
      expect([made.status, made.body]).toStrictEqual([
        201,
        { ...view, secret: SECRET },
      ]);
      expect(made.headers['cache-control']).toBe('no-store');
      const id = made.body.id;
      expect(made.headers.location).toBe(`${admin()}/${id}`);
      const shown = await as(ADMIN).get(`${admin()}/${id}`);
      expect([shown.status, shown.body]).toStrictEqual([200, view]);
      expect(shown.headers.etag).toBe(made.headers.etag);
      expect(JSON.stringify(shown.body)).not.toContain(made.body.secret);
      const list = await as(ADMIN).get(admin());
      expect([list.status, list.body]).toStrictEqual([200, [view]]);
      // Made disabled, it says so.
      const off = await as(ADMIN).post(admin(), {
        url: 'http://127.0.0.1:9/off',
        enabled: false,
      });
      expect([off.body.enabled, off.body.status]).toStrictEqual([
        false,
        'disabled',
      ]);
      await as(ADMIN).delete(`${admin()}/${off.body.id}`).expect(204);

      const stale = await as(ADMIN)
        .patch(`${admin()}/${id}`, { enabled: false })
        .set('If-Match', '"other"');
      expect([stale.status, stale.body]).toStrictEqual([
        412,
        problem(
          412,
          'precondition-failed',
          'If-Match does not match the current ETag of the webhook; fetch it again and retry.',
        ),
      ]);
      const changed = await as(ADMIN)
        .patch(`${admin()}/${id}`, {
          eventTypes: ['*'],
          description: null,
          enabled: false,
        })
        .set('If-Match', shown.headers.etag);
      const { description: _d, ...rest } = view;
      expect([changed.status, changed.body]).toStrictEqual([
        200,
        { ...rest, eventTypes: ['*'], enabled: false, status: 'disabled' },
      ]);
      expect(changed.headers.etag).not.toBe(shown.headers.etag);

      const rotated = await as(ADMIN).post(`${admin()}/${id}/rotate-secret`, {
        overlapSeconds: 60,
      });
      expect([rotated.status, rotated.body]).toStrictEqual([
        200,
        { secret: SECRET, previousSecretExpiresAt: TIME },
      ]);
      expect(rotated.body.secret).not.toBe(made.body.secret);

      const audit = await as(ADMIN).get(`/${tenant.id}/api/admin/v1/events`);
      const actions = audit.body.map((e: { action: string }) => e.action);
      expect(actions).toStrictEqual([
        'webhook.created',
        'webhook.created',
        'webhook.deleted',
        'webhook.updated',
        'webhook.secret-rotated',
      ]);
      expect(JSON.stringify(audit.body)).not.toMatch(/whsec_/);

      await as(ADMIN).delete(`${admin()}/${id}`).expect(204);
      const gone = await as(ADMIN).get(`${admin()}/${id}`);
      expect([gone.status, gone.body]).toStrictEqual([
        404,
        problem(404, 'webhook-not-found', `No webhook "${id}" in this tenant.`),
      ]);
    });

    it.each([
      [
        { url: 'ftp://crm.example.test/' },
        'url must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)',
      ],
      [
        { url: 'http://crm.example.test/' },
        'url must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)',
      ],
      [
        { url: 'https://169.254.169.254/latest' },
        'url must not name a link-local address or a cloud metadata service',
      ],
      [
        { url: 'https://10.1.2.3/hooks' },
        'url must not name a private network address',
      ],
      [
        { url: 'https://[fd00::1]/hooks' },
        'url must not name a private network address',
      ],
      [
        { url: 'https://user:pw@crm.example.test/' },
        'url must not carry a user name or password',
      ],
      [
        { url: 'https://crm.example.test/', eventTypes: ['identity.read'] },
        'eventTypes each item must be one of *, identity.imported, identity.created, identity.updated, identity.deleted, identity.merged',
      ],
      [
        { url: 'https://crm.example.test/', eventTypes: [] },
        'eventTypes must name at least one type',
      ],
      [{ url: 42 }, 'url must be a string'],
    ])('refuses %j with a 400 that names the field', async (body, detail) => {
      // A tenant the operator has not let reach private networks.
      tenant = await app.newTenant(FILE, { privateNetworks: false });
      const res = await as(ADMIN).post(admin(), body);
      expect([res.status, res.body.type, res.body.detail]).toStrictEqual([
        400,
        'urn:problem:identity:invalid-request',
        detail,
      ]);
      expect((await as(ADMIN).get(admin())).body).toStrictEqual([]);
    });

    it('are the tenant admin’s only: another token gets 403, another tenant’s webhook is not found', async () => {
      const res = await as(OWN.ann).get(admin());
      expect(res.status).toBe(403);
      const other = await app.newTenant(FILE);
      const made = await request(app.app.getHttpServer())
        .post(`/${other.id}/api/admin/v1/webhooks`)
        .set('Authorization', `Bearer ${other.token(ADMIN.token)}`)
        .send({ url: 'http://127.0.0.1:9/', enabled: false })
        .expect(201);
      const foreign = await as(ADMIN).get(`${admin()}/${made.body.id}`);
      expect(foreign.status).toBe(404);
      const replay = await as(ADMIN).post(`${admin()}/${made.body.id}/replay`, {
        fromEventId: '1',
      });
      expect(replay.status).toBe(404);
    });
  });

  describe('delivery', () => {
    let receiver: WebhookReceiver;
    afterEach(() => receiver?.stop());

    it('survives a receiver that is down, then answers 500, then is slow: every event arrives, verified, once by id, in order per identity', async () => {
      // The port is known, nothing listens on it yet: the receiver is down.
      receiver = await new WebhookReceiver().start();
      await receiver.stop();
      const { id } = await subscribe(receiver);
      for (const [who, name] of [
        ['ann', 'Ann 1'],
        ['bob', 'Bob 1'],
        ['ann', 'Ann 2'],
      ])
        await rename(who, name);
      // Attempts fail while it is down, and say why.
      await until(async () => (await status(id)).failedAttempts >= 2);
      expect(await status(id)).toMatchObject({
        status: 'retrying',
        backlog: 3,
        lastError: 'connection failed (ECONNREFUSED)',
      });
      receiver.next({ answer: 500 }, { answer: 500 }, { slowMs: 600 });
      await receiver.start();
      for (const [who, name] of [
        ['cy', 'Cy 1'],
        ['bob', 'Bob 2'],
        ['ann', 'Ann 3'],
      ])
        await rename(who, name);
      await as(DELETER).delete(`${tenant.api}/cy`).expect(204);
      const events = await changeLog();
      const expected = events.map((e) => `evt_${e.id}`);
      await receiver.waitFor(() => receiver.uniqueIds().length >= 7);
      expect(receiver.uniqueIds().sort()).toStrictEqual(expected.sort());
      expect(receiver.deliveries.every((d) => d.verified[0])).toBe(true);
      expect(receiver.concurrentDuplicates).toBe(0);
      // Each identity's events first arrived in the change log's order.
      const byIdentity = (identityId: string) =>
        events
          .filter((e) => e.identityId === identityId)
          .map((e) => BigInt(e.id));
      expect(receiver.firstArrivalsByIdentity()).toStrictEqual({
        ann: byIdentity('ann'),
        bob: byIdentity('bob'),
        cy: byIdentity('cy'),
      });
      // 500, 500 and the slow one were retried: the same ids came again.
      expect(receiver.deliveries.length).toBeGreaterThanOrEqual(10);

      const arrived = (eventId: string) =>
        receiver
          .firstArrivals()
          .find((d) => d.payload.data.eventId === eventId)!.payload;
      const last = arrived(events.at(-2)!.id);
      const ann = await tenant.as(OWN.ann.token).get('').expect(200);
      expect(last).toStrictEqual({
        type: 'identity.updated',
        timestamp: TIME,
        data: {
          eventId: events.at(-2)!.id,
          tenantId: tenant.id,
          identityId: 'ann',
          fields: ['displayName'],
          etag: ann.headers.etag,
        },
      });
      expect(arrived(events.at(-1)!.id)).toStrictEqual({
        type: 'identity.deleted',
        timestamp: TIME,
        data: {
          eventId: events.at(-1)!.id,
          tenantId: tenant.id,
          identityId: 'cy',
          fields: [],
        },
      });
      await until(async () => (await status(id)).backlog === 0);
      expect(await status(id)).toStrictEqual({
        status: 'active',
        position: events.at(-1)!.id,
        backlog: 0,
        failedAttempts: 0,
        lastDeliveredAt: TIME,
        lastDeliveredEventId: events.at(-1)!.id,
        lastErrorAt: TIME,
        // Two identities' events go at once: which failure came last varies.
        lastError: expect.stringMatching(/^(answered 500|timed out)$/),
      });
      const attempts = (await as(ADMIN).get(`${admin()}/${id}/attempts`))
        .body as { status?: number; error?: string }[];
      const outcomes = attempts.map((a) => a.status ?? a.error);
      expect(outcomes).toEqual(
        expect.arrayContaining([
          'connection failed (ECONNREFUSED)',
          500,
          'timed out',
          204,
        ]),
      );
    });

    it('signs with both secrets while a rotation overlaps, then with the new one only', async () => {
      receiver = await new WebhookReceiver().start();
      const { id, secret: old } = await subscribe(receiver);
      const rotated = await as(ADMIN)
        .post(`${admin()}/${id}/rotate-secret`, { overlapSeconds: 1 })
        .expect(200);
      receiver.secrets = [old, rotated.body.secret];
      await rename('ann', 'During');
      await receiver.waitFor(() => receiver.deliveries.length === 1);
      expect(receiver.deliveries[0].signature.split(' ')).toHaveLength(2);
      expect(receiver.deliveries[0].verified).toStrictEqual([true, true]);
      await sleep(1100);
      await rename('ann', 'After');
      await receiver.waitFor(() => receiver.deliveries.length === 2);
      expect(receiver.deliveries[1].signature.split(' ')).toHaveLength(1);
      expect(receiver.deliveries[1].verified).toStrictEqual([false, true]);
    });

    it('follows no redirect, and a 410 disables the webhook until it is enabled again', async () => {
      const elsewhere = await new WebhookReceiver().start();
      receiver = await new WebhookReceiver().start();
      try {
        const { id } = await subscribe(receiver);
        receiver.next(
          { answer: 302, headers: { location: elsewhere.url } },
          { answer: 410 },
        );
        await rename('bob', 'Gone');
        await until(async () => (await status(id)).status === 'disabled');
        expect(elsewhere.deliveries).toStrictEqual([]);
        const attempts = (await as(ADMIN).get(`${admin()}/${id}/attempts`))
          .body;
        expect(
          attempts.map((a: { status: number; error: string }) => [
            a.status,
            a.error,
          ]),
        ).toStrictEqual([
          [410, 'answered 410'],
          [302, 'answered a redirect (302), which is not followed'],
        ]);
        const shown = await as(ADMIN).get(`${admin()}/${id}`).expect(200);
        expect([shown.body.enabled, shown.body.status]).toStrictEqual([
          false,
          'disabled',
        ]);
        await rename('bob', 'Still gone');
        await sleep(200);
        expect(receiver.deliveries).toHaveLength(2);
        // Enabled again: it goes on from the event that was refused.
        await as(ADMIN)
          .patch(`${admin()}/${id}`, { enabled: true })
          .expect(200);
        await receiver.waitFor(() => receiver.uniqueIds().length === 2);
        const names = receiver
          .firstArrivals()
          .map((d) => d.payload.data.eventId);
        expect(names).toStrictEqual((await changeLog()).map((e) => e.id));
      } finally {
        await elsewhere.stop();
      }
    });

    it('delivers only the types asked for, and replays from an event id or a time', async () => {
      receiver = await new WebhookReceiver().start();
      const { id } = await subscribe(receiver, {
        eventTypes: ['identity.deleted'],
      });
      await rename('ann', 'Skipped');
      await as(DELETER).delete(`${tenant.api}/cy`).expect(204);
      await receiver.waitFor(() => receiver.deliveries.length === 1);
      const events = await changeLog();
      expect(receiver.deliveries[0].payload.type).toBe('identity.deleted');
      await until(
        async () => (await status(id)).position === events.at(-1)!.id,
      );
      await as(ADMIN)
        .patch(`${admin()}/${id}`, { eventTypes: ['*'] })
        .expect(200);
      const replayed = await as(ADMIN).post(`${admin()}/${id}/replay`, {
        fromEventId: events[0].id,
      });
      expect([replayed.status, replayed.body]).toMatchObject([
        202,
        { position: String(BigInt(events[0].id) - 1n), backlog: 2 },
      ]);
      await receiver.waitFor(() => receiver.deliveries.length === 3);
      expect(receiver.deliveries[0].id).toBe(`evt_${events[1].id}`);
      expect(
        receiver.deliveries
          .slice(1)
          .map((d) => d.id)
          .sort(),
      ).toStrictEqual([`evt_${events[0].id}`, `evt_${events[1].id}`].sort());
      const since = await as(ADMIN).post(`${admin()}/${id}/replay`, {
        since: events[1].occurredAt,
      });
      expect(since.status).toBe(202);
      await receiver.waitFor(() => receiver.deliveries.length === 4);
      const both = await as(ADMIN).post(`${admin()}/${id}/replay`, {
        fromEventId: '1',
        since: events[1].occurredAt,
      });
      expect([both.status, both.body.detail]).toStrictEqual([
        400,
        'fromEventId or since must be given, not both',
      ]);
    });

    it('does not hold one endpoint up while another is down', async () => {
      const down = await new WebhookReceiver().start();
      await down.stop();
      receiver = await new WebhookReceiver().start();
      const stuck = await subscribe(down);
      await subscribe(receiver);
      for (const [who, name] of [
        ['ann', 'One'],
        ['bob', 'Two'],
        ['ann', 'Three'],
      ])
        await rename(who, name);
      await receiver.waitFor(() => receiver.uniqueIds().length === 3);
      expect((await status(stuck.id)).backlog).toBe(3);
      await as(ADMIN).delete(`${admin()}/${stuck.id}`).expect(204);
    });

    it('keeps delivery attempts for WEBHOOK_LOG_DAYS', async () => {
      receiver = await new WebhookReceiver().start();
      const { id } = await subscribe(receiver);
      await rename('ann', 'Logged');
      await receiver.waitFor(() => receiver.deliveries.length === 1);
      await until(
        async () =>
          (await as(ADMIN).get(`${admin()}/${id}/attempts`)).body.length === 1,
      );
      const repository = app.app.get(WebhooksRepository);
      // Aged past the 7 days of FAST.logDays, then pruned as the worker does.
      await app.database.prisma.webhookAttempt.updateMany({
        where: { webhookId: id },
        data: { attemptedAt: new Date(Date.now() - 8 * 86_400_000) },
      });
      expect(await repository.pruneAttempts(7)).toBeGreaterThanOrEqual(1);
      const log = await as(ADMIN).get(`${admin()}/${id}/attempts`);
      expect([log.status, log.body]).toStrictEqual([200, []]);
    });

    it('log each attempt with when its event was committed, until the change log no longer holds it', async () => {
      receiver = await new WebhookReceiver().start();
      const { id } = await subscribe(receiver);
      await rename('ann', 'Lagging');
      await until(
        async () =>
          (await as(ADMIN).get(`${admin()}/${id}/attempts`)).body.length === 1,
      );
      const [event] = await changeLog();
      const log = await as(ADMIN).get(`${admin()}/${id}/attempts`);
      expect([log.status, log.body]).toStrictEqual([
        200,
        [
          {
            id: expect.stringMatching(/^\d+$/),
            eventId: event.id,
            attemptedAt: TIME,
            durationMs: expect.any(Number),
            status: 204,
            eventOccurredAt: event.occurredAt,
          },
        ],
      ]);
      const [attempt] = log.body as { attemptedAt: string }[];
      expect(Date.parse(attempt.attemptedAt)).toBeGreaterThanOrEqual(
        Date.parse(event.occurredAt),
      );
      // Trimmed by an operator: the attempt stays, without the time.
      await app.database.prisma.identityEvent.delete({
        where: { id: BigInt(event.id) },
      });
      const { eventOccurredAt, ...kept } = log.body[0];
      expect(eventOccurredAt).toBe(event.occurredAt);
      expect(
        (await as(ADMIN).get(`${admin()}/${id}/attempts`).expect(200)).body,
      ).toStrictEqual([kept]);
    });

    it('outlive a replacing import, and deliver its events', async () => {
      receiver = await new WebhookReceiver().start();
      const { id } = await subscribe(receiver);
      const before = await as(ADMIN).get(`${admin()}/${id}`).expect(200);
      const copy = structuredClone(FILE);
      copy.tenant.id = tenant.id;
      copy.identities = copy.identities.filter((i) => i.identityId !== 'cy');
      copy.tokens = copy.tokens
        .filter((t) => t.token !== OWN.cy.token)
        .map((t) => ({ ...t, token: tenant.token(t.token) }));
      await app.tenants.importTenant(copy, { replace: true });
      const after = await as(ADMIN).get(`${admin()}/${id}`).expect(200);
      expect(after.body).toStrictEqual(before.body);
      // The replace's events: cy deleted, the others imported again.
      await receiver.waitFor(() => receiver.uniqueIds().length === 3);
      expect(
        receiver
          .firstArrivals()
          .map((d) => `${d.payload.type} ${d.payload.data.identityId}`)
          .sort((a, b) => a.localeCompare(b)),
      ).toStrictEqual([
        'identity.deleted cy',
        'identity.imported ann',
        'identity.imported bob',
      ]);
    });

    it('reports backlog and lag as Prometheus metrics', async () => {
      receiver = await new WebhookReceiver().start();
      await receiver.stop();
      const { id } = await subscribe(receiver);
      await rename('ann', 'Waiting');
      const metrics = await request(app.app.getHttpServer())
        .get('/metrics')
        .expect(200);
      // No tenant label unless the operator asks (METRICS_TENANT_LABELS).
      const labels = `webhook="${id}"`;
      expect(metrics.text).toMatch(
        new RegExp(`webhook_backlog_events\\{${labels},status="\\w+"\\} 1\\n`),
      );
      expect(metrics.text).toMatch(
        new RegExp(
          `webhook_oldest_undelivered_seconds\\{${labels},status="\\w+"\\} [\\d.]+\\n`,
        ),
      );
      await as(ADMIN).delete(`${admin()}/${id}`).expect(204);
    });
  });
});

describe('webhooks whose retries run out', () => {
  const app = useTestApp({
    config: { webhooks: { ...FAST, retryMaxMs: 2000, retrySeconds: 1 } },
  });
  let receiver: WebhookReceiver;
  afterAll(() => receiver?.stop());

  it('wait as Retry-After asks, are marked failing with their backlog kept, and deliver it when enabled again', async () => {
    const tenant = await app.newTenant(FILE);
    const server = app.app.getHttpServer();
    const admin = `/${tenant.id}/api/admin/v1/webhooks`;
    const auth = { Authorization: `Bearer ${tenant.token(ADMIN.token)}` };
    receiver = await new WebhookReceiver().start();
    receiver.next(
      { answer: 503, headers: { 'retry-after': '1' } },
      { answer: 500 },
      { answer: 500 },
      { answer: 500 },
      { answer: 500 },
      { answer: 500 },
    );
    const made = await request(server)
      .post(admin)
      .set(auth)
      .send({ url: receiver.url })
      .expect(201);
    const id = made.body.id;
    // One identity's events: one attempt at a time.
    for (const name of ['Ann again', 'Ann once more'])
      await tenant.as(OWN.ann.token).put('', { displayName: name }).expect(200);
    const status = async () =>
      (await request(server).get(`${admin}/${id}/status`).set(auth)).body;
    await until(async () => (await status()).status === 'failing');
    const failing = await status();
    expect(failing).toMatchObject({
      status: 'failing',
      backlog: 2,
      lastError: 'answered 500',
      failingSince: TIME,
    });
    // Retry-After: the second attempt came a second after the first.
    const [first, second] = receiver.deliveries;
    expect(
      Number(second.timestamp) - Number(first.timestamp),
    ).toBeGreaterThanOrEqual(1);
    // Failing: no more attempts, the events kept.
    const tried = receiver.deliveries.length;
    await sleep(300);
    expect(receiver.deliveries).toHaveLength(tried);
    receiver.recover();
    await request(server)
      .patch(`${admin}/${id}`)
      .set(auth)
      .send({ enabled: true })
      .expect(200);
    await receiver.waitFor(() => receiver.deliveries.length === tried + 2);
    expect(receiver.uniqueIds()).toHaveLength(2);
    expect(receiver.deliveries.slice(tried).map((d) => d.id)).toStrictEqual(
      receiver.uniqueIds(),
    );
    await until(async () => (await status()).backlog === 0);
    expect((await status()).status).toBe('active');
  });
});
