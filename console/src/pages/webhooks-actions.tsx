// What an admin does to a subscription: enable or disable it, replay events
// (from an event id or a time; a 429 says when to try again), rotate its
// secret (the new one shown once), delete it. All but a replay send
// If-Match with the ETag the page read.
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import type { Tagged } from '../api';
import { ConfirmButton, ErrorBox } from '../components';
import { useApi } from '../context';
import { navigate } from '../router';
import { messagesAbout, Select, TextInput } from './form-kit';
import { webhookPath, type Webhook, type WebhookStatus } from './webhooks-live';
import { OnceSecret } from './webhooks-secret';

interface ActionProps {
  webhook: Tagged<Webhook>;
  /** After a change: the subscription as it answered, or none to read it again. */
  onChanged: (changed?: Tagged<Webhook>) => void;
  onReload: () => void;
}

export function WebhookActions(props: ActionProps) {
  const api = useApi();
  const { webhook } = props;
  const path = webhookPath(webhook.data.id);
  return (
    <section aria-labelledby="webhook-actions">
      <h2 id="webhook-actions">Actions</h2>
      <div class="card">
        <h3>Delivery</h3>
        <EnableButton {...props} />
      </div>
      <Replay {...props} />
      <Rotate {...props} />
      <div class="card">
        <h3>Delete</h3>
        <p>Its delivery log goes with it; an attempt under way ends.</p>
        <ConfirmButton
          label="Delete"
          question={`Delete the webhook to ${webhook.data.url}?`}
          onReload={props.onReload}
          onConfirm={async () => {
            await api.send('DELETE', path, { ifMatch: webhook.etag });
            navigate('webhooks');
          }}
        />
      </div>
    </section>
  );
}

function EnableButton({ webhook, onChanged, onReload }: ActionProps) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const enabled = webhook.data.enabled;
  // Enabled, but stopped: its retries ran out. (The state of the webhook
  // as read with its ETag, which a change must send.)
  const stopped = enabled && webhook.data.status === 'failing';
  const patch = async (to: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      onChanged(
        await api.send<Webhook>('PATCH', webhookPath(webhook.data.id), {
          body: { enabled: to },
          ifMatch: webhook.etag,
        }),
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>
        {stopped
          ? 'Stopped: its retries ran out. Resuming delivers the backlog from where it stopped.'
          : enabled
            ? 'Enabled. Disabling stops delivery where it is; the events keep their place.'
            : 'Disabled, by an admin or by a 410 Gone from the endpoint. Enabling resumes delivery from where it stopped.'}
      </p>
      {stopped && (
        <>
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() => void patch(true)}
          >
            Resume delivery
          </button>{' '}
        </>
      )}
      <button
        type="button"
        disabled={busy}
        onClick={() => void patch(!enabled)}
      >
        {enabled ? 'Disable' : 'Enable'}
      </button>
      <ErrorBox
        error={error}
        onReload={() => {
          setError(undefined);
          onReload();
        }}
      />
    </>
  );
}

function Replay({ webhook, onChanged }: ActionProps) {
  const api = useApi();
  const [from, setFrom] = useState<'event' | 'time'>('event');
  const [eventId, setEventId] = useState('');
  const [since, setSince] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [started, setStarted] = useState<WebhookStatus>();
  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setStarted(undefined);
    try {
      const body =
        from === 'event'
          ? { fromEventId: eventId.trim() }
          : { since: instant(since) };
      const { data } = await api.send<WebhookStatus>(
        'POST',
        `${webhookPath(webhook.data.id)}/replay`,
        { body },
      );
      setStarted(data);
      onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card field-form" onSubmit={submit} noValidate>
      <h3>Replay</h3>
      <p>
        Delivers events again, each with its own webhook-id (receivers drop the
        ones they have). The position only moves back.
      </p>
      <fieldset disabled={busy}>
        <Select
          id="replay-from"
          label="Replay from"
          value={from}
          options={[
            ['event', 'an event id'],
            ['time', 'a time'],
          ]}
          onChange={(value) => setFrom(value as 'event' | 'time')}
        />
        {from === 'event' ? (
          <TextInput
            id="replay-eventId"
            label="Event id"
            hint="A change log id, as the delivery log shows it."
            value={eventId}
            errors={messagesAbout(error, 'fromEventId')}
            onInput={setEventId}
          />
        ) : (
          <TextInput
            id="replay-since"
            label="Since (your local time)"
            type="datetime-local"
            hint="The events committed at or after it."
            value={since}
            errors={messagesAbout(error, 'since')}
            onInput={setSince}
          />
        )}
        <button type="submit">Replay</button>
      </fieldset>
      {started && (
        <p role="status">
          Replay started: position {started.position}, {started.backlog} events
          to deliver.
        </p>
      )}
      <ErrorBox error={error} />
    </form>
  );
}

/** A datetime-local value as an RFC 3339 instant; as typed when it is none. */
function instant(local: string): string {
  const ms = Date.parse(local);
  return Number.isNaN(ms) ? local : new Date(ms).toISOString();
}

function Rotate({ webhook, onChanged, onReload }: ActionProps) {
  const api = useApi();
  const [overlap, setOverlap] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [secret, setSecret] = useState<string>();
  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const text = overlap.trim();
      const { data } = await api.send<{ secret: string }>(
        'POST',
        `${webhookPath(webhook.data.id)}/rotate-secret`,
        {
          body: text === '' ? {} : { overlapSeconds: Number(text) },
          ifMatch: webhook.etag,
        },
      );
      setSecret(data.secret);
      setOverlap('');
      onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card field-form" onSubmit={submit} noValidate>
      <h3>Rotate the signing secret</h3>
      {secret && (
        <OnceSecret
          id="rotated-secret"
          title="New signing secret"
          secret={secret}
          onDismiss={() => setSecret(undefined)}
        />
      )}
      <fieldset disabled={busy}>
        <TextInput
          id="rotate-overlap"
          label="Overlap in seconds"
          type="number"
          hint="How long the previous secret goes on signing beside the new one. Empty: a day; 0: none."
          value={overlap}
          errors={messagesAbout(error, 'overlapSeconds')}
          onInput={setOverlap}
        />
        <button type="submit">Rotate secret</button>
      </fieldset>
      <ErrorBox
        error={error}
        onReload={() => {
          setError(undefined);
          onReload();
        }}
      />
    </form>
  );
}
