import fc from 'fast-check';
import { loadConfig } from '../src/config/app-config';
import { identity, provider, tenantFile, token } from './support/factories';
import { snapshot } from './support/snapshot';
import { useTenant, useTestApp } from './support/test-app';

// A cursor is unsigned base64url JSON: a caller can send any string, or the
// JSON of a cursor's shape with values no page ever ends on. Every paged
// route answers such a cursor with the one 400 of a cursor the service did
// not issue, or with a page; never a 5xx, and nothing changes.

/** Subscriptions are made, never delivered: no request leaves loopback. */
const NO_DELIVERY = loadConfig({ WEBHOOK_DELIVERY: 'false' }).webhooks;
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const ANN = token({ identityId: 'ann' });

const FILE = tenantFile({
  id: 'cursors',
  adminRoles: ['admin'],
  accountProviders: [provider('one'), provider('two')],
  tokenIssuers: ['one', 'two'].map((name) => ({
    issuer: `https://${name}.cursors.example`,
    jwksUri: `https://${name}.cursors.example/jwks`,
    audiences: ['api'],
  })),
  identities: [
    identity('ann', {
      displayName: 'Ann',
      roles: ['admin', 'member'],
      friends: ['bob', 'cy'],
    }),
    identity('bob', { displayName: 'Bob' }),
    identity('cy', { displayName: 'Cy' }),
  ],
  tokens: [ADMIN, ANN],
});

const REFUSED = (instance: string) => ({
  type: 'urn:problem:identity:invalid-request',
  title: 'Invalid request',
  status: 400,
  detail: 'cursor is not a cursor this service issued',
  instance,
  errors: [{ field: 'cursor', message: 'is not a cursor this service issued' }],
});

const encode = (value: unknown) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

/** Values no cursor of the service holds, each aimed at one column type. */
const HOSTILE = [
  '',
  ' 1',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  'NaN',
  'Infinity',
  '2147483648',
  '-2147483649',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999999999',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
  '2026-02-30T00:00:00.000Z',
  '2026-01-01',
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  '00000000-0000-0000-0000-000000000000',
  'wh_00000000000000000000000000',
  'wh_ZZZ',
  'a\u0000b',
  '\ud800',
  "' OR 1=1 --",
  'x'.repeat(1500),
];
const slot = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 30 }),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.uuid(),
);
/** A cursor of `length` keys: hostile strings, or JSON of the wrong type. */
const shaped = (length: number) =>
  fc
    .array(fc.oneof({ weight: 4, arbitrary: slot }, fc.jsonValue()), {
      minLength: length,
      maxLength: length,
    })
    .map(encode);
const cursor = (length: number) =>
  fc.oneof(
    { weight: 4, arbitrary: shaped(length) },
    fc.string({ maxLength: 40 }),
    fc.jsonValue().map(encode),
    fc.array(slot, { maxLength: 4 }).map(encode),
    fc
      .uint8Array({ maxLength: 60 })
      .map((b) => Buffer.from(b).toString('base64url')),
  );

describe('cursors of every paged route', () => {
  const t = useTestApp({
    config: { rateLimit: 1_000_000, webhooks: NO_DELIVERY },
  });
  const tenant = useTenant(t, FILE);
  let webhook: string;
  beforeAll(async () => {
    const made = await t
      .http()
      .post(`/${tenant.id}/api/admin/v1/webhooks`)
      .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
      .send({ url: 'https://hooks.example/in' })
      .expect(201);
    webhook = made.body.id;
    // A second event of ann's, so that her change log has pages.
    await tenant.as(ANN.token).put('', { locality: 'fr-FR' }).expect(200);
    await t
      .http()
      .post(`/${tenant.id}/api/admin/v1/webhooks`)
      .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
      .send({ url: 'https://hooks.example/other' })
      .expect(201);
  });

  /** Each paged route: its path, the token that may read it, its cursor's keys. */
  const routes = () => {
    const admin = `/${tenant.id}/api/admin/v1`;
    return [
      { path: `${admin}/tokens`, as: ADMIN, keys: 2 },
      { path: `${admin}/events`, as: ADMIN, keys: 1 },
      { path: `${admin}/account-providers`, as: ADMIN, keys: 1 },
      { path: `${admin}/token-issuers`, as: ADMIN, keys: 1 },
      { path: `${admin}/webhooks`, as: ADMIN, keys: 1 },
      { path: `${admin}/webhooks/${webhook}/attempts`, as: ADMIN, keys: 1 },
      { path: `${admin}/identities`, as: ADMIN, keys: 1 },
      { path: `${admin}/identities/ann/friends`, as: ADMIN, keys: 2 },
      { path: `${admin}/identities/ann/roles`, as: ADMIN, keys: 1 },
      { path: `${admin}/identities/ann/events`, as: ADMIN, keys: 1 },
      { path: `${tenant.api}/friends`, as: ANN, keys: 2 },
      { path: `${tenant.api}/ann/friends`, as: ANN, keys: 2 },
      { path: `${tenant.api}/roles`, as: ANN, keys: 1 },
      { path: `${tenant.api}/ann/roles`, as: ANN, keys: 1 },
    ];
  };
  const page = (route: { path: string; as: { token: string } }, at: string) =>
    t
      .http()
      .get(`${route.path}?limit=1&cursor=${encodeURIComponent(at)}`)
      .set('Authorization', `Bearer ${tenant.token(route.as.token)}`);

  it('takes every cursor it issues: each list walked a page at a time is the whole list', async () => {
    for (const route of routes().filter((r) => !r.path.endsWith('/attempts'))) {
      const get = (path: string) =>
        t
          .http()
          .get(path)
          .set('Authorization', `Bearer ${tenant.token(route.as.token)}`)
          .expect(200);
      const whole = (await get(route.path)).body as unknown[];
      const walked: unknown[] = [];
      let next: string | undefined = `${route.path}?limit=1`;
      while (next) {
        const res = await get(next);
        walked.push(...res.body);
        next = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
      }
      expect([route.path, walked.length > 1, walked]).toStrictEqual([
        route.path,
        true,
        whole,
      ]);
    }
  });

  it.each([
    ['an int8 beyond its range', '/events', ['9223372036854775808']],
    ['an int4 beyond its range', '/token-issuers', ['2147483648']],
    ['an int4 beyond its range', '/account-providers', ['1e15']],
    [
      'a token id that is no UUID',
      '/tokens',
      ['2026-01-01T00:00:00.000Z', 'x'],
    ],
    [
      'a time before any the database holds',
      '/tokens',
      ['-271821-04-20T00:00:00.000Z', '00000000-0000-0000-0000-000000000000'],
    ],
    [
      'an attempt id beyond int8',
      '/webhooks/:id/attempts',
      ['9999999999999999999'],
    ],
    ['a number where text goes', '/webhooks', [1]],
    [
      'an event id beyond int8',
      '/identities/ann/events',
      ['9223372036854775808'],
    ],
    ['a number where an identityId goes', '/identities', [1]],
  ])(
    'refuses %s on %s with the 400 of a cursor it did not issue',
    async (_what, route, key) => {
      const path = `/${tenant.id}/api/admin/v1${route.replace(':id', webhook)}`;
      const res = await page({ path, as: ADMIN }, encode(key));
      expect([res.status, res.headers['content-type'], res.body]).toStrictEqual(
        [400, 'application/problem+json', REFUSED(path)],
      );
    },
  );

  it('answers any cursor with a page or that 400, never a 5xx, changing nothing', async () => {
    const all = routes();
    const before = await snapshot(t.database);
    await fc.assert(
      fc.asyncProperty(
        fc
          .nat(all.length - 1)
          .chain((i) => cursor(all[i].keys).map((at) => [all[i], at] as const)),
        async ([route, at]) => {
          const res = await page(route, at);
          if (res.status === 200) expect(Array.isArray(res.body)).toBe(true);
          else
            expect([res.status, res.body]).toStrictEqual([
              400,
              REFUSED(route.path),
            ]);
        },
      ),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 600),
        seed:
          process.env.FUZZ_SEED === 'random'
            ? Date.now() % 2 ** 31
            : Number(process.env.FUZZ_SEED ?? 20261127),
      },
    );
    expect(await snapshot(t.database)).toStrictEqual(before);
  }, 600_000);
});
