import { identity, tenantFile, token } from './support/factories';
import { useServers } from './support/server';
import { until } from './support/until';
import { WebhookReceiver } from './support/webhook-receiver';

// The built service is killed (SIGKILL, by its PID) in the middle of a
// burst of deliveries and started again: what it had sent past the
// position it last wrote arrives a second time, never more than
// docs/operations.md promises, and nothing is lost.
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
/** More identities than are sent at once, so that answers overtake each other. */
const PEOPLE = Array.from({ length: 12 }, (_, i) => `p${i}`);
const OWN = Object.fromEntries(
  PEOPLE.map((identityId) => [identityId, token({ identityId })]),
);
const BURST = 240;
/** docs/operations.md, delivering webhooks: at least once. */
const RESENT_AT_MOST = 50;

const FILE = tenantFile({
  id: 'burst',
  identities: PEOPLE.map((id) => identity(id)),
  tokens: [ADMIN, ...Object.values(OWN)],
});

const FAST = {
  RATE_LIMIT: '1000000',
  WEBHOOK_POLL_MS: '20',
  // Generous: an attempt that times out on a loaded machine is a failure,
  // and what was delivered after it comes again (more than the crash's 50).
  WEBHOOK_TIMEOUT_MS: '4000',
  WEBHOOK_LEASE_SECONDS: '8',
  // The receiver is on loopback.
  WEBHOOK_PRIVATE_NETWORK_TENANTS: 'burst',
};

describe('webhook delivery killed in a burst', () => {
  const { start } = useServers(FILE, FAST);
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    // One identity's events are slow to answer: the others overtake them.
    receiver.delayOf = (d) =>
      d.payload.data.identityId === PEOPLE[0] ? 300 : 5;
  });
  afterAll(() => receiver.stop());
  const send = async (
    base: string,
    method: string,
    path: string,
    secret: string,
    body: object,
  ) =>
    fetch(`${base}/burst/api/${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${secret}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  it(`sends at most ${RESENT_AT_MOST} events again after a kill -9, and loses none`, async () => {
    const { server, base } = await start();
    // Disabled while the backlog is made, so that it goes out as one burst.
    const made = await send(base, 'POST', 'admin/v1/webhooks', ADMIN.token, {
      url: receiver.url,
      enabled: false,
    });
    expect(made.status).toBe(201);
    const { id } = await made.json();
    for (let n = 0; n < BURST; n++) {
      const who = PEOPLE[n % PEOPLE.length];
      const res = await send(base, 'PUT', 'identity/v1', OWN[who].token, {
        displayName: `${who} ${n}`,
      });
      expect(res.status).toBe(200);
    }
    const enabled = await send(
      base,
      'PATCH',
      `admin/v1/webhooks/${id}`,
      ADMIN.token,
      { enabled: true },
    );
    expect(enabled.status).toBe(200);
    await until(() => receiver.deliveries.length >= 90, {
      what: 'the burst under way',
    });
    await server.kill();
    expect(receiver.deliveries.length).toBeLessThan(BURST);

    await start();
    await until(() => receiver.uniqueIds().length >= BURST, {
      what: 'every event delivered',
      withinMs: 45_000,
      context: () => `${receiver.uniqueIds().length} of ${BURST} arrived`,
    });
    const byIdentity = receiver.firstArrivalsByIdentity();
    expect(PEOPLE.map((who) => byIdentity[who]?.length)).toStrictEqual(
      PEOPLE.map(() => BURST / PEOPLE.length),
    );
    expect(receiver.deliveries.length - BURST).toBeLessThanOrEqual(
      RESENT_AT_MOST,
    );
  }, 90_000);
});
