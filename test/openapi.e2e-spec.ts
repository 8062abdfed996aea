import SwaggerParser from '@apidevtools/swagger-parser';
import { API, bearer, example, TOKENS } from './support/example';
import { openApiValidator } from './support/openapi';
import { startTestApp, TestApp } from './support/test-app';

const json = { 'Content-Type': 'application/json' };
const BY_ID = '/{tenant}/api/identity/v1/{id}';
const CURRENT = '/{tenant}/api/identity/v1';

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: any;
  let expectConforms: ReturnType<typeof openApiValidator>;
  beforeAll(async () => {
    t = await startTestApp([example()]);
    document = (await t.http().get('/openapi.json').expect(200)).body;
    expectConforms = openApiValidator(document);
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1, served without a token', async () => {
    expect(document.openapi).toBe('3.1.0');
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
    expect(Object.keys(document.paths).sort()).toStrictEqual([
      CURRENT,
      `${CURRENT}/accounts`,
      `${CURRENT}/friends`,
      `${CURRENT}/roles`,
      BY_ID,
      `${BY_ID}/accounts`,
      `${BY_ID}/friends`,
      `${BY_ID}/roles`,
    ]);
    const names = (op: any) =>
      op.parameters.map((p: any) => `${p.in}:${p.name}`).sort();
    expect(names(document.paths[CURRENT].get)).toStrictEqual([
      'path:tenant',
      'query:access_token',
      'query:fields',
    ]);
    expect(names(document.paths[`${BY_ID}/friends`].get)).toStrictEqual([
      'path:id',
      'path:tenant',
      'query:access_token',
      'query:cursor',
      'query:limit',
    ]);
    expect(
      Object.keys(document.components.securitySchemes).sort(),
    ).toStrictEqual(['access_token', 'bearer']);
    expect(
      document.paths[CURRENT].put.requestBody.content['application/json'].schema
        .properties.displayName,
    ).toStrictEqual({ type: ['string', 'null'], maxLength: 512 });
    expect(
      Object.keys(document.paths[BY_ID].get.responses).sort(),
    ).toStrictEqual([
      '200',
      '308',
      '400',
      '401',
      '403',
      '404',
      '406',
      '429',
      '503',
    ]);
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
});
