import { generatedTenant } from './support/generated-tenant';
import { useTestApp } from './support/test-app';

describe('a 10,000-identity import', () => {
  const t = useTestApp();

  it('loads everything in one transaction and serves it', async () => {
    const summary = await t.tenants.importTenant(
      generatedTenant('large', 10_000),
    );
    expect(summary).toStrictEqual({
      tenantId: 'large',
      replaced: false,
      identities: 10_000,
      accounts: 10_000,
      friendships: 10_000,
      tokens: 1,
      removedIdentities: 0,
      removedTokens: 0,
      keptTokens: 0,
    });
    expect(
      await t.database.prisma.friendship.count({
        where: { tenantId: 'large' },
      }),
    ).toBe(20_000);
    const res = await t
      .as('large-reader-app-token-0001')
      .get('/large/api/identity/v1/user-009999/friends')
      .expect(200);
    expect(res.body).toStrictEqual([
      { identityId: 'user-000000', displayName: 'User 000000' },
      { identityId: 'user-009998', displayName: 'User 009998' },
    ]);
  }, 120_000);
});
