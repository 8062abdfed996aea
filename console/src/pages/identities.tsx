import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { query, segment } from '../api';
import {
  display,
  ErrorBox,
  Facts,
  PagedTable,
  PageTitle,
  useLoad,
  when,
} from '../components';
import { useApi } from '../context';
import { href, type PageProps } from '../router';
import { tokenColumns, type Token } from './tokens';

/** An entry of the identities list. */
interface IdentityEntry {
  identityId: string;
  displayName?: string;
  userName?: string;
  emailAddress?: string;
}

/** The identities, searched; `#/identities/{id}` is one of them. */
export function IdentitiesPage({ path: [id] }: PageProps) {
  return id === undefined ? <Search /> : <IdentityView id={id} />;
}

// The last search, kept while the tab lives, so that "back" finds it.
let lastSearch = '';

function Search() {
  const api = useApi();
  const [text, setText] = useState(lastSearch);
  const [q, setQ] = useState(lastSearch);
  const submit = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    lastSearch = text.trim();
    setQ(lastSearch);
  };
  return (
    <>
      <PageTitle>Identities</PageTitle>
      <form class="search" role="search" onSubmit={submit}>
        <label for="identity-search">Search identities</label>
        <input
          id="identity-search"
          type="search"
          value={text}
          maxLength={200}
          spellcheck={false}
          aria-describedby="identity-search-hint"
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" class="primary">
          Search
        </button>
        <span class="hint" id="identity-search-hint">
          Part of an id, user name, display name or e-mail address; empty lists
          them all.
        </span>
      </form>
      <PagedTable<IdentityEntry>
        first={`/identities${query({ q, limit: '25' })}`}
        caption={q ? `Identities matching “${q}”` : 'Identities'}
        empty="No identity matches."
        rowKey={(i) => i.identityId}
        load={(path) => api.page<IdentityEntry>(path)}
        columns={[
          {
            header: 'Identity',
            cell: (i) => (
              <a href={href('identities', i.identityId)}>{i.identityId}</a>
            ),
          },
          { header: 'Display name', cell: (i) => display(i.displayName) },
          { header: 'User name', cell: (i) => display(i.userName) },
          { header: 'E-mail address', cell: (i) => display(i.emailAddress) },
        ]}
      />
    </>
  );
}

interface Identity extends Record<string, unknown> {
  identityId: string;
  displayName?: string;
  oldIdentityIds?: string[];
  properties?: Record<string, string>;
}

const FIELDS = [
  'displayName',
  'userName',
  'emailAddress',
  'emailAddresses',
  'emailAddressVerified',
  'givenName',
  'givenNames',
  'surname',
  'surnames',
  'locality',
  'localities',
  'mobilePhone',
  'mobilePhoneVerified',
  'privatePersonalIdentifier',
  'userNamePasswordAccountUserName',
  'lastLogin',
  'disabled',
  'isArchived',
];

function IdentityView({ id }: { id: string }) {
  const api = useApi();
  const base = `/identities/${segment(id)}`;
  const identity = useLoad(() => api.get<Identity>(base), [base]);
  const found = identity.data?.data;
  return (
    <>
      <p>
        <a href={href('identities')}>← Identities</a>
      </p>
      <PageTitle>
        {found?.displayName ? `${found.displayName} (${id})` : id}
      </PageTitle>
      <ErrorBox error={identity.error} />
      {identity.loading && <p class="muted">Loading…</p>}
      {found && found.identityId !== id && (
        <p class="notice">
          {id} was merged into{' '}
          <a href={href('identities', found.identityId)}>{found.identityId}</a>;
          this is that identity.
        </p>
      )}
      {found && (
        <>
          <section aria-labelledby="identity-fields">
            <h2 id="identity-fields">Fields</h2>
            <Facts
              facts={[
                ['identityId', found.identityId],
                ...FIELDS.map((f): [string, unknown] => [f, found[f]]),
                ...Object.entries(found.properties ?? {}).map(
                  ([name, value]): [string, unknown] => [
                    `property ${name}`,
                    value,
                  ],
                ),
              ]}
            />
          </section>
          <Merges identity={found} />
          <Accounts base={base} />
          <Friends base={base} />
          <Roles base={base} />
          <IdentityTokens identityId={found.identityId} />
          <Events base={base} />
        </>
      )}
    </>
  );
}

function Merges({ identity }: { identity: Identity }) {
  const old = identity.oldIdentityIds ?? [];
  return (
    <section aria-labelledby="identity-merges">
      <h2 id="identity-merges">Merges</h2>
      {old.length === 0 ? (
        <p>No identity was merged into this one.</p>
      ) : (
        <p>Merged into this one: {old.join(', ')}</p>
      )}
    </section>
  );
}

interface ProviderEntry {
  accountProviderId: string;
  displayName?: string;
  accounts: Record<string, unknown>[];
}

function Accounts({ base }: { base: string }) {
  const api = useApi();
  const accounts = useLoad(
    () => api.get<ProviderEntry[]>(`${base}/accounts`),
    [base],
  );
  return (
    <section aria-labelledby="identity-accounts">
      <h2 id="identity-accounts">Accounts</h2>
      <ErrorBox error={accounts.error} />
      {accounts.data?.data.map((provider) => (
        <div key={provider.accountProviderId} class="provider">
          <h3>
            {provider.displayName ?? provider.accountProviderId}{' '}
            <span class="muted">({provider.accountProviderId})</span>
          </h3>
          {provider.accounts.length === 0 ? (
            <p class="muted">No account.</p>
          ) : (
            <ul>
              {provider.accounts.map((account) => (
                <li key={String(account.accountId)}>
                  <code>{String(account.accountId)}</code>{' '}
                  {display(account.displayName)}{' '}
                  {account.emailAddress !== undefined &&
                    `<${display(account.emailAddress)}>`}{' '}
                  <span class="muted">
                    issued user id {display(account.issuedUserId)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </section>
  );
}

function Friends({ base }: { base: string }) {
  const api = useApi();
  return (
    <section aria-labelledby="identity-friends">
      <h2 id="identity-friends">Friends</h2>
      <PagedTable<{ identityId: string; displayName?: string }>
        first={`${base}/friends?limit=50`}
        caption="Friends"
        empty="No friends."
        rowKey={(f) => f.identityId}
        load={(path) => api.page(path)}
        columns={[
          {
            header: 'Identity',
            cell: (f) => (
              <a href={href('identities', f.identityId)}>{f.identityId}</a>
            ),
          },
          { header: 'Display name', cell: (f) => display(f.displayName) },
        ]}
      />
    </section>
  );
}

function Roles({ base }: { base: string }) {
  const api = useApi();
  const roles = useLoad(
    () => api.get<{ name: string }[]>(`${base}/roles`),
    [base],
  );
  return (
    <section aria-labelledby="identity-roles">
      <h2 id="identity-roles">Roles</h2>
      <ErrorBox error={roles.error} />
      {roles.data &&
        (roles.data.data.length === 0 ? (
          <p>No roles.</p>
        ) : (
          <ul class="tags">
            {roles.data.data.map((role) => (
              <li key={role.name}>{role.name}</li>
            ))}
          </ul>
        ))}
    </section>
  );
}

function IdentityTokens({ identityId }: { identityId: string }) {
  const api = useApi();
  const [version, setVersion] = useState(0);
  return (
    <section aria-labelledby="identity-tokens">
      <h2 id="identity-tokens">Tokens</h2>
      <PagedTable<Token>
        first={`/tokens${query({ identityId, limit: '20' })}`}
        version={version}
        caption="Tokens of this identity"
        empty="No tokens."
        rowKey={(t) => t.tokenId}
        load={(path) => api.page<Token>(path)}
        columns={tokenColumns(api, () => setVersion((n) => n + 1)).filter(
          (c) => c.header !== 'For',
        )}
      />
    </section>
  );
}

interface ChangeEvent {
  id: string;
  type: string;
  fields?: string[];
  relatedIdentityId?: string;
  occurredAt: string;
}

function Events({ base }: { base: string }) {
  const api = useApi();
  const events = useLoad(
    () => api.page<ChangeEvent>(`${base}/events?limit=10`),
    [base],
  );
  return (
    <section aria-labelledby="identity-events">
      <h2 id="identity-events">Recent changes</h2>
      <ErrorBox error={events.error} />
      {events.data &&
        (events.data.items.length === 0 ? (
          <p>No changes recorded.</p>
        ) : (
          <ol class="events">
            {events.data.items.map((event) => (
              <li key={event.id}>
                <time dateTime={event.occurredAt}>
                  {when(event.occurredAt)}
                </time>{' '}
                <code>{event.type}</code>
                {event.fields?.length ? ` ${event.fields.join(', ')}` : ''}
                {event.relatedIdentityId &&
                  ` (with ${event.relatedIdentityId})`}
              </li>
            ))}
          </ol>
        ))}
    </section>
  );
}
