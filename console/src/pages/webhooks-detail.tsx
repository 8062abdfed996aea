// One subscription: its settings, its live delivery (status, backlog, lag,
// last error, failing since), the lag chart, the delivery log a page at a
// time, and what an admin does to it (webhooks-actions.tsx).
import { useState } from 'preact/hooks';
import {
  ErrorBox,
  Facts,
  PagedTable,
  PageTitle,
  useLoad,
  when,
  type Column,
} from '../components';
import { useApi } from '../context';
import { href } from '../router';
import { WebhookActions } from './webhooks-actions';
import { LagChart, type LagSample } from './webhooks-chart';
import {
  attemptLag,
  outcomeOf,
  seconds,
  usePoll,
  webhookPath,
  type Attempt,
  type Webhook,
  type WebhookStatus,
} from './webhooks-live';

/** A time of the API as Facts shows it; none left out. */
const at = (value: string | undefined) =>
  value === undefined ? undefined : when(value);

/** The most live readings the chart keeps (at one each POLL_MS: 10 minutes). */
const MAX_SAMPLES = 200;

const ATTEMPT_COLUMNS: Column<Attempt>[] = [
  {
    header: 'Attempted',
    cell: (a) => <time dateTime={a.attemptedAt}>{when(a.attemptedAt)}</time>,
  },
  { header: 'Event', cell: (a) => <code>{a.eventId}</code> },
  { header: 'Outcome', cell: (a) => outcomeOf(a) },
  { header: 'Took', cell: (a) => `${a.durationMs} ms` },
  {
    header: 'Lag',
    cell: (a) =>
      a.eventOccurredAt ? seconds(attemptLag(a)) : 'event no longer logged',
  },
];

export function WebhookPage({ id }: { id: string }) {
  const api = useApi();
  const loaded = useLoad(() => api.get<Webhook>(webhookPath(id)), [id]);
  const [samples, setSamples] = useState<LagSample[]>([]);
  const [logVersion, setLogVersion] = useState(0);
  const live = usePoll(
    async () =>
      (await api.get<WebhookStatus>(`${webhookPath(id)}/status`)).data,
    [id],
    (status) => {
      setSamples((all) =>
        [...all, { at: Date.now(), lagSeconds: status.lagSeconds ?? 0 }].slice(
          -MAX_SAMPLES,
        ),
      );
      // The state is part of what the ETag covers: read it again when it
      // moved, so that a change sends the current tag.
      const shown = loaded.data?.data.status;
      if (shown !== undefined && shown !== status.status)
        api.get<Webhook>(webhookPath(id)).then(loaded.update, () => {});
    },
  );
  // The newest attempts, for the chart, read again with the figures.
  const recent = usePoll(
    async () =>
      (await api.page<Attempt>(`${webhookPath(id)}/attempts?limit=200`)).items,
    [id],
  );
  const webhook = loaded.data;
  return (
    <>
      <PageTitle>Webhook {id}</PageTitle>
      <p>
        <a href={href('webhooks')}>All webhooks</a>
      </p>
      <ErrorBox error={loaded.error} onReload={loaded.reload} />
      {loaded.loading && <p class="muted">Loading…</p>}
      {webhook && (
        <Facts
          facts={[
            ['Endpoint', webhook.data.url],
            ['Description', webhook.data.description],
            ['Event types', webhook.data.eventTypes],
            ['Enabled', webhook.data.enabled ? 'yes' : 'no'],
            ['Created', at(webhook.data.createdAt)],
            ['Secret made', at(webhook.data.secretCreatedAt)],
            [
              'Previous secret signs until',
              at(webhook.data.previousSecretExpiresAt),
            ],
          ]}
        />
      )}
      <section aria-labelledby="webhook-delivery">
        <h2 id="webhook-delivery">Delivery</h2>
        <LiveFigures status={live.value} error={live.error} />
        <h3>Lag over time</h3>
        <LagChart attempts={recent.value ?? []} samples={samples} />
      </section>
      {webhook && (
        <WebhookActions
          webhook={webhook}
          onChanged={(changed) => {
            setLogVersion((n) => n + 1);
            // Read again in place: a secret just shown stays on the page.
            (changed
              ? Promise.resolve(changed)
              : api.get<Webhook>(webhookPath(id))
            ).then(loaded.update, loaded.reload);
          }}
          onReload={loaded.reload}
        />
      )}
      <section aria-labelledby="webhook-attempts">
        <h2 id="webhook-attempts">Delivery log</h2>
        <p>
          Newest first. The receiver’s HTTP status, or what went wrong in the
          service’s words (never what the receiver said).{' '}
          <button type="button" onClick={() => setLogVersion((n) => n + 1)}>
            Refresh the log
          </button>
        </p>
        <PagedTable
          first={`${webhookPath(id)}/attempts?limit=20`}
          version={logVersion}
          caption="Delivery attempts, newest first"
          empty="No attempts yet."
          rowKey={(a) => a.id}
          columns={ATTEMPT_COLUMNS}
          load={(next) => api.page<Attempt>(next)}
        />
      </section>
    </>
  );
}

function LiveFigures({
  status,
  error,
}: {
  status?: WebhookStatus;
  error?: unknown;
}) {
  return (
    <div>
      <ErrorBox error={error} />
      {status && (
        <p role="status">
          State: <strong>{status.status}</strong>
        </p>
      )}
      {status ? (
        <Facts
          facts={[
            ['Backlog', `${status.backlog} events`],
            ['Lag', seconds(status.lagSeconds ?? 0)],
            ['Oldest undelivered', at(status.oldestUndeliveredAt)],
            ['Position', status.position],
            ['Last delivered', at(status.lastDeliveredAt)],
            ['Last delivered event', status.lastDeliveredEventId],
            ['Last error', status.lastError],
            ['Last error at', at(status.lastErrorAt)],
            ['Failed attempts in a row', status.failedAttempts],
            ['Failing since', at(status.failingSince)],
            ['Next attempt', at(status.nextAttemptAt)],
          ]}
        />
      ) : (
        !error && <p class="muted">Reading the delivery…</p>
      )}
    </div>
  );
}
