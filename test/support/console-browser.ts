import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { databaseUrl, withClient } from './postgres-admin';
import { Server, serverEnvironment, startServer } from './server';

// The administrators' console in a real browser (Debian's chromium): the
// built server with the demo tenant on either database, one browser, and
// what every console test checks on a page (its errors, axe's findings)
// or keeps of it (a screenshot).

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(__dirname, '..', '..', 'test-artifacts');
/** axe-core's script, which a test runs in the page it checks. */
const AXE = readFileSync(
  join(require.resolve('axe-core'), '..', 'axe.min.js'),
  'utf8',
);

/** The demo tenant's app token with tenant:admin (prisma/demo-tenant.json). */
export const CONSOLE_TOKEN = 'demo-console-admin-token';

export type DatabaseKind = 'embedded' | 'postgres';

/** A server with the console and a browser to use it with. */
export interface ConsoleRun {
  kind: DatabaseKind;
  /** `http://localhost:<port>`. */
  base: string;
  server: Server;
  browser: Browser;
  stop(): Promise<void>;
}

/**
 * The built server with the demo tenant on a database of its own of `kind`
 * (a new PostgreSQL database, dropped at `stop`, or a data directory), and
 * Chromium.
 */
export async function startConsole(
  kind: DatabaseKind,
  extra: NodeJS.ProcessEnv = {},
): Promise<ConsoleRun> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The browser test needs Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH.`,
    );
  let url: string | undefined;
  let dropDatabase = async () => {};
  if (kind === 'postgres') {
    const name = `console_browser_${randomBytes(6).toString('hex')}`;
    await withClient((c) => c.query(`CREATE DATABASE ${name}`));
    url = databaseUrl(name);
    dropDatabase = () =>
      withClient((c) =>
        c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      ).then(() => undefined);
  }
  const env = serverEnvironment(
    { databaseUrl: url },
    join(mkdtempSync(join(tmpdir(), 'identity-console-')), 'pglite'),
    extra,
  );
  let server: Server | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await server?.stop();
    await dropDatabase();
  };
  try {
    server = await startServer(env);
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
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    kind,
    base: `http://localhost:${env.PORT}`,
    server,
    browser,
    stop,
  };
}

/**
 * The console's first page in a new browser context, and the page's errors
 * and console errors as they come. The loads the tests provoke (a 403, a
 * 412, a 429) are logged by the browser as failed loads, and left out.
 */
export async function openConsole({ browser, base }: ConsoleRun) {
  const context = await browser.newContext({
    viewport: { width: 1200, height: 900 },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !message.text().startsWith('Failed to load resource')
    )
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${base}/console/`);
  return { page, problems };
}

/** Signs in to the demo tenant with the console token. */
export async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Tenant').fill('demo');
  await page.getByLabel('Admin token').fill(CONSOLE_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Identities' }).waitFor();
}

/** The serious and critical accessibility violations axe finds on the page. */
export async function violations(page: Page) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    if (!result.passes.length) throw new Error('axe checked nothing');
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n: any) => n.target.join(' ')),
    }));
  });
  return (found as { impact: string }[]).filter((v) =>
    ['serious', 'critical'].includes(v.impact),
  );
}

/**
 * A full-page screenshot in test-artifacts/console-<name>.png, and in
 * $CONSOLE_SCREENSHOTS when set (docs/images/); of the embedded run only,
 * as the pages look the same on both databases.
 */
export async function screenshot(
  { kind }: ConsoleRun,
  page: Page,
  name: string,
): Promise<void> {
  if (kind !== 'embedded') return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `console-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  const extra = process.env.CONSOLE_SCREENSHOTS;
  if (extra) {
    mkdirSync(extra, { recursive: true });
    copyFileSync(path, join(extra, `console-${name}.png`));
  }
}

/** A request to the server with a bearer token (the console's, by default). */
export function apiRequest(
  { base }: ConsoleRun,
  path: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  } = {},
  token = CONSOLE_TOKEN,
) {
  return fetch(`${base}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
}
