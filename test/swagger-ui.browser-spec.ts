import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConsoleRun, startConsole } from './support/console-browser';

// Swagger UI in a real browser (Debian's chromium): authorize with the demo
// token, run GET of the current identity from the page, read the answer.
const SCREENSHOT = resolve(__dirname, '..', 'test-artifacts', 'swagger-ui.png');

describe('Swagger UI', () => {
  // The built server with the demo tenant on the embedded database, and
  // Chromium: the console tests' set-up, started before the test's own
  // time runs.
  let run: ConsoleRun;
  beforeAll(async () => {
    run = await startConsole('embedded');
  });
  afterAll(() => run?.stop());

  it('executes GET of the current identity with the demo token', async () => {
    const { browser, base } = run;
    const page = await browser.newPage({
      viewport: { width: 1280, height: 1400 },
    });
    await page.goto(`${base}/docs`);
    await page.click('button.authorize');
    await page.fill('.modal-ux input[type=text]', 'demo-alice-access-token');
    await page.click('.modal-ux .auth-btn-wrapper button.authorize');
    await page.click('.modal-ux button.btn-done');
    const operation = page.locator('#operations-identity-getCurrentIdentity');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('tr[data-param-name="tenant"] input').fill('demo');
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
    expect(status).toBe('200');
    expect(body).toMatchObject({
      identityId: 'alice',
      displayName: 'Alice Martin',
      emailAddress: 'alice@demo.example',
    });
  });
});
