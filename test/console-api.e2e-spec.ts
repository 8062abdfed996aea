import { buildSync } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identity, tenantFile, token } from './support/factories';
import { useTenant, useTestApp } from './support/test-app';

// The console's API client (console/src/api.ts), bundled as the console's
// build bundles it, against the service: what a page gets from it.
type ApiModule = typeof import('../console/src/api');

function loadClient(): ApiModule {
  const { outputFiles } = buildSync({
    entryPoints: [join(__dirname, '..', 'console', 'src', 'api.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2022',
    write: false,
  });
  const file = join(mkdtempSync(join(tmpdir(), 'console-api-')), 'api.js');
  writeFileSync(file, outputFiles[0].text);
  return require(file) as ApiModule;
}

const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const READER = token({ appId: 'reader', scopes: ['identities:read'] });
const FILE = tenantFile({
  id: 'console-api',
  name: 'Console API',
  identities: [identity('ann')],
  tokens: [ADMIN, READER, token({ identityId: 'ann' })],
});

describe('the console’s API client', () => {
  const client = loadClient();
  const t = useTestApp();
  const tenant = useTenant(t, FILE);
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    const origin = `http://127.0.0.1:${await t.listen()}`;
    // The browser resolves the client's paths against the console's origin.
    globalThis.fetch = (url, init) =>
      realFetch(`${origin}${url as string}`, init);
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });
  const api = (
    secret = ADMIN.token,
    onUnauthorized: (reason: string) => void = () => {},
  ) =>
    new client.Api(
      { tenant: tenant.id, token: tenant.token(secret) },
      onUnauthorized,
    );

  it('reads a value with its ETag', async () => {
    const settings = await api().get<{ id: string }>('/tenant');
    expect(settings.data).toMatchObject({ id: tenant.id });
    expect(settings.etag).toMatch(/^"/);
  });

  it('reads a list a page at a time through its Link header', async () => {
    const first = await api().page<{ tokenId: string }>('/tokens?limit=1');
    expect(first.items).toHaveLength(1);
    expect(first.next).toMatch(
      new RegExp(`^/${tenant.id}/api/admin/v1/tokens\\?limit=1&cursor=`),
    );
    const ids = [first.items[0].tokenId];
    for (let next = first.next; next;) {
      const page = await api().page<{ tokenId: string }>(next);
      ids.push(...page.items.map((item) => item.tokenId));
      next = page.next;
    }
    const all = await api().page<{ tokenId: string }>('/tokens');
    expect(all.next).toBeUndefined();
    expect(ids).toStrictEqual(all.items.map((item) => item.tokenId));
    expect(ids).toHaveLength(3);
  });

  it('turns a problem into an ApiError as the service words it, field errors included', async () => {
    const error = await api()
      .send('POST', '/tokens', { body: { appId: 'x', scopes: ['nope'] } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(client.ApiError);
    const problem = error as InstanceType<ApiModule['ApiError']>;
    expect(problem.status).toBe(400);
    expect(problem.type).toBe('urn:problem:identity:invalid-request');
    expect(problem.title).toBe('Invalid request');
    expect(problem.detail).toContain('scopes');
    expect(problem.about('scopes')).toStrictEqual([
      { field: 'scopes', message: expect.any(String) },
    ]);
  });

  it('answers a write with a stale If-Match with a 412 ApiError', async () => {
    const { etag } = await api().get('/tenant');
    await api().send('PATCH', '/tenant', {
      ifMatch: etag,
      body: { name: 'Console API, renamed' },
    });
    const error = await api()
      .send('PATCH', '/tenant', { ifMatch: etag, body: { name: 'Stale' } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 412,
      type: 'urn:problem:identity:precondition-failed',
    });
  });

  it('reports a 401 to the console, with the service’s words, and a 403 to the page', async () => {
    const heard: string[] = [];
    const refused = await api('no-such-token', (why) => heard.push(why))
      .get('/tenant')
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status: 401 });
    expect(heard).toStrictEqual([
      (refused as InstanceType<ApiModule['ApiError']>).detail,
    ]);
    const forbidden = await api(READER.token, () => heard.push('again'))
      .get('/tenant')
      .catch((caught: unknown) => caught);
    expect(forbidden).toMatchObject({ status: 403 });
    expect(heard).toHaveLength(1);
  });

  it('follows only a next link of this origin', () => {
    expect(client.nextLink(null)).toBeUndefined();
    expect(
      client.nextLink('</t/api/admin/v1/tokens?cursor=a>; rel="next"'),
    ).toBe('/t/api/admin/v1/tokens?cursor=a');
    expect(client.nextLink('</a>; rel="prev", </b?x=1,2>; rel="next"')).toBe(
      '/b?x=1,2',
    );
    expect(client.nextLink('<https://elsewhere.example/x>; rel="next"')).toBe(
      undefined,
    );
    expect(client.nextLink('<//elsewhere.example/x>; rel="next"')).toBe(
      undefined,
    );
    expect(client.nextLink('</a>; rel="prev"')).toBeUndefined();
  });
});
