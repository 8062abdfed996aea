import { randomBytes } from 'node:crypto';
import { API, example } from './support/example';
import { withTestApp } from './support/test-app';

// Needs Redis (run with the PostgreSQL project, which needs shared servers).
describe('rate limits through Redis', () => {
  it('shares the budget through Redis between instances', async () => {
    const token = `shared-${randomBytes(12).toString('hex')}`;
    const file = example();
    file.tokens.push({ token, type: 'access', identityId: 'mary' });
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
    const instance = { tenants: [file], config: { rateLimit: 3, redisUrl } };
    await withTestApp(instance, async (first) => {
      await first.as(token).get(API).expect(200);
      await first.as(token).get(API).expect(200);
    });
    await withTestApp(instance, async (second) => {
      const last = await second.as(token).get(API).expect(200);
      expect(last.headers['ratelimit-remaining']).toBe('0');
      await second.as(token).get(API).expect(429);
    });
  });
});
