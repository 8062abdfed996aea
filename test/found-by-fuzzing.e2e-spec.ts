import { API, example, TOKENS } from './support/example';
import { encodeCursor } from '../src/common/pagination';
import { useTestApp } from './support/test-app';

// Cases the hostile-input property test found, kept as ordinary tests.
describe('found by fuzzing', () => {
  const t = useTestApp({ tenants: [example()] });

  it('answers 404 for an id holding U+0000, which PostgreSQL cannot compare', async () => {
    const res = await t.as(TOKENS.ada).get(`${API}/%00`).expect(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    await t.as(TOKENS.ada).get(`${API}/a%00b/accounts`).expect(404);
    await t.as(TOKENS.ada).delete(`${API}/%00`).expect(404);
  });

  it('refuses U+0000 in a PUT body and in a cursor', async () => {
    const put = await t
      .as(TOKENS.ada)
      .put(API, '{"displayName":"a\\u0000b"}')
      .expect(400);
    expect(put.body.errors).toStrictEqual([
      { field: 'displayName', message: 'must not contain U+0000' },
    ]);
    const cursor = encodeCursor(['a\u0000', 'b']);
    await t
      .as(TOKENS.ada)
      .get(`${API}/friends?limit=1&cursor=${cursor}`)
      .expect(400);
  });

  it('answers headers too large with problem+json, not an empty response', async () => {
    const res = await t
      .http()
      .get(API)
      .set('Authorization', `Bearer ${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Number.isNaN(Date.parse(res.headers.date as string))).toBe(false);
    expect(res.body).toStrictEqual({
      type: 'urn:problem:identity:request-header-fields-too-large',
      title: 'Request Header Fields Too Large',
      status: 431,
      detail:
        'The request headers are larger than the server accepts (16 KiB).',
      instance: API,
    });
  });

  it('answers headers too large under the SCIM base as a SCIM error', async () => {
    const path = `/${API.split('/')[1]}/scim/v2/Users`;
    const res = await t
      .http()
      .get(path)
      .set('Authorization', `Bearer ${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe(
      'application/scim+json; charset=utf-8',
    );
    expect(JSON.parse(res.text)).toStrictEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '431',
      detail:
        'The request headers are larger than the server accepts (16 KiB).',
    });
  });
});
