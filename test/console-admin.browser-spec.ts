import { Page } from 'playwright-core';
import {
  apiRequest,
  ConsoleRun,
  openConsole,
  screenshot as keep,
  signIn,
  startConsole,
  violations,
} from './support/console-browser';
import { until } from './support/until';
import { WebhookReceiver } from './support/webhook-receiver';

// The console's administration pages (providers, token issuers, the audit
// log, webhooks) in a real browser (Debian's chromium), on the built server
// with the demo tenant, on each database; the demo tenant's webhooks may
// post to loopback (EGRESS_PRIVATE_NETWORK_TENANTS of the test servers).
const ALICE = 'demo-alice-access-token';

describe.each(['embedded', 'postgres'] as const)(
  'the console’s administration pages on the %s database',
  (kind) => {
    let run: ConsoleRun;
    beforeAll(async () => {
      // Retries that run out within seconds: the webhook is marked failing.
      run = await startConsole(kind, {
        WEBHOOK_POLL_MS: '50',
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_RETRY_MAX_MS: '500',
        WEBHOOK_RETRY_SECONDS: '2',
      });
    });
    afterAll(() => run?.stop());

    /** A signed-in page of a new context, its page errors recorded. */
    const open = async () => {
      const opened = await openConsole(run);
      await signIn(opened.page);
      return opened;
    };
    const screenshot = (page: Page, name: string) => keep(run, page, name);
    const api = (
      path: string,
      init: Parameters<typeof apiRequest>[2] = {},
      token?: string,
    ) => apiRequest(run, path, init, token);

    /** Opens a page of the console by its navigation link. */
    const go = async (page: Page, link: string, heading: string) => {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    };

    it('adds a provider, and shows it on the list, its own page and the audit log', async () => {
      const { page, problems } = await open();
      await go(page, 'Providers', 'Account providers');
      await page.getByRole('link', { name: 'google', exact: true }).waitFor();
      await page.getByLabel('Provider id').fill('gitlab');
      await page.getByLabel('Display name').fill('GitLab');
      await page
        .getByLabel('Sign-in URL')
        .fill('https://login.demo.example/demo/gitlab/link');
      await page
        .getByLabel('Image URL')
        .fill('https://static.demo.example/providers/gitlab.png');
      await page.getByRole('button', { name: 'Add provider' }).click();
      await page.getByRole('status').getByText('Added.').waitFor();
      await page.getByRole('link', { name: 'gitlab', exact: true }).waitFor();
      expect(
        await (await api('/demo/api/admin/v1/account-providers/gitlab')).json(),
      ).toStrictEqual({
        accountProviderId: 'gitlab',
        displayName: 'GitLab',
        signInUrl: 'https://login.demo.example/demo/gitlab/link',
        providerImageUrl: 'https://static.demo.example/providers/gitlab.png',
        allowsMultipleAccounts: false,
      });
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'providers');
      // Its page: the image URL as text, never an image.
      await page.getByRole('link', { name: 'gitlab', exact: true }).click();
      await page
        .getByRole('heading', { level: 1, name: 'Provider gitlab' })
        .waitFor();
      await page
        .getByRole('link', {
          name: 'https://static.demo.example/providers/gitlab.png',
        })
        .waitFor();
      expect(await page.locator('img').count()).toBe(0);
      expect(await violations(page)).toStrictEqual([]);
      // Changed elsewhere: a delete with the page's ETag is refused (412),
      // and Reload shows the change with the question closed.
      const stored = await api('/demo/api/admin/v1/account-providers/gitlab');
      const changed = await api('/demo/api/admin/v1/account-providers/gitlab', {
        method: 'PUT',
        headers: { 'if-match': stored.headers.get('etag')! },
        body: JSON.stringify({
          ...(await stored.json()),
          displayName: 'GitLab (elsewhere)',
        }),
      });
      expect(changed.status).toBe(200);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      const refused = page.getByRole('alert');
      await refused.getByText('changed since you loaded it').waitFor();
      await refused.getByRole('button', { name: 'Reload' }).click();
      await until(
        async () =>
          (await page.getByLabel('Display name').inputValue()) ===
          'GitLab (elsewhere)',
        { what: 'the reloaded provider' },
      );
      expect([
        await page.getByRole('button', { name: 'Yes, delete' }).count(),
        await page.getByRole('alert').count(),
      ]).toStrictEqual([0, 0]);
      expect(
        (await api('/demo/api/admin/v1/account-providers/gitlab')).status,
      ).toBe(200);

      await go(page, 'Audit log', 'Audit log');
      await page.getByLabel('Action').selectOption('provider.created');
      await page.getByLabel('Actor').fill('app:console');
      await page.getByRole('button', { name: 'Show', exact: true }).click();
      await page
        .getByRole('heading', {
          name: 'Entries of action provider.created and actor app:console',
        })
        .waitFor();
      const rows = page.locator('table tbody tr');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain('provider:gitlab');
      expect(await rows.first().textContent()).toContain(
        'after: https://login.demo.example/demo/gitlab/link',
      );
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'audit');

      await go(page, 'Token issuers', 'Token issuers');
      await page.getByRole('button', { name: 'Add issuer' }).waitFor();
      expect(await violations(page)).toStrictEqual([]);
      await screenshot(page, 'issuers');
      expect(problems).toStrictEqual([]);
    });

    it('watches a failing webhook recover, then replays its events', async () => {
      const receiver = await new WebhookReceiver().start();
      // It fails every delivery until told to recover.
      receiver.next(...Array.from({ length: 1000 }, () => ({ answer: 500 })));
      try {
        const { page, problems } = await open();
        await go(page, 'Webhooks', 'Webhooks');
        await page.getByLabel('Endpoint URL').fill(receiver.url);
        await page.getByLabel('Description').fill('CRM sync');
        await page.getByRole('button', { name: 'Add webhook' }).click();
        const secret = await page.getByLabel('Signing secret').inputValue();
        expect(secret).toMatch(/^whsec_/);
        receiver.secrets = [secret];
        await page.getByRole('link', { name: receiver.url }).waitFor();
        expect(await violations(page)).toStrictEqual([]);

        // A change of Alice's, which the receiver refuses until it recovers.
        const changed = await api(
          '/demo/api/identity/v1',
          {
            method: 'PUT',
            body: JSON.stringify({ displayName: 'Alice (console)' }),
          },
          ALICE,
        );
        expect(changed.status).toBe(200);
        await page.getByRole('link', { name: receiver.url }).click();
        await page
          .getByRole('heading', { level: 1, name: /^Webhook wh_/ })
          .waitFor();
        const state = page.getByRole('status').filter({ hasText: 'State:' });
        await state.getByText(/State: (retrying|failing)/).waitFor();
        await state.getByText('State: failing').waitFor({ timeout: 15_000 });
        await page.getByRole('button', { name: 'Resume delivery' }).waitFor();
        receiver.recover();
        await page.getByRole('button', { name: 'Resume delivery' }).click();
        await state.getByText('State: active').waitFor({ timeout: 15_000 });
        expect(receiver.deliveries.every((d) => d.verified[0])).toBe(true);
        const [event] = receiver.uniqueIds();
        const eventId = event.replace(/^evt_/, '');
        // The log shows the failures and the delivery, with their lag.
        await page.getByRole('button', { name: 'Refresh the log' }).click();
        const log = page.locator('table', {
          has: page.getByText('Delivery attempts, newest first'),
        });
        await log.getByText('HTTP 204').waitFor();
        expect(await log.getByText('HTTP 500').count()).toBeGreaterThan(0);
        await page.locator('svg[role=img] circle').first().waitFor();

        const before = receiver.deliveries.length;
        await page.getByLabel('Event id').fill(eventId);
        await page.getByRole('button', { name: 'Replay', exact: true }).click();
        await page.getByText(/^Replay started: position \d+/).waitFor();
        await until(() =>
          receiver.deliveries.slice(before).some((d) => d.id === event),
        );
        // Another replay at once is refused until WEBHOOK_REPLAY_SECONDS pass.
        await page.getByRole('button', { name: 'Replay', exact: true }).click();
        const alert = page.getByRole('alert');
        await alert.getByText(/^429 /).waitFor();
        await alert.getByText(/^Try again in \d+ seconds\.$/).waitFor();
        await state.getByText('State: active').waitFor();
        expect(await violations(page)).toStrictEqual([]);
        await screenshot(page, 'webhooks');
        expect(problems).toStrictEqual([]);
      } finally {
        await receiver.stop();
      }
    });
  },
);
