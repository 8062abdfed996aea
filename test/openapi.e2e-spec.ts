import SwaggerParser from '@apidevtools/swagger-parser';
import { API, bearer, example, TOKENS } from './support/example';
import { buildOpenApiDocument } from '../src/ops/openapi';
import { MAX_TEXT } from '../src/identity/identity-update.rules';
import { STORABLE_TEXT } from '../src/common/validation/field-rules';
import { openApiValidator } from './support/openapi';
import { useTestApp, withTestApp } from './support/test-app';

const json = { 'Content-Type': 'application/json' };
const BY_ID = '/{tenant}/api/identity/v1/{id}';
const CURRENT = '/{tenant}/api/identity/v1';
const ADMIN = '/{tenant}/api/admin/v1';
const ADMIN_PATHS = [
  `${ADMIN}/account-providers`,
  `${ADMIN}/account-providers/{accountProviderId}`,
  `${ADMIN}/events`,
  `${ADMIN}/identities`,
  `${ADMIN}/identities/{id}`,
  `${ADMIN}/identities/{id}/accounts`,
  `${ADMIN}/identities/{id}/events`,
  `${ADMIN}/identities/{id}/friends`,
  `${ADMIN}/identities/{id}/roles`,
  `${ADMIN}/tenant`,
  `${ADMIN}/token-issuers`,
  `${ADMIN}/token-issuers/{issuerId}`,
  `${ADMIN}/tokens`,
  `${ADMIN}/tokens/{tokenId}`,
  `${ADMIN}/webhooks`,
  `${ADMIN}/webhooks/{webhookId}`,
  `${ADMIN}/webhooks/{webhookId}/attempts`,
  `${ADMIN}/webhooks/{webhookId}/replay`,
  `${ADMIN}/webhooks/{webhookId}/rotate-secret`,
  `${ADMIN}/webhooks/{webhookId}/status`,
];
const SCIM_PATHS = [
  '/{tenant}/scim/v2/.search',
  '/{tenant}/scim/v2/Groups',
  '/{tenant}/scim/v2/Groups/.search',
  '/{tenant}/scim/v2/Groups/{id}',
  '/{tenant}/scim/v2/ResourceTypes',
  '/{tenant}/scim/v2/ResourceTypes/{id}',
  '/{tenant}/scim/v2/Schemas',
  '/{tenant}/scim/v2/Schemas/{id}',
  '/{tenant}/scim/v2/ServiceProviderConfig',
  '/{tenant}/scim/v2/Users',
  '/{tenant}/scim/v2/Users/.search',
  '/{tenant}/scim/v2/Users/{id}',
];

describe('the OpenAPI document', () => {
  const t = useTestApp({ tenants: [example()] });
  let document: any;
  let expectConforms: ReturnType<typeof openApiValidator>;
  beforeAll(async () => {
    document = (await t.http().get('/openapi.json').expect(200)).body;
    expectConforms = openApiValidator(document);
  });

  it('is valid OpenAPI 3.1, served without a token', async () => {
    expect(document.openapi).toBe('3.1.0');
    // Its webhooks section: one POST per event type a subscription may get.
    expect(Object.keys(document.webhooks)).toStrictEqual([
      'identity.imported',
      'identity.created',
      'identity.updated',
      'identity.deleted',
      'identity.merged',
    ]);
    expect(
      document.webhooks['identity.updated'].post.requestBody.content[
        'application/json'
      ].schema.properties.type,
    ).toStrictEqual({ type: 'string', const: 'identity.updated' });
    await expect(
      SwaggerParser.validate(structuredClone(document)),
    ).resolves.toBeDefined();
    await t
      .http()
      .get('/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
  });

  it('describes every route with its parameters, security and errors', () => {
    const names = (op: any) =>
      op.parameters.map((p: any) => `${p.in}:${p.name}`).sort();
    expect(Object.keys(document.paths).sort()).toStrictEqual([
      ...ADMIN_PATHS,
      CURRENT,
      `${CURRENT}/accounts`,
      `${CURRENT}/accounts/link-confirmations`,
      `${CURRENT}/accounts/{accountId}`,
      `${CURRENT}/friends`,
      `${CURRENT}/roles`,
      BY_ID,
      `${BY_ID}/accounts`,
      `${BY_ID}/accounts/{accountId}`,
      `${BY_ID}/friends`,
      `${BY_ID}/friends/{friendId}`,
      `${BY_ID}/roles`,
      '/{tenant}/link/v1/callback',
      '/{tenant}/link/v1/{accountProviderId}/start',
      ...SCIM_PATHS,
    ]);
    expect(
      Object.keys(document.paths[`${BY_ID}/friends/{friendId}`]).sort(),
    ).toStrictEqual(['delete', 'options', 'put']);
    expect(
      names(document.paths[`${BY_ID}/friends/{friendId}`].put),
    ).toStrictEqual(['path:friendId', 'path:id', 'path:tenant']);
    expect(
      Object.keys(document.paths[`${BY_ID}/accounts`]).sort(),
    ).toStrictEqual(['get', 'options', 'post']);
    expect(
      document.paths[`${BY_ID}/accounts`].post.requestBody.content[
        'application/json'
      ].schema.required,
    ).toStrictEqual(['accountProviderId', 'issuedUserId']);
    expect(names(document.paths[CURRENT].get)).toStrictEqual([
      'header:If-None-Match',
      'path:tenant',
      'query:fields',
    ]);
    expect(names(document.paths[`${BY_ID}/friends`].get)).toStrictEqual([
      'header:If-None-Match',
      'path:id',
      'path:tenant',
      'query:cursor',
      'query:limit',
    ]);
    expect(
      Object.keys(document.components.securitySchemes).sort(),
    ).toStrictEqual([
      'access_token',
      'admin_access_token',
      'admin_bearer',
      'bearer',
    ]);
    expect(
      document.paths[CURRENT].put.requestBody.content['application/json'].schema
        .properties.displayName,
    ).toStrictEqual({
      type: ['string', 'null'],
      maxLength: MAX_TEXT,
      pattern: STORABLE_TEXT.source,
    });
    expect(
      Object.keys(document.paths[BY_ID].get.responses).sort(),
    ).toStrictEqual([
      '200',
      '304',
      '308',
      '400',
      '401',
      '403',
      '404',
      '405',
      '406',
      '429',
      '431',
      '500',
      '503',
    ]);
  });

  it('is the document the lint script checks', () => {
    expect(
      JSON.parse(JSON.stringify(buildOpenApiDocument(t.app))),
    ).toStrictEqual(document);
  });

  it('takes no id the service routes elsewhere', () => {
    const { pattern } = document.paths[BY_ID].get.parameters.find(
      (p: any) => p.name === 'id',
    ).schema;
    const id = new RegExp(pattern);
    for (const reserved of ['accounts', 'friends', 'roles', 'Roles'])
      expect(id.test(reserved)).toBe(false);
    for (const ok of ['bob', 'accounts2', 'my.roles', 'a'.repeat(128)])
      expect(id.test(ok)).toBe(true);
    expect(id.test('a'.repeat(129))).toBe(false);
  });

  it('keeps the reduced identity strict', () => {
    const reduced = expectConforms.schema(
      '#/components/schemas/ReducedIdentityResponse',
    );
    expect(reduced({ identityId: 'bob', displayName: 'Bob' })).toBe(true);
    expect(reduced({ displayName: 'Bob' })).toBe(false);
    expect(reduced({ identityId: 'bob', nickname: 'Bobby' })).toBe(false);
    expect(reduced({})).toBe(false);
  });

  it('matches what the service really answers', async () => {
    const check = async (
      method: string,
      path: string,
      url: string,
      token?: string,
      body?: object,
    ) => {
      let req = (t.http() as any)[method.toLowerCase()](url);
      if (token) req = req.set(bearer(token));
      if (body) req = req.set(json).send(body);
      expectConforms(await req, method, path);
    };
    await check('GET', CURRENT, API, TOKENS.ada);
    await check('GET', CURRENT, `${API}?fields=displayName`, TOKENS.ada);
    await check('GET', CURRENT, API);
    await check('GET', CURRENT, API, TOKENS.crm);
    await check('GET', CURRENT, `${API}?fields=nope`, TOKENS.ada);
    await check('GET', BY_ID, `${API}/mary`, TOKENS.charles);
    await check('GET', BY_ID, `${API}/nobody`, TOKENS.ada);
    await check('GET', BY_ID, `${API}/ada-old`, TOKENS.crm);
    await check('GET', `${CURRENT}/accounts`, `${API}/accounts`, TOKENS.ada);
    await check(
      'GET',
      `${BY_ID}/accounts`,
      `${API}/charles/accounts`,
      TOKENS.crm,
    );
    await check(
      'GET',
      `${CURRENT}/friends`,
      `${API}/friends?limit=1`,
      TOKENS.ada,
    );
    await check('GET', `${BY_ID}/friends`, `${API}/mary/friends`, TOKENS.crm);
    await check('GET', `${CURRENT}/roles`, `${API}/roles`, TOKENS.ada);
    await check('GET', `${BY_ID}/roles`, `${API}/ada/roles`, TOKENS.bare);
    await check('PUT', CURRENT, API, TOKENS.mary, {
      displayName: 'Mary S.',
      surnames: null,
    });
    await check('PUT', CURRENT, API, TOKENS.mary, { locality: 'nowhere' });
    await check('DELETE', BY_ID, `${API}/charles`, TOKENS.charles);
    await check('DELETE', BY_ID, `${API}/grace`, TOKENS.janitor);
    await check('DELETE', CURRENT, API, TOKENS.mary);
  });

  it('matches the answers of conditional requests, protocol and refusals', async () => {
    const http = () => t.http();
    const got = await http().get(`${API}/ada/roles`).set(bearer(TOKENS.crm));
    const notModified = await http()
      .get(`${API}/ada/roles`)
      .set(bearer(TOKENS.crm))
      .set('If-None-Match', got.headers.etag);
    expect(notModified.status).toBe(304);
    expectConforms(notModified, 'GET', `${BY_ID}/roles`);
    const moved = await http()
      .get(`${API}/ada-old/friends`)
      .set(bearer(TOKENS.crm));
    expect(moved.status).toBe(308);
    expectConforms(moved, 'GET', `${BY_ID}/friends`);
    const anonymous = await http().get(`${API}/accounts`);
    expect(anonymous.headers['www-authenticate']).toBe(
      'Bearer realm="example"',
    );
    expectConforms(anonymous, 'GET', `${CURRENT}/accounts`);
    const inUrl = await http().get(`${API}?access_token=nope`);
    expect(inUrl.headers['cache-control']).toBe('no-store');
    expectConforms(inUrl, 'GET', CURRENT);
    const options = await http().options(`${API}/nobody`);
    expect(options.status).toBe(204);
    expectConforms(options, 'OPTIONS', BY_ID);
    // A 405 is documented on each operation of its path.
    const refused = await http().post(API).set(bearer(TOKENS.ada));
    expect(refused.status).toBe(405);
    expectConforms(refused, 'GET', CURRENT);
    const html = await http().get(API).set(bearer(TOKENS.ada)).accept('html');
    expect(html.status).toBe(406);
    expectConforms(html, 'GET', CURRENT);
    const malformedPath = await http().get(`${API}/a%E0`);
    expect(malformedPath.status).toBe(400);
    expectConforms(malformedPath, 'GET', BY_ID);
    const stale = await http()
      .put(API)
      .set(bearer(TOKENS.ada))
      .set('If-Match', '"0"')
      .send({ displayName: 'Ada' });
    expect(stale.status).toBe(412);
    expectConforms(stale, 'PUT', CURRENT);
    for (const [type, body] of [
      ['text/plain', 'Ada'],
      ['application/json', '{"displayName":'],
      ['application/json', JSON.stringify({ displayName: 'x'.repeat(70_000) })],
    ]) {
      const res = await http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set('Content-Type', type)
        .send(body);
      expect([400, 413, 415]).toContain(res.status);
      expectConforms(res, 'PUT', CURRENT);
    }
  });

  it('matches a 429 with its rate-limit headers and Retry-After', async () => {
    await withTestApp({ config: { rateLimit: 1 } }, async (limited) => {
      const first = await limited.http().get(API);
      expect(first.status).toBe(401);
      expectConforms(first, 'GET', CURRENT);
      const second = await limited.http().get(API);
      expect(second.status).toBe(429);
      expect(second.headers['ratelimit-remaining']).toBe('0');
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      expectConforms(second, 'GET', CURRENT);
    });
  });
});
