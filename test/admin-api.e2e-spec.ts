import { TokensService } from '../src/auth/tokens.service';
import { identity, tenantFile, token } from './support/factories';
import { problemBody } from './support/problem';
import { useTenant, useTestApp } from './support/test-app';

const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const READER = token({
  appId: 'reader',
  scopes: ['identities:read', 'identities:delete', 'scim:provision'],
});
const ANN = token({ identityId: 'ann' });

/** A tenant with an admin console's token, a reader's, and Ann (an admin of identities). */
const FILE = tenantFile({
  id: 'admin-api',
  name: 'Admin API',
  adminRoles: ['admin'],
  identities: [identity('ann', { displayName: 'Ann', roles: ['admin'] })],
  tokens: [ADMIN, READER, ANN],
});

describe('the tenant administration API (tenant:admin)', () => {
  const t = useTestApp();
  const tenant = useTenant(t, FILE, { each: true });

  const base = () => `/${tenant.id}/api/admin/v1`;
  const as = (secret: string) => ({
    get: (path: string) =>
      t
        .http()
        .get(`${base()}${path}`)
        .set('Authorization', `Bearer ${tenant.token(secret)}`),
    send: (method: 'post' | 'patch', path: string, body: object) =>
      t
        .http()
        [method](`${base()}${path}`)
        .set('Authorization', `Bearer ${tenant.token(secret)}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body)),
    delete: (path: string) =>
      t
        .http()
        .delete(`${base()}${path}`)
        .set('Authorization', `Bearer ${tenant.token(secret)}`),
  });
  const admin = () => as(ADMIN.token);
  const problem = problemBody;

  it('shows and changes the settings, with ETag and If-Match, and records who changed what', async () => {
    const res = await admin().get('/tenant').expect(200);
    expect(res.body).toStrictEqual({
      id: tenant.id,
      name: 'Admin API',
      adminRoles: ['admin'],
      linkReturnUrls: [],
    });
    await admin()
      .get('/tenant')
      .set('If-None-Match', res.headers.etag)
      .expect(304);
    const changed = await admin()
      .send('patch', '/tenant', { adminRoles: ['admin', 'ops', 'ops'] })
      .set('If-Match', res.headers.etag)
      .expect(200);
    expect(changed.body).toStrictEqual({
      id: tenant.id,
      name: 'Admin API',
      adminRoles: ['admin', 'ops'],
      linkReturnUrls: [],
    });
    expect(changed.headers.etag).not.toBe(res.headers.etag);
    // The old tag no longer matches: 412, nothing changes.
    const stale = await admin()
      .send('patch', '/tenant', { name: 'Late' })
      .set('If-Match', res.headers.etag)
      .expect(412);
    expect(stale.body).toStrictEqual(
      problem(412, 'precondition-failed', expect.any(String)),
    );
    const events = await admin().get('/events').expect(200);
    expect(events.body).toStrictEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        actor: 'app:console',
        action: 'tenant.updated',
        target: 'tenant',
        // The settings that changed only.
        before: { adminRoles: ['admin'] },
        after: { adminRoles: ['admin', 'ops'] },
        occurredAt: expect.stringMatching(/Z$/),
      },
    ]);
  });

  it('refuses settings it cannot take: 400 naming them, nothing changes', async () => {
    for (const [body, detail] of [
      [{ name: '' }, 'name must be 1 to 200 characters'],
      [{ adminRoles: 'admin' }, 'adminRoles must be an array'],
      [{ id: 'other' }, 'The body has unknown fields: id.'],
      [
        { adminRoles: Array(101).fill('r') },
        'adminRoles must have at most 100 items',
      ],
      [
        { adminRoles: [''] },
        'adminRoles each item must be 1 to 200 characters',
      ],
    ] as const) {
      const res = await admin().send('patch', '/tenant', body);
      expect([body, res.status, res.body.detail]).toStrictEqual([
        body,
        400,
        detail,
      ]);
    }
    expect((await admin().get('/events')).body).toStrictEqual([]);
  });

  it('makes a token (its secret once), lists it, shows it, revokes it', async () => {
    const made = await admin()
      .send('post', '/tokens', {
        appId: 'crm',
        scopes: ['identities:read'],
        ttlSeconds: 3600,
      })
      .expect(201);
    const { secret, ...token } = made.body;
    expect(token).toStrictEqual({
      tokenId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'app',
      appId: 'crm',
      scopes: ['identities:read'],
      expiresAt: expect.stringMatching(/Z$/),
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(secret).toMatch(/^idt_[A-Za-z0-9_-]{43}$/);
    expect(made.headers.location).toBe(`${base()}/tokens/${token.tokenId}`);
    expect(made.headers['cache-control']).toBe('no-store');
    // The secret works, and is never shown again.
    await t
      .http()
      .get(`${tenant.api}/ann`)
      .set('Authorization', `Bearer ${secret}`)
      .expect(200);
    // Its use is recorded, to the minute.
    const shown = await admin().get(`/tokens/${token.tokenId}`).expect(200);
    expect(shown.body).toStrictEqual({
      ...token,
      lastUsedAt: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(shown.body.lastUsedAt)).toBeGreaterThanOrEqual(
      Date.parse(token.createdAt),
    );
    const list = await admin().get('/tokens?limit=2').expect(200);
    expect(list.body).toHaveLength(2);
    expect(list.headers.link).toMatch(/rel="next"/);
    const next = /<([^>]+)>/.exec(list.headers.link)![1];
    const rest = await t
      .http()
      .get(next)
      .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
      .expect(200);
    const all = [...list.body, ...rest.body];
    expect(all.map((x: { tokenId: string }) => x.tokenId)).toContain(
      token.tokenId,
    );
    expect(all).toHaveLength(4);
    expect(JSON.stringify(all)).not.toContain(secret);
    // Revoked: 401 from then on; a second revocation 404.
    await admin()
      .delete(`/tokens/${token.tokenId}`)
      .set('If-Match', '"not-its-tag"')
      .expect(412);
    await admin()
      .delete(`/tokens/${token.tokenId}`)
      .set('If-Match', shown.headers.etag)
      .expect(204);
    await t
      .http()
      .get(`${tenant.api}/ann`)
      .set('Authorization', `Bearer ${secret}`)
      .expect(401);
    const again = await admin().delete(`/tokens/${token.tokenId}`).expect(404);
    expect(again.body).toStrictEqual(
      problem(
        404,
        'token-not-found',
        `No live token "${token.tokenId}" in this tenant.`,
      ),
    );
    expect(
      (await admin().get(`/tokens/${token.tokenId}`)).body.revokedAt,
    ).toMatch(/Z$/);
    const events = (await admin().get('/events')).body;
    expect(events.map((e: any) => [e.actor, e.action, e.target])).toStrictEqual(
      [
        ['app:console', 'token.created', `token:${token.tokenId}`],
        ['app:console', 'token.revoked', `token:${token.tokenId}`],
      ],
    );
    expect(events[0].after).toStrictEqual({
      type: 'app',
      identityId: null,
      accountId: null,
      appId: 'crm',
      scopes: ['identities:read'],
      expiresAt: token.expiresAt,
    });
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('refuses tokens it cannot make, with the command line’s reasons', async () => {
    for (const [body, status, detail] of [
      [
        { appId: 'x', identityId: 'ann' },
        400,
        'Name either an identity (access token) or an app (app token).',
      ],
      [
        { identityId: 'nobody' },
        400,
        `Unknown identity "nobody" in tenant "${'TENANT'}".`,
      ],
      [
        { appId: 'x', scopes: ['root'] },
        400,
        'scopes each item must be one of identities:read, identities:delete, scim:provision, accounts:write, friends:write, tenant:admin',
      ],
      [{ appId: 'x', ttlSeconds: 0 }, 400, 'ttlSeconds must be at least 1'],
      [
        { appId: 'x', secret: 'mine' },
        400,
        'The body has unknown fields: secret.',
      ],
    ] as const) {
      const res = await admin().send('post', '/tokens', body);
      expect([body, res.status, res.body.detail]).toStrictEqual([
        body,
        status,
        detail.replace('TENANT', tenant.id),
      ]);
    }
    await admin().get('/tokens/not-a-uuid').expect(404);
    expect((await admin().get('/events')).body).toStrictEqual([]);
  });

  it('only app tokens with tenant:admin, of this tenant', async () => {
    for (const secret of [READER.token, ANN.token]) {
      const res = await as(secret).get('/tenant');
      expect([res.status, res.body]).toStrictEqual([
        403,
        problem(
          403,
          'forbidden',
          'The admin API needs an app token with the tenant:admin scope.',
        ),
      ]);
    }
    // Another tenant's admin token finds no administration here (404, as
    // for a tenant that does not exist); its other tokens are 401 as ever.
    const other = await t.newTenant(FILE);
    for (const path of [base(), '/no-such-tenant/api/admin/v1']) {
      const res = await t
        .http()
        .get(`${path}/tenant`)
        .set('Authorization', `Bearer ${other.token(ADMIN.token)}`);
      expect([res.status, res.body]).toStrictEqual([
        404,
        problem(404, 'not-found', `There is no resource at ${path}/tenant.`),
      ]);
    }
    await t
      .http()
      .get(`${base()}/tenant`)
      .set('Authorization', `Bearer ${other.token(READER.token)}`)
      .expect(401);
    // Nor does tenant:admin open the identity API.
    await t
      .http()
      .get(`${tenant.api}/ann`)
      .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
      .expect(403);
  });
  it('records the command line’s token operations as the actor cli', async () => {
    const tokens = t.app.get(TokensService);
    const made = await tokens.createToken({
      tenantId: tenant.id,
      identityId: 'ann',
      scopes: [],
    });
    expect(await tokens.revokeToken(tenant.id, made.secret)).toBe(true);
    const events = (await admin().get('/events').expect(200)).body;
    expect(events.map((e: any) => [e.actor, e.action, e.target])).toStrictEqual(
      [
        ['cli', 'token.created', `token:${made.id}`],
        ['cli', 'token.revoked', `token:${made.id}`],
      ],
    );
    expect(JSON.stringify(events)).not.toContain(made.secret);
  });
});
