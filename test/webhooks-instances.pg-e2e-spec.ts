import { identity, tenantFile, token } from './support/factories';
import { useServers } from './support/server';
import { WebhookReceiver } from './support/webhook-receiver';

// Two instances of the built service deliver the webhooks of one database;
// both are killed (SIGKILL) in the middle of deliveries and one comes back:
// every event arrives, in order per identity, and never twice at the same
// time.
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const PEOPLE = ['ann', 'bob', 'cy', 'dee'];
/** Each one's access token. */
const OWN = Object.fromEntries(
  PEOPLE.map((identityId) => [identityId, token({ identityId })]),
);

const FILE = tenantFile({
  id: 'fleet',
  identities: PEOPLE.map((id) => identity(id)),
  tokens: [ADMIN, ...Object.values(OWN)],
});

const FAST = {
  RATE_LIMIT: '1000000',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_TIMEOUT_MS: '400',
  WEBHOOK_LEASE_SECONDS: '1',
  WEBHOOK_RETRY_BASE_MS: '20',
  WEBHOOK_RETRY_MAX_MS: '100',
  // One subscription at a time each: with two, both instances deliver.
  WEBHOOK_CONCURRENCY: '1',
};

describe('webhook delivery by two instances, killed mid-delivery', () => {
  const { start } = useServers(FILE, FAST);
  const receivers = [new WebhookReceiver(), new WebhookReceiver()];
  beforeAll(async () => {
    for (const receiver of receivers) {
      await receiver.start();
      receiver.delayMs = 15;
    }
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.stop();
  });
  const rename = async (base: string, who: string, n: number) => {
    const res = await fetch(`${base}/fleet/api/identity/v1`, {
      method: 'PUT',
      headers: {
        Authorization: `Bearer ${OWN[who].token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ displayName: `${who} ${n}` }),
    });
    expect(res.status).toBe(200);
  };

  it('loses nothing, keeps each endpoint in order, never sends one event twice at once', async () => {
    const one = await start();
    const two = await start();
    for (const receiver of receivers) {
      const res = await fetch(`${one.base}/fleet/api/admin/v1/webhooks`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${ADMIN.token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ url: receiver.url }),
      });
      expect(res.status).toBe(201);
      receiver.secrets = [(await res.json()).secret];
    }
    let n = 0;
    for (; n < 40; n++)
      await rename(n % 2 ? one.base : two.base, PEOPLE[n % 4], n);
    // Both instances die while they deliver, then one comes back.
    await receivers[0].waitFor(() => receivers[0].deliveries.length >= 5);
    await one.server.kill();
    for (; n < 60; n++) await rename(two.base, PEOPLE[n % 4], n);
    await receivers[1].waitFor(() => receivers[1].deliveries.length >= 30);
    await two.server.kill();
    const three = await start();
    for (; n < 64; n++) await rename(three.base, PEOPLE[n % 4], n);

    for (const receiver of receivers) {
      await receiver.waitFor(() => receiver.uniqueIds().length === 64);
      // Every identity's 16 renames, first arrived in the order made.
      const byIdentity = receiver.firstArrivalsByIdentity();
      for (const who of PEOPLE) {
        expect(byIdentity[who]).toHaveLength(16);
        expect(byIdentity[who]).toStrictEqual(
          [...byIdentity[who]].sort((a, b) => (a < b ? -1 : 1)),
        );
      }
      expect(receiver.deliveries.every((d) => d.verified[0])).toBe(true);
      expect(receiver.concurrentDuplicates).toBe(0);
    }
  });
});
