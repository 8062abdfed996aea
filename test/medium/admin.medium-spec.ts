import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { AccountsService } from '../../src/accounts/accounts.service';
import { LinkTickets } from '../../src/accounts/link-tickets';
import { AdminIdentitiesRepository } from '../../src/admin-identities/admin-identities.repository';
import { AdminIdentitiesService } from '../../src/admin-identities/admin-identities.service';
import { AccountProvidersRepository } from '../../src/admin/account-providers.repository';
import { AccountProvidersService } from '../../src/admin/account-providers.service';
import { AdminRepository } from '../../src/admin/admin.repository';
import { AdminService } from '../../src/admin/admin.service';
import { TokenIssuersRepository } from '../../src/admin/token-issuers.repository';
import { TokenIssuersService } from '../../src/admin/token-issuers.service';
import { AccessRepository } from '../../src/auth/access.repository';
import { AuthService } from '../../src/auth/auth.service';
import { JwtVerifier } from '../../src/auth/jwt-verifier';
import { TokenRepository } from '../../src/auth/token.repository';
import { TokensService } from '../../src/auth/tokens.service';
import { SecretBox } from '../../src/common/secrets/secret-box';
import { EventsRepository } from '../../src/events/events.repository';
import { EventsService } from '../../src/events/events.service';
import { TenantsRepository } from '../../src/tenants/tenants.repository';
import { TenantsService } from '../../src/tenants/tenants.service';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { WebhooksService } from '../../src/webhooks/webhooks.service';
import { identity, provider, token } from '../support/factories';
import { useMediumService } from '../support/medium';

// The services of tenant administration, tokens, accounts and the tenant
// file, each built from the providers it names, on the database of this file.

describe(AdminService.name, () => {
  const m = useMediumService(AdminService, {
    real: [AdminRepository, EventsRepository],
    mock: [TokensService],
  });

  it('changes settings with an audit entry, and refuses a stale If-Match', async () => {
    const file = await m.newTenant();
    const admin = m.get(AdminService);
    const updated = await admin.updateSettings(
      file.tenant.id,
      { name: 'Renamed', adminRoles: ['boss', 'boss'] },
      undefined,
      'cli',
    );
    expect(updated).toStrictEqual({
      id: file.tenant.id,
      name: 'Renamed',
      adminRoles: ['boss'],
      linkReturnUrls: [],
    });
    expect(await admin.settings(file.tenant.id)).toStrictEqual(updated);
    await expect(
      admin.updateSettings(file.tenant.id, { name: 'x' }, '"other"', 'cli'),
    ).rejects.toMatchObject({ status: 412 });
    const { items } = await admin.listEvents(file.tenant.id, {}, {});
    expect(items.map((e) => [e.actor, e.action, e.target])).toStrictEqual([
      ['cli', 'tenant.updated', 'tenant'],
    ]);
    const only = (filter: object) =>
      admin
        .listEvents(file.tenant.id, filter, {})
        .then(({ items }) => items.map((e) => e.action));
    expect([
      await only({ actor: 'cli', action: 'tenant.updated' }),
      await only({ actor: 'app:console' }),
      await only({ action: 'token.created' }),
    ]).toStrictEqual([['tenant.updated'], [], []]);
  });
});

describe(TokensService.name, () => {
  // AuthService (which has no JWT to verify here) sees a token authenticate.
  const m = useMediumService(TokensService, {
    real: [TokenRepository],
    readers: [AuthService, AccessRepository],
    mock: [JwtVerifier],
  });

  it('creates a token that authenticates, and revokes it', async () => {
    const file = await m.newTenant({ identities: [identity('ada')] });
    const tokens = m.get(TokensService);
    const { secret, ...created } = await tokens.createToken({
      tenantId: file.tenant.id,
      identityId: 'ada',
      scopes: [],
    });
    expect(created).toMatchObject({
      type: 'access',
      identityId: 'ada',
      accountId: null,
      appId: null,
      scopes: [],
      expiresAt: null,
      revokedAt: null,
    });
    const auth = m.get(AuthService);
    expect(await auth.authenticate(file.tenant.id, secret)).toMatchObject({
      kind: 'access',
      identityId: 'ada',
    });
    expect(await tokens.revokeToken(file.tenant.id, created.id)).toBe(true);
    await expect(
      auth.authenticate(file.tenant.id, secret),
    ).rejects.toMatchObject({ status: 401 });
  });
});

describe(AccountProvidersService.name, () => {
  const m = useMediumService(AccountProvidersService, {
    real: [AccountProvidersRepository, SecretBox],
  });

  it('adds, lists and removes account providers', async () => {
    const file = await m.newTenant();
    const providers = m.get(AccountProvidersService);
    await providers.createProvider(
      file.tenant.id,
      {
        accountProviderId: 'github',
        signInUrl: 'https://github.example/login',
      },
      'cli',
    );
    expect(
      (await providers.listProviders(file.tenant.id, {})).items.map(
        (p) => p.accountProviderId,
      ),
    ).toStrictEqual(['github']);
    expect(
      await providers.removeProvider(
        file.tenant.id,
        'github',
        false,
        undefined,
        'cli',
      ),
    ).toBe(0);
    expect(
      (await providers.listProviders(file.tenant.id, {})).items,
    ).toStrictEqual([]);
  });
});

describe(TokenIssuersService.name, () => {
  const m = useMediumService(TokenIssuersService, {
    real: [TokenIssuersRepository],
    mock: [JwtVerifier],
  });

  it('adds, lists and removes token issuers, and has the verifier forget the old ones', async () => {
    const file = await m.newTenant();
    const issuers = m.get(TokenIssuersService);
    const issuer = await issuers.createIssuer(
      file.tenant.id,
      {
        issuer: 'https://issuer.example',
        jwksUri: 'https://issuer.example/jwks',
        audiences: ['api'],
      },
      'cli',
    );
    expect([issuer.issuer, issuer.identityMatch]).toStrictEqual([
      'https://issuer.example',
      'identityId',
    ]);
    await issuers.removeIssuer(file.tenant.id, issuer.id, undefined, 'cli');
    expect((await issuers.listIssuers(file.tenant.id, {})).items).toStrictEqual(
      [],
    );
    expect(
      jest.mocked(m.get(JwtVerifier)).forgetIssuers.mock.calls,
    ).toStrictEqual([[file.tenant.id], [file.tenant.id]]);
  });
});

describe(AccountsService.name, () => {
  const m = useMediumService(AccountsService, {
    real: [AccountsRepository],
    mock: [LinkTickets],
  });

  it('records an account at a provider of one account per identity once', async () => {
    const file = await m.newTenant({
      accountProviders: [provider('password')],
      identities: [identity('ada')],
    });
    const accounts = m.get(AccountsService);
    const account = {
      accountId: 'acc-1',
      accountProviderId: 'password',
      issuedUserId: 'ada',
      accountPrivatePersonalIdentifier: null,
      displayName: 'ada',
      emailAddress: null,
      accountProfileUrl: null,
      pictureUrl: null,
    };
    expect(
      await accounts.addAccount(file.tenant.id, 'ada', account),
    ).toStrictEqual({
      accountId: 'acc-1',
      issuedUserId: 'ada',
      isCurrent: false,
      displayName: 'ada',
    });
    await expect(
      accounts.addAccount(file.tenant.id, 'ada', {
        ...account,
        accountId: 'acc-2',
        issuedUserId: 'ada-2',
      }),
    ).rejects.toMatchObject({ status: 409 });
    await accounts.removeAccount(file.tenant.id, 'ada', 'acc-1');
    await expect(
      accounts.removeAccount(file.tenant.id, 'ada', 'acc-1'),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe(WebhooksService.name, () => {
  const m = useMediumService(WebhooksService, { real: [WebhooksRepository] });

  it('creates a webhook with its secret, and removes it', async () => {
    const file = await m.newTenant();
    const webhooks = m.get(WebhooksService);
    const { secret, ...created } = await webhooks.createWebhook(
      file.tenant.id,
      { url: 'http://127.0.0.1:9/hook' },
      'cli',
    );
    expect(secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['*'],
      enabled: true,
      status: 'active',
    });
    expect(
      (await webhooks.listWebhooks(file.tenant.id, {})).items.map((w) => w.id),
    ).toStrictEqual([created.id]);
    await webhooks.removeWebhook(file.tenant.id, created.id, undefined, 'cli');
    expect(
      (await webhooks.listWebhooks(file.tenant.id, {})).items,
    ).toStrictEqual([]);
  });
});

describe(AdminIdentitiesService.name, () => {
  const m = useMediumService(AdminIdentitiesService, {
    real: [AdminIdentitiesRepository, EventsService, EventsRepository],
  });

  it('finds identities by a part of any key, literally, a page at a time', async () => {
    const file = await m.newTenant({
      identities: [
        identity('a_b', { displayName: '50% off' }),
        identity('axb', { userName: 'Five0' }),
        identity('cy', {
          emailAddress: 'cy@example.org',
          emailAddresses: ['cy@example.org', 'A_B.x@example.org'],
        }),
      ],
    });
    const search = m.get(AdminIdentitiesService);
    const ids = async (text: string | undefined, limit?: number) => {
      const { items, next } = await search.findIdentities(
        file.tenant.id,
        text,
        { limit },
      );
      return [items.map((found) => found.identityId), next];
    };
    expect(await ids('A_B')).toStrictEqual([['a_b', 'cy'], undefined]);
    expect(await ids('0%')).toStrictEqual([['a_b'], undefined]);
    expect(await ids('five')).toStrictEqual([['axb'], undefined]);
    expect(await ids(undefined, 2)).toStrictEqual([
      ['a_b', 'axb'],
      { limit: 2, after: ['axb'] },
    ]);
    expect(
      await search.findIdentities(file.tenant.id, undefined, {
        limit: 2,
        after: ['axb'],
      }),
    ).toStrictEqual({
      items: [{ identityId: 'cy', emailAddress: 'cy@example.org' }],
    });
  });

  it('lists the identity’s own events, as the command line prints them', async () => {
    const file = await m.newTenant({
      identities: [identity('ada'), identity('bob')],
    });
    const search = m.get(AdminIdentitiesService);
    const first = await search.identityEvents(file.tenant.id, 'ada', {
      limit: 1,
    });
    expect(first).toStrictEqual({
      items: [
        {
          id: expect.stringMatching(/^\d+$/),
          tenantId: file.tenant.id,
          identityId: 'ada',
          type: 'imported',
          fields: [],
          occurredAt: expect.stringMatching(/Z$/),
        },
      ],
    });
  });
});

describe(TenantsService.name, () => {
  const m = useMediumService(TenantsService, {
    real: [TenantsRepository, SecretBox],
  });

  it('exports what it imported, tokens aside', async () => {
    const ada = token({ identityId: 'ada' });
    const file = await m.newTenant({
      accountProviders: [provider('password')],
      identities: [
        identity('ada', {
          displayName: 'Ada',
          roles: ['member'],
          friends: ['bob'],
          accounts: [
            {
              accountId: 'a1',
              accountProviderId: 'password',
              issuedUserId: 'ada',
            },
          ],
        }),
        identity('bob', { friends: ['ada'] }),
      ],
      tokens: [ada],
    });
    const exported = (await m
      .get(TenantsService)
      .exportTenant(file.tenant.id)) as Record<string, any>;
    expect(exported.tenant).toStrictEqual({ ...file.tenant, adminRoles: [] });
    expect(exported.accountProviders).toStrictEqual([
      {
        accountProviderId: 'password',
        signInUrl: 'https://login.example.org/password',
        allowsMultipleAccounts: false,
      },
    ]);
    expect(exported.identities).toStrictEqual([
      {
        identityId: 'ada',
        disabled: false,
        isArchived: false,
        displayName: 'Ada',
        emailAddressVerified: false,
        mobilePhoneVerified: false,
        properties: {},
        roles: ['member'],
        friends: ['bob'],
        accounts: [
          {
            accountId: 'a1',
            accountProviderId: 'password',
            issuedUserId: 'ada',
          },
        ],
      },
      {
        identityId: 'bob',
        disabled: false,
        isArchived: false,
        emailAddressVerified: false,
        mobilePhoneVerified: false,
        properties: {},
        friends: ['ada'],
      },
    ]);
    expect(exported.tokens).toBeUndefined();
  });
});
