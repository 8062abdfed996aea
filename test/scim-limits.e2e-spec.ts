import { useTestApp } from './support/test-app';
import { SCIM_JSON, useScimClient } from './support/scim-tenant';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

// The limits of the rest of the API hold on SCIM paths, answered as SCIM errors.
describe('SCIM under the service’s limits', () => {
  const t = useTestApp({
    config: { rateLimit: 2, rateLimitWindowSeconds: 60 },
  });
  const scim = useScimClient(t);

  it('takes bodies up to 1 MiB, answers a larger one 413 and a client over its budget 429, in SCIM form', async () => {
    // Over the API's 64 KiB, within SCIM's: read, then refused for its value.
    const large = await scim
      .write('post', '/Users', {
        schemas: [USER],
        userName: 'large',
        displayName: 'x'.repeat(100 * 1024),
      })
      .expect(400);
    expect(large.body).toMatchObject({ schemas: [ERROR], status: '400' });

    const big = await scim
      .write('post', '/Users', {
        schemas: [USER],
        userName: 'big',
        displayName: 'x'.repeat(1025 * 1024),
      })
      .expect(413);
    expect(big.headers['content-type']).toBe(SCIM_JSON);
    expect(big.body).toStrictEqual({
      schemas: [ERROR],
      status: '413',
      detail: BIG_DETAIL,
    });

    const refused = await scim.send('get', '/Users').expect(429);
    expect(refused.headers['content-type']).toBe(SCIM_JSON);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.body).toStrictEqual({
      schemas: [ERROR],
      status: '429',
      detail: `The request budget is spent; retry in ${refused.headers['retry-after']} s.`,
    });
    expect(
      await t.database.prisma.identity.count({
        where: { tenantId: scim.tenant.id },
      }),
    ).toBe(1);
  });
});

const BIG_DETAIL = 'The request body is larger than 1024 KiB.';
