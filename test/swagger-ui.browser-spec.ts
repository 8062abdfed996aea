import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { serverEnvironment, startServer } from './support/server';

// Swagger UI in a real browser (Debian's chromium): authorize with the demo
// token, run GET of the current identity from the page, read the answer.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM))
  throw new Error(
    `The browser test needs Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH.`,
  );
const SCREENSHOT = resolve(__dirname, '..', 'test-artifacts', 'swagger-ui.png');

describe('Swagger UI', () => {
  it('executes GET of the current identity with the demo token', async () => {
    const env = serverEnvironment(
      {},
      join(mkdtempSync(join(tmpdir(), 'identity-ui-')), 'pglite'),
    );
    const server = await startServer(env);
    // Declared outside try: the server must stop even when no browser starts.
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const page = await browser.newPage({
        viewport: { width: 1280, height: 1400 },
      });
      await page.goto(`http://localhost:${env.PORT}/docs`);
      await page.click('button.authorize');
      await page.fill('.modal-ux input[type=text]', 'demo-alice-access-token');
      await page.click('.modal-ux .auth-btn-wrapper button.authorize');
      await page.click('.modal-ux button.btn-done');
      const operation = page.locator('#operations-identity-getCurrentIdentity');
      await operation.locator('.opblock-summary').click();
      await operation.locator('button.try-out__btn').click();
      await operation
        .locator('tr[data-param-name="tenant"] input')
        .fill('demo');
      await operation.locator('button.execute').click();
      const response = operation.locator('.live-responses-table .response');
      await response.locator('.response-col_status').waitFor();
      const status = (
        await response.locator('.response-col_status').textContent()
      )?.trim();
      const body = JSON.parse(
        (await response
          .locator('.response-col_description pre')
          .first()
          .textContent()) ?? '',
      );
      mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      process.stdout.write(`Swagger UI screenshot: ${SCREENSHOT}\n`);
      expect(status).toBe('200');
      expect(body).toMatchObject({
        identityId: 'alice',
        displayName: 'Alice Martin',
        emailAddress: 'alice@demo.example',
      });
    } finally {
      await browser?.close();
      await server.stop();
    }
  });
});
