import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { identity, provider, tenantFile, token } from './support/factories';
import { LocalOpenIdProvider } from './support/oidc-op';
import { serverEnvironment, startServer } from './support/server';

// Linking an account in a real browser (Debian's chromium): the built
// service, a real OpenID Provider and the application's return page, all
// on loopback; the browser follows every redirect itself.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM))
  throw new Error(
    `The browser test needs Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH.`,
  );
const ROOT = resolve(__dirname, '..');
const ANN = token({ identityId: 'ann' });

describe('linking an account in a browser', () => {
  it('goes from the accounts list’s signInUrl to the provider and back to the app, which confirms the link with the user’s token', async () => {
    const work = mkdtempSync(join(tmpdir(), 'identity-link-'));
    const env = serverEnvironment({}, join(work, 'pglite'), {
      SEED_DEMO: 'false',
    });
    const service = `http://127.0.0.1:${env.PORT}`;
    env.PUBLIC_URL = service;
    const op = new LocalOpenIdProvider({
      clientId: 'identity-service',
      clientSecret: 'chrome-secret',
      redirectUris: [`${service}/chrome/link/v1/callback`],
    });
    await op.start();
    // The application's page the browser ends on: its server confirms the
    // link with the token of the user signed in to it (Ann's).
    const confirmations: { status: number; body: unknown }[] = [];
    const app: HttpServer = createServer((req, res) => {
      const query = new URL(req.url!, 'http://app').searchParams;
      if (query.get('result') !== 'confirm') return res.end('not linked');
      void fetch(
        `${service}/chrome/api/identity/v1/accounts/link-confirmations`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ANN.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ linkCode: query.get('linkCode') }),
        },
      ).then(
        async (answer) => {
          confirmations.push({
            status: answer.status,
            body: await answer.json(),
          });
          res.end(answer.status === 201 ? 'linked' : 'not linked');
        },
        () => res.end('not linked'),
      );
    });
    await new Promise<void>((done) => app.listen(0, '127.0.0.1', done));
    const returnUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/linked`;
    const tenant = tenantFile({
      id: 'chrome',
      linkReturnUrls: [returnUrl],
      accountProviders: [
        provider('op', {
          link: {
            type: 'oidc',
            issuer: op.base,
            clientId: 'identity-service',
            clientSecret: 'chrome-secret',
          },
        }),
      ],
      identities: [identity('ann')],
      tokens: [ANN],
    });
    const file = join(work, 'tenant.json');
    writeFileSync(file, JSON.stringify(tenant));
    const imported = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), 'import', file],
      { env, cwd: ROOT, encoding: 'utf8' },
    );
    expect(imported.status).toBe(0);
    const server = await startServer(env);
    let browser: Browser | undefined;
    try {
      const accounts = async () =>
        (await (
          await fetch(`${service}/chrome/api/identity/v1/accounts`, {
            headers: { authorization: `Bearer ${ANN.token}` },
          })
        ).json()) as { signInUrl: string; accounts: object[] }[];
      const [{ signInUrl }] = await accounts();
      expect(signInUrl).toMatch(/\/chrome\/link\/v1\/op\/start\?ticket=/);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const page = await browser.newPage();
      await page.goto(signInUrl);
      await page.fill('input[name=login]', 'ann-in-chrome');
      await page.fill('input[name=password]', 'any');
      await page.click('button[type=submit]');
      await page.waitForURL(/\/interaction\//);
      await page.click('button[type=submit]');
      await page.waitForURL((url) => url.href.startsWith(returnUrl));
      const landed = new URL(page.url());
      expect(Object.fromEntries(landed.searchParams)).toStrictEqual({
        accountProviderId: 'op',
        result: 'confirm',
        linkCode: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(await page.textContent('body')).toBe('linked');
      const account = {
        accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        issuedUserId: 'ann-in-chrome',
        isCurrent: false,
        displayName: 'Name of ann-in-chrome',
        emailAddress: 'ann-in-chrome@op.example',
        pictureUrl: 'https://op.example/ann-in-chrome.png',
      };
      expect(confirmations).toStrictEqual([{ status: 201, body: account }]);
      const [op1] = await accounts();
      expect(op1.accounts).toStrictEqual([confirmations[0].body]);
    } finally {
      await browser?.close();
      await server.stop();
      await op.stop();
      app.close();
      app.closeAllConnections();
    }
  });
});
