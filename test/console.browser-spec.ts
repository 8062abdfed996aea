import { Locator, Page } from 'playwright-core';
import {
  apiRequest,
  ConsoleRun,
  CONSOLE_TOKEN as TOKEN,
  openConsole,
  screenshot as keep,
  signIn,
  startConsole,
  violations,
} from './support/console-browser';

// The administrators' console in a real browser (Debian's chromium), on
// the built server with the demo tenant, on each database: one server and
// one browser each, every test in a fresh browser context.
const BOB = 'demo-bob-access-token';

describe.each(['embedded', 'postgres'] as const)(
  'the console on the %s database',
  (kind) => {
    let run: ConsoleRun;
    beforeAll(async () => {
      run = await startConsole(kind);
    });
    afterAll(() => run?.stop());

    const open = () => openConsole(run);
    const screenshot = (page: Page, name: string) => keep(run, page, name);
    const api = (
      path: string,
      init: Parameters<typeof apiRequest>[2] = {},
      token = TOKEN,
    ) => apiRequest(run, path, init, token);

    it('is reached with the keyboard alone: sign-in, the search, bob’s page', async () => {
      const { page, problems } = await open();
      // The tenant field has the focus when the console opens.
      await page.locator('#sign-in-tenant:focus').waitFor();
      await page.keyboard.type('demo');
      await page.keyboard.press('Tab');
      await page.keyboard.type(TOKEN);
      await page.keyboard.press('Enter');
      // The page's heading takes the focus once it is shown; the search
      // comes next.
      await page.locator('h1:focus', { hasText: 'Identities' }).waitFor();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('INPUT identity-search');
      await page.keyboard.type('bob');
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: 'bob', exact: true }).waitFor();
      await tabTo(page, 'A bob');
      expect(await outlineOf(page)).not.toBe('none');
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 1, name: 'Bob Lee (bob)' })
        .waitFor();
      expect(page.url()).toBe(`${run.base}/console/#/identities/bob`);
      // Back from the heading: the navigation, then the skip link, which
      // lands on the content.
      await tabTo(page, 'A Tokens', 'Shift+Tab');
      expect(await outlineOf(page)).not.toBe('none');
      await tabTo(page, 'A Skip to content', 'Shift+Tab');
      await page.keyboard.press('Enter');
      await page.locator('main#main:focus').waitFor();
      await tabTo(page, 'A Tokens', 'Shift+Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
      expect(problems).toStrictEqual([]);
    });

    it('finds bob, revokes his token, which then answers 401', async () => {
      const { page, problems } = await open();
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'sign-in');
      expect((await api('/demo/api/identity/v1', {}, BOB)).status).toBe(200);
      await signIn(page);
      await page.getByLabel('Search identities').fill('bob');
      await page.getByRole('button', { name: 'Search' }).click();
      const bob = page.getByRole('link', { name: 'bob', exact: true });
      await bob.waitFor();
      expect(
        await page.locator('table tbody tr').allTextContents(),
      ).toStrictEqual(['bobBob Leebobbob@demo.example']);
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'identities');
      await bob.click();
      await page
        .getByRole('heading', { level: 1, name: 'Bob Lee (bob)' })
        .waitFor();
      const tokens = page.locator('section', {
        has: page.getByRole('heading', { name: 'Tokens' }),
      });
      await tokens.getByRole('button', { name: 'Revoke' }).waitFor();
      await page.getByRole('heading', { name: 'Recent changes' }).waitFor();
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'identity');
      await tokens.getByRole('button', { name: 'Revoke' }).click();
      await tokens.getByRole('button', { name: 'Yes, revoke' }).click();
      await tokens.getByText(/^revoked /).waitFor();
      const answer = await api('/demo/api/identity/v1', {}, BOB);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toBe(
        'application/problem+json',
      );
      expect(problems).toStrictEqual([]);
    });

    it('makes an app token and shows its secret once', async () => {
      const { page, problems } = await open();
      await signIn(page);
      await page.getByRole('link', { name: 'Tokens' }).click();
      await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
      await page.getByLabel('App id').fill('browser-test');
      await page.getByRole('checkbox', { name: 'identities:read' }).check();
      await page.getByLabel('Lifetime in seconds').first().fill('3600');
      await page.getByRole('button', { name: 'Create app token' }).click();
      const secret = await page
        .getByLabel('Secret', { exact: true })
        .inputValue();
      expect(secret).toMatch(/^idt_/);
      // Focused and selected, ready to copy (the focus moves once it is shown).
      await page.locator('input#new-secret:focus').waitFor();
      await page.getByText('it is shown this once').waitFor();
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'tokens');
      // It works, and it is not shown again.
      expect((await api('/demo/api/identity/v1/bob', {}, secret)).status).toBe(
        200,
      );
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
      await page.getByText('app browser-test').waitFor();
      expect(await page.content()).not.toContain(secret);
      expect(problems).toStrictEqual([]);
    });

    it('changes the settings with If-Match, and offers a reload after another change', async () => {
      const { page, problems } = await open();
      await signIn(page);
      await page.getByRole('link', { name: 'Settings' }).click();
      const name = page.getByLabel('Name', { exact: true });
      await hasValue(name, 'Demo Company');
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'settings');
      await name.fill('Demo Company (console)');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('status').getByText('Saved.').waitFor();
      const read = await api('/demo/api/admin/v1/tenant');
      expect(await read.json()).toMatchObject({
        name: 'Demo Company (console)',
        adminRoles: ['admin'],
      });
      // Changed elsewhere: the page's ETag is stale.
      expect(
        (
          await api('/demo/api/admin/v1/tenant', {
            method: 'PATCH',
            headers: { 'if-match': read.headers.get('etag')! },
            body: JSON.stringify({ name: 'Demo Company' }),
          })
        ).status,
      ).toBe(200);
      await name.fill('Demo Company (stale)');
      await page.getByRole('button', { name: 'Save settings' }).click();
      const alert = page.getByRole('alert');
      await alert.getByText('changed since you loaded it').waitFor();
      expect(await alert.textContent()).toContain('412');
      await alert.getByRole('button', { name: 'Reload' }).click();
      await hasValue(name, 'Demo Company');
      expect(problems).toStrictEqual([]);
    });

    it('shows the service’s refusal of a token, keeps the token in the tab only, and forgets it on sign-out', async () => {
      const { page, problems } = await open();
      await page.getByLabel('Tenant').fill('demo');
      await page.getByLabel('Admin token').fill('demo-reader-app-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText(/^403 /).waitFor();
      await signIn(page);
      expect(
        await page.evaluate(() => ({
          session: sessionStorage.length,
          local: localStorage.length,
          cookie: document.cookie,
        })),
      ).toStrictEqual({ session: 1, local: 0, cookie: '' });
      for (const [link, heading] of [
        ['Providers', 'Providers'],
        ['Token issuers', 'Token issuers'],
        ['Audit log', 'Audit log'],
        ['Webhooks', 'Webhooks'],
      ]) {
        await page.getByRole('link', { name: link }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      }
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      // A token revoked while the console is open: back to the sign-in.
      const made = (await (
        await api('/demo/api/admin/v1/tokens', {
          method: 'POST',
          body: JSON.stringify({ appId: 'brief', scopes: ['tenant:admin'] }),
        })
      ).json()) as { tokenId: string; secret: string };
      await page.getByLabel('Tenant').fill('demo');
      await page.getByLabel('Admin token').fill(made.secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Back on the page it was on: the webhooks.
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      const path = `/demo/api/admin/v1/tokens/${made.tokenId}`;
      const etag = (await api(path)).headers.get('etag')!;
      expect(
        (await api(path, { method: 'DELETE', headers: { 'if-match': etag } }))
          .status,
      ).toBe(204);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page
        .getByRole('alert')
        .getByText(/^Signed out: the service refused the token/)
        .waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(problems).toStrictEqual([]);
    });
  },
);

/** The focused element: its tag and its text, or its id. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    return `${element.tagName} ${element.id && element.tagName !== 'A' ? element.id : element.textContent?.trim()}`;
  });

/** Presses Tab (or `key`) until `target` (as `focused` names it) has the focus. */
async function tabTo(page: Page, target: string, key = 'Tab') {
  for (let i = 0; i < 20 && (await focused(page)) !== target; i++)
    await page.keyboard.press(key);
  expect(await focused(page)).toBe(target);
}

/** The focused element's outline, as the browser draws it. */
const outlineOf = (page: Page) =>
  page.evaluate(
    () => getComputedStyle(document.activeElement as HTMLElement).outlineStyle,
  );

/** Waits, 5 s at most, for a field to hold `value`. */
async function hasValue(field: Locator, value: string) {
  for (let waited = 0; waited < 5000; waited += 50) {
    if ((await field.inputValue().catch(() => undefined)) === value) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  expect(await field.inputValue()).toBe(value);
}
