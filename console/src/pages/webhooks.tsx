// The tenant's webhook subscriptions: each with its live delivery figures
// (read again every few seconds while the page is open), a form to add one
// (its secret shown once), and each one's own page (webhooks-detail.tsx).
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import type { Api } from '../api';
import { ErrorBox, PageTitle, useLoad, when } from '../components';
import { useApi } from '../context';
import { href, type PageProps } from '../router';
import { Checkbox, Choices, messagesAbout, TextInput } from './form-kit';
import { WebhookPage } from './webhooks-detail';
import {
  seconds,
  usePoll,
  webhookPath,
  type Webhook,
  type WebhookStatus,
} from './webhooks-live';
import { OnceSecret } from './webhooks-secret';

/** The event types a subscription may ask for: `*` is all of them, now and later. */
export const EVENT_TYPES = [
  '*',
  'identity.imported',
  'identity.created',
  'identity.updated',
  'identity.deleted',
  'identity.merged',
];

export function WebhooksPage({ path }: PageProps) {
  return path[0] !== undefined ? <WebhookPage id={path[0]} /> : <WebhookList />;
}

/** Every subscription (a tenant has at most 20: one page of 100 holds them). */
async function allWebhooks(api: Api): Promise<Webhook[]> {
  const items: Webhook[] = [];
  let next: string | undefined = '/webhooks?limit=100';
  while (next) {
    const page: { items: Webhook[]; next?: string } =
      await api.page<Webhook>(next);
    items.push(...page.items);
    next = page.next;
  }
  return items;
}

function WebhookList() {
  const api = useApi();
  const list = useLoad(() => allWebhooks(api), []);
  const [made, setMade] = useState<Webhook & { secret: string }>();
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p>
        Endpoints the change log is POSTed to, signed. The figures are read
        again every few seconds while this page is open.
      </p>
      {made && (
        <OnceSecret
          id="made-secret"
          title={`Webhook ${made.id} added`}
          secret={made.secret}
          onDismiss={() => setMade(undefined)}
        />
      )}
      <section aria-labelledby="webhooks-list">
        <h2 id="webhooks-list">Subscriptions</h2>
        <ErrorBox error={list.error} />
        {list.loading && <p class="muted">Loading…</p>}
        {list.data && list.data.length === 0 && <p>No webhooks yet.</p>}
        {list.data && list.data.length > 0 && (
          <WebhookTable webhooks={list.data} />
        )}
      </section>
      <section aria-labelledby="webhooks-add" class="card">
        <h2 id="webhooks-add">Add a webhook</h2>
        <WebhookForm
          onMade={(webhook) => {
            setMade(webhook);
            list.reload();
          }}
        />
      </section>
    </>
  );
}

function WebhookTable({ webhooks }: { webhooks: Webhook[] }) {
  return (
    <div class="table-wrap">
      <table>
        <caption>Webhooks by creation, with their live delivery</caption>
        <thead>
          <tr>
            {[
              'Endpoint',
              'Events',
              'State',
              'Backlog',
              'Lag',
              'Last error',
              'Failing since',
            ].map((header) => (
              <th scope="col" key={header}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {webhooks.map((webhook) => (
            <WebhookRow key={webhook.id} webhook={webhook} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const api = useApi();
  const live = usePoll(
    async () =>
      (await api.get<WebhookStatus>(`${webhookPath(webhook.id)}/status`)).data,
    [webhook.id],
  );
  const status = live.value;
  return (
    <tr>
      <td>
        <a href={href('webhooks', webhook.id)}>{webhook.url}</a>
        {webhook.description && <span class="hint">{webhook.description}</span>}
      </td>
      <td>{webhook.eventTypes.join(', ')}</td>
      <td>
        <span class={`state state-${status?.status ?? webhook.status}`}>
          {status?.status ?? webhook.status}
        </span>
        {live.error !== undefined && (
          <span class="field-error"> (figures not read)</span>
        )}
      </td>
      <td>{status ? String(status.backlog) : '—'}</td>
      <td>{status ? seconds(status.lagSeconds ?? 0) : '—'}</td>
      <td>
        {status?.lastError ? (
          <>
            {status.lastError}
            <span class="hint">{when(status.lastErrorAt)}</span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td>{when(status?.failingSince)}</td>
    </tr>
  );
}

function WebhookForm({
  onMade,
}: {
  onMade: (webhook: Webhook & { secret: string }) => void;
}) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<string[]>(['*']);
  const [enabled, setEnabled] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await api.send<Webhook & { secret: string }>(
        'POST',
        '/webhooks',
        {
          body: {
            url: url.trim(),
            ...(description.trim() && { description: description.trim() }),
            ...(types.length > 0 && { eventTypes: types }),
            enabled,
          },
        },
      );
      setUrl('');
      setDescription('');
      onMade(data);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="field-form" onSubmit={submit} noValidate>
      <fieldset disabled={busy}>
        <TextInput
          id="new-webhook-url"
          label="Endpoint URL"
          type="url"
          required
          hint="https; http only on loopback, for development."
          value={url}
          errors={messagesAbout(error, 'url')}
          onInput={setUrl}
        />
        <TextInput
          id="new-webhook-description"
          label="Description"
          value={description}
          errors={messagesAbout(error, 'description')}
          onInput={setDescription}
        />
        <Choices
          id="new-webhook-eventTypes"
          label="Event types"
          hint="* is every type, now and later."
          choices={EVENT_TYPES}
          chosen={types}
          errors={messagesAbout(error, 'eventTypes')}
          onChange={setTypes}
        />
        <Checkbox
          id="new-webhook-enabled"
          label="Deliver events from now on"
          checked={enabled}
          onChange={setEnabled}
        />
        <button type="submit" class="primary">
          Add webhook
        </button>
      </fieldset>
      <ErrorBox error={error} />
    </form>
  );
}
