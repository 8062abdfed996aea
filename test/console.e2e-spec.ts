import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTestApp } from './support/test-app';

const ROOT = join(__dirname, '..');

const notFound = (path: string) => ({
  type: 'urn:problem:identity:not-found',
  title: 'Not found',
  status: 404,
  detail: `There is no resource at ${path}.`,
  instance: path,
});

describe('the administrators’ console at /console/', () => {
  // The console is served from the build; a checkout without one builds it
  // (a second or so), as `npm test` does before any test.
  beforeAll(() => {
    if (existsSync(join(ROOT, 'dist', 'console', 'console.js'))) return;
    const built = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'build-console.js')],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(built.stderr).toBe('');
  });
  const t = useTestApp();

  const expectConsoleHeaders = (headers: Record<string, string>) => {
    expect(headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-cache');
  };

  it('serves index.html, which loads only its own script and style sheet', async () => {
    const res = await t.http().get('/console/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expectConsoleHeaders(res.headers);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const html = res.text;
    const references = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map(
      ([, value]) => value,
    );
    expect(references.sort()).toStrictEqual(['console.css', 'console.js']);
    // No inline script or style for the policy to refuse.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect((await t.http().get('/console/index.html').expect(200)).text).toBe(
      html,
    );
  });

  it('serves the script and the style sheet with their types and the same headers', async () => {
    for (const [file, type] of [
      ['console.js', 'text/javascript; charset=utf-8'],
      ['console.css', 'text/css; charset=utf-8'],
    ]) {
      const res = await t.http().get(`/console/${file}`).expect(200);
      expect(res.headers['content-type']).toBe(type);
      expectConsoleHeaders(res.headers);
      expect(Number(res.headers['content-length'])).toBeGreaterThan(1000);
    }
    const script = await t.http().get('/console/console.js').expect(200);
    // Nothing from elsewhere: the URLs in it are XML namespaces.
    expect(new Set(script.text.match(/https?:\/\/[^"'`\s]*/g))).toStrictEqual(
      new Set([
        'http://www.w3.org/1998/Math/MathML',
        'http://www.w3.org/1999/xhtml',
        'http://www.w3.org/2000/svg',
      ]),
    );
  });

  it('is written to render every value as text, and styles by class only', () => {
    const sources = readdirSync(join(ROOT, 'console', 'src'), {
      recursive: true,
      encoding: 'utf8',
    }).filter((file) => /\.tsx?$/.test(file));
    expect(sources.length).toBeGreaterThan(5);
    for (const file of sources) {
      const text = readFileSync(join(ROOT, 'console', 'src', file), 'utf8');
      expect([
        file,
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(text),
      ]).toStrictEqual([file, false]);
      expect([file, /\bstyle=\{|\.style\b/.test(text)]).toStrictEqual([
        file,
        false,
      ]);
    }
  });

  it('answers HEAD with the headers of GET and no body, and 304 to its ETag', async () => {
    const get = await t.http().get('/console/console.css').expect(200);
    const head = await t.http().head('/console/console.css').expect(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
    expectConsoleHeaders(head.headers);
    const again = await t
      .http()
      .get('/console/console.css')
      .set('If-None-Match', get.headers.etag)
      .expect(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(get.headers.etag);
  });

  it('redirects /console to /console/', async () => {
    const res = await t.http().get('/console').expect(301);
    expect(res.headers.location).toBe('/console/');
    expectConsoleHeaders(res.headers);
  });

  it('answers any other path under it 404 problem+json, traversals included', async () => {
    for (const path of [
      '/console/nothing.js',
      '/console/index.htm',
      '/console/console.js/',
      '/console/%2e%2e/package.json',
      '/console/..%2fpackage.json',
      '/console/%2E%2E%2F%2E%2E%2Fpackage.json',
      '/console/.%2fconsole.js',
      '/Console/',
    ]) {
      const res = await t.http().get(path).expect(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.body).toStrictEqual(notFound(path));
    }
  });

  it('answers OPTIONS with Allow and other methods 405, as on every path', async () => {
    for (const path of ['/console', '/console/', '/console/console.js']) {
      const options = await t.http().options(path).expect(204);
      expect(options.headers.allow).toBe('OPTIONS, GET, HEAD');
      const post = await t.http().post(path).expect(405);
      expect(post.headers.allow).toBe('GET, HEAD');
      expect(post.body).toMatchObject({
        type: 'urn:problem:identity:method-not-allowed',
        status: 405,
      });
    }
  });

  it('is not part of the OpenAPI document', async () => {
    const res = await t.http().get('/openapi.json').expect(200);
    const paths = Object.keys(res.body.paths as object);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => path.includes('console'))).toStrictEqual([]);
  });
});
