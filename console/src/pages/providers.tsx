// The tenant's account providers: the list a page at a time, a form to add
// one, and each provider's own page to change or delete it (with the ETag
// it was read with).
import { useState } from 'preact/hooks';
import { segment, type Api } from '../api';
import {
  ConfirmButton,
  ErrorBox,
  PagedTable,
  PageTitle,
  useLoad,
  type Column,
} from '../components';
import { useApi } from '../context';
import { href, navigate, type PageProps } from '../router';
import { Checkbox, UrlText } from './form-kit';
import { ProviderForm, type Provider } from './providers-form';

const path = (id: string) => `/account-providers/${segment(id)}`;

const COLUMNS: Column<Provider>[] = [
  {
    header: 'Provider',
    cell: (p) => (
      <a href={href('providers', p.accountProviderId)}>{p.accountProviderId}</a>
    ),
  },
  { header: 'Display name', cell: (p) => p.displayName ?? '—' },
  { header: 'Sign-in URL', cell: (p) => <UrlText url={p.signInUrl} /> },
  {
    header: 'Several accounts',
    cell: (p) => (p.allowsMultipleAccounts ? 'yes' : 'no'),
  },
  { header: 'Linking', cell: (p) => linking(p) },
];

function linking(p: Provider): string {
  if (!p.link) return 'none (sign-in URL as it is)';
  const protocol = p.link.type === 'oidc' ? 'OpenID Connect' : 'OAuth 2.0';
  return `${protocol}, client ${p.link.clientId}${p.link.clientSecretSetAt ? ', secret set' : ''}`;
}

export function ProvidersPage({ path: rest }: PageProps) {
  return rest[0] !== undefined ? (
    <ProviderPage id={rest[0]} />
  ) : (
    <ProviderList />
  );
}

function ProviderList() {
  const api = useApi();
  const [version, setVersion] = useState(0);
  return (
    <>
      <PageTitle>Account providers</PageTitle>
      <p>Where identities have accounts. Accounts are grouped in this order.</p>
      <section aria-labelledby="providers-list">
        <h2 id="providers-list">Providers</h2>
        <PagedTable
          first="/account-providers?limit=20"
          version={version}
          caption="Account providers in their order"
          empty="No providers yet."
          rowKey={(p) => p.accountProviderId}
          columns={COLUMNS}
          load={(next) => api.page<Provider>(next)}
        />
      </section>
      <section aria-labelledby="providers-add" class="card">
        <h2 id="providers-add">Add a provider</h2>
        <ProviderForm
          submitLabel="Add provider"
          onSubmit={async (body) => {
            await api.send('POST', '/account-providers', { body });
            setVersion((n) => n + 1);
          }}
        />
      </section>
    </>
  );
}

function ProviderPage({ id }: { id: string }) {
  const api = useApi();
  const loaded = useLoad(() => api.get<Provider>(path(id)), [id]);
  const provider = loaded.data;
  return (
    <>
      <PageTitle>Provider {id}</PageTitle>
      <p>
        <a href={href('providers')}>All providers</a>
      </p>
      <ErrorBox error={loaded.error} />
      {loaded.loading && <p class="muted">Loading…</p>}
      {provider && (
        <>
          <dl class="facts">
            {(
              [
                ['Provider id', provider.data.accountProviderId],
                ['Display name', provider.data.displayName ?? '—'],
                ['Sign-in URL', <UrlText url={provider.data.signInUrl} />],
                ['Image URL', <UrlText url={provider.data.providerImageUrl} />],
                [
                  'Several accounts',
                  provider.data.allowsMultipleAccounts ? 'yes' : 'no',
                ],
                ['Linking', linking(provider.data)],
              ] as const
            ).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <section aria-labelledby="provider-edit" class="card">
            <h2 id="provider-edit">Change its settings</h2>
            <p class="hint">
              Keys left empty take their defaults. Changing the protocol,
              issuer, token endpoint or client id needs the client secret again.
            </p>
            <ProviderForm
              provider={provider.data}
              submitLabel="Save provider"
              onReload={loaded.reload}
              onSubmit={async (body) => {
                const saved = await api.send<Provider>('PUT', path(id), {
                  body,
                  ifMatch: provider.etag,
                });
                loaded.update(saved);
              }}
            />
          </section>
          <DeleteProvider
            api={api}
            id={id}
            etag={provider.etag}
            onReload={loaded.reload}
          />
        </>
      )}
    </>
  );
}

function DeleteProvider({
  api,
  id,
  etag,
  onReload,
}: {
  api: Api;
  id: string;
  etag: string | undefined;
  onReload: () => void;
}) {
  const [deleteAccounts, setDeleteAccounts] = useState(false);
  return (
    <section aria-labelledby="provider-delete" class="card">
      <h2 id="provider-delete">Delete this provider</h2>
      <p>
        The service refuses while a token issuer names the provider, or while
        identities have accounts at it.
      </p>
      <Checkbox
        id="provider-deleteAccounts"
        label="Also delete its accounts (deleteAccounts)"
        hint="Removes every account at this provider, and the tokens issued for them, in the same change; each identity that loses one gets an updated event. It cannot be undone."
        checked={deleteAccounts}
        onChange={setDeleteAccounts}
      />
      <ConfirmButton
        label="Delete"
        question={
          deleteAccounts
            ? `Delete provider ${id} and all its accounts?`
            : `Delete provider ${id}?`
        }
        onReload={onReload}
        onConfirm={async () => {
          await api.send(
            'DELETE',
            `${path(id)}${deleteAccounts ? '?deleteAccounts=true' : ''}`,
            { ifMatch: etag },
          );
          navigate('providers');
        }}
      />
    </section>
  );
}
