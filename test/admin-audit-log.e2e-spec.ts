import type { Response } from 'supertest';
import { TokensService } from '../src/auth/tokens.service';
import { adminRequests } from './support/admin-requests';
import { identity, tenantFile, token } from './support/factories';
import { openApiValidator } from './support/openapi';
import { useTenant, useTestApp } from './support/test-app';

const CONSOLE = token({ appId: 'console', scopes: ['tenant:admin'] });
const OPS = token({ appId: 'ops', scopes: ['tenant:admin'] });
const ANN = token({ identityId: 'ann' });

const FILE = tenantFile({
  name: 'Audit',
  adminRoles: ['admin'],
  identities: [identity('ann', { displayName: 'Ann' })],
  tokens: [CONSOLE, OPS, ANN],
});

const ID = expect.stringMatching(/^\d+$/);
const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);

/** The path a Link rel="next" header names. */
const nextOf = (res: Response) =>
  /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];

describe('the audit log of the administration API, by action and actor', () => {
  const t = useTestApp();
  const tenant = useTenant(t, FILE, { each: true });
  const { admin, refusal } = adminRequests(t, () => tenant, CONSOLE.token);
  let expectConforms: ReturnType<typeof openApiValidator>;
  beforeAll(async () => {
    expectConforms = openApiValidator(
      (await t.http().get('/openapi.json').expect(200)).body,
    );
  });

  /** GET of the audit log with `query`, its answer as the document says it may be. */
  const events = async (query: string) => {
    const res = await t
      .http()
      .get(query.startsWith('/') ? query : admin(`/events${query}`))
      .set('Authorization', `Bearer ${tenant.token(CONSOLE.token)}`);
    expectConforms(res, 'GET', '/{tenant}/api/admin/v1/events');
    return res;
  };
  const patch = (secret: string, body: object) =>
    t
      .http()
      .patch(admin('/tenant'))
      .set('Authorization', `Bearer ${tenant.token(secret)}`)
      .send(body)
      .expect(200);

  /**
   * Four entries: the console renames the tenant, ops renames it again,
   * the command line revokes Ann's token, the console changes the admin
   * roles. The entries as the log shows them, in order.
   */
  async function fourEntries() {
    await patch(CONSOLE.token, { name: 'One' });
    await patch(OPS.token, { name: 'Two' });
    const [ann] = (
      await t
        .http()
        .get(admin('/tokens?identityId=ann'))
        .set('Authorization', `Bearer ${tenant.token(CONSOLE.token)}`)
        .expect(200)
    ).body as { tokenId: string }[];
    const tokens = t.app.get(TokensService);
    expect(await tokens.revokeToken(tenant.id, tenant.token(ANN.token))).toBe(
      true,
    );
    await patch(CONSOLE.token, { adminRoles: ['admin', 'ops'] });
    const entry = (
      actor: string,
      action: string,
      target: string,
      settings: object,
    ) => ({ id: ID, actor, action, target, ...settings, occurredAt: TIME });
    return [
      entry('app:console', 'tenant.updated', 'tenant', {
        before: { name: 'Audit' },
        after: { name: 'One' },
      }),
      entry('app:ops', 'tenant.updated', 'tenant', {
        before: { name: 'One' },
        after: { name: 'Two' },
      }),
      entry('cli', 'token.revoked', `token:${ann.tokenId}`, {}),
      entry('app:console', 'tenant.updated', 'tenant', {
        before: { adminRoles: ['admin'] },
        after: { adminRoles: ['admin', 'ops'] },
      }),
    ];
  }

  it('keeps one action’s entries, one actor’s, or those of both', async () => {
    const [one, two, revoked, roles] = await fourEntries();
    for (const [query, expected] of [
      ['', [one, two, revoked, roles]],
      ['?action=tenant.updated', [one, two, roles]],
      ['?action=token.revoked', [revoked]],
      ['?actor=app:console', [one, roles]],
      ['?actor=app%3Aops', [two]],
      ['?actor=cli', [revoked]],
      ['?action=tenant.updated&actor=app:ops', [two]],
      ['?action=token.revoked&actor=app:console', []],
      ['?action=webhook.created', []],
      // Exact: neither a prefix nor another case.
      ['?actor=app', []],
      ['?actor=CLI', []],
    ] as const) {
      const res = await events(query);
      expect([query, res.status, res.headers.link, res.body]).toStrictEqual([
        query,
        200,
        undefined,
        expected,
      ]);
    }
  });

  it('pages the entries it keeps, the next page’s link repeating action and actor', async () => {
    const [one, , , roles] = await fourEntries();
    const first = await events(
      '?action=tenant.updated&actor=app:console&limit=1',
    );
    expect([first.status, first.body]).toStrictEqual([200, [one]]);
    const cursor = Buffer.from(JSON.stringify([first.body[0].id])).toString(
      'base64url',
    );
    expect(nextOf(first)).toBe(
      admin(
        `/events?action=tenant.updated&actor=app%3Aconsole&limit=1&cursor=${cursor}`,
      ),
    );
    const rest = await events(nextOf(first)!);
    expect([rest.status, rest.headers.link, rest.body]).toStrictEqual([
      200,
      undefined,
      [roles],
    ]);
  });

  it('refuses an action or actor it cannot take: 400 naming it', async () => {
    const actions =
      'tenant.updated, tenant.replaced, token.created, token.revoked, provider.created, provider.updated, provider.deleted, issuer.created, issuer.updated, issuer.deleted, webhook.created, webhook.updated, webhook.deleted, webhook.secret-rotated, webhook.replayed';
    for (const [query, field, message] of [
      ['action=tenant', 'action', `must be one of ${actions}`],
      ['action=', 'action', `must be one of ${actions}`],
      ['action=TENANT.UPDATED', 'action', `must be one of ${actions}`],
      [
        'action=tenant.updated&action=token.created',
        'action',
        'must be given once',
      ],
      ['actor=', 'actor', 'must be 1 to 204 characters'],
      [`actor=${'a'.repeat(205)}`, 'actor', 'must be 1 to 204 characters'],
      ['actor=cli&actor=cli', 'actor', 'must be given once'],
      ['actor=a%00b', 'actor', 'must not contain U+0000 or a lone surrogate'],
    ]) {
      const res = await events(`?${query}`);
      expect([query, res.status, res.body]).toStrictEqual([
        query,
        ...refusal('/events', field, message),
      ]);
    }
  });
});
