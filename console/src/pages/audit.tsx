// The audit log of the tenant's administration, oldest first, a page at a
// time, of one action or one actor when asked; each entry's settings before
// and after side by side, key by key.
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { query } from '../api';
import {
  display,
  PagedTable,
  PageTitle,
  when,
  type Column,
} from '../components';
import { useApi } from '../context';
import type { PageProps } from '../router';
import { Select, TextInput } from './form-kit';

/** What the log records (the service's list, in its order). */
export const ACTIONS = [
  'tenant.updated',
  'tenant.replaced',
  'token.created',
  'token.revoked',
  'provider.created',
  'provider.updated',
  'provider.deleted',
  'issuer.created',
  'issuer.updated',
  'issuer.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret-rotated',
  'webhook.replayed',
];

/** An entry of the audit log. */
export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  target: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  occurredAt: string;
}

interface Filter {
  action: string;
  actor: string;
}

const COLUMNS: Column<AuditEntry>[] = [
  {
    header: 'When',
    cell: (e) => <time dateTime={e.occurredAt}>{when(e.occurredAt)}</time>,
  },
  { header: 'Who', cell: (e) => e.actor },
  { header: 'What', cell: (e) => e.action },
  { header: 'Target', cell: (e) => e.target },
  { header: 'Change', cell: (e) => <Change entry={e} /> },
];

export function AuditPage(_props: PageProps) {
  const api = useApi();
  const [filter, setFilter] = useState<Filter>({ action: '', actor: '' });
  const first = `/events${query({ limit: '20', action: filter.action, actor: filter.actor.trim() })}`;
  const shown = [
    filter.action && `action ${filter.action}`,
    filter.actor.trim() && `actor ${filter.actor.trim()}`,
  ].filter(Boolean);
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <p>
        Every change of the tenant’s administration, oldest first, with the
        settings before and after, and who made it: <code>app:</code> and an app
        id, or <code>cli</code> for the command line. Secrets are never
        recorded.
      </p>
      <FilterForm onApply={setFilter} />
      <section aria-labelledby="audit-entries">
        <h2 id="audit-entries">
          Entries{shown.length > 0 && ` of ${shown.join(' and ')}`}
        </h2>
        <PagedTable
          first={first}
          caption="Audit log entries, oldest first"
          empty="No entries."
          rowKey={(e) => e.id}
          columns={COLUMNS}
          load={(next) => api.page<AuditEntry>(next)}
        />
      </section>
    </>
  );
}

function FilterForm({ onApply }: { onApply: (filter: Filter) => void }) {
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const submit = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply({ action, actor });
  };
  return (
    <form class="search" role="search" aria-label="Audit log" onSubmit={submit}>
      <Select
        id="audit-action"
        label="Action"
        value={action}
        options={[
          ['', 'Any action'],
          ...ACTIONS.map((a): [string, string] => [a, a]),
        ]}
        onChange={setAction}
      />
      <TextInput
        id="audit-actor"
        label="Actor"
        hint="Exactly as the log names it: app:console, cli."
        value={actor}
        onInput={setActor}
      />
      <button type="submit">Show</button>{' '}
      <button
        type="button"
        onClick={() => {
          setAction('');
          setActor('');
          onApply({ action: '', actor: '' });
        }}
      >
        Show all
      </button>
    </form>
  );
}

/** The keys of an entry's settings, each with its value before and after. */
function Change({ entry }: { entry: AuditEntry }) {
  const { before, after } = entry;
  if (!before && !after) return <span class="muted">—</span>;
  const keys = [
    ...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]),
  ];
  if (keys.length === 0) return <span class="muted">no settings</span>;
  return (
    <dl class="facts">
      {keys.map((key) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>
            {before && <span>before: {valueText(before, key)}</span>}
            {before && after && <br />}
            {after && <span>after: {valueText(after, key)}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const valueText = (settings: Record<string, unknown>, key: string) =>
  Object.hasOwn(settings, key) ? display(settings[key]) : '(none)';
