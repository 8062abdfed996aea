// The authorization servers whose signed JWTs the tenant accepts: the list,
// a form to trust one, and each issuer's page to change or delete it.
import { useState } from 'preact/hooks';
import { segment } from '../api';
import {
  ConfirmButton,
  display,
  ErrorBox,
  Facts,
  PagedTable,
  PageTitle,
  useLoad,
  type Column,
} from '../components';
import { useApi } from '../context';
import { href, navigate, type PageProps } from '../router';
import { IssuerForm, type Issuer } from './issuers-form';

const path = (id: string) => `/token-issuers/${segment(id)}`;

const COLUMNS: Column<Issuer>[] = [
  {
    header: 'Issuer',
    cell: (i) => <a href={href('issuers', i.id)}>{i.issuer}</a>,
  },
  { header: 'Audiences', cell: (i) => display(i.audiences) },
  { header: 'Algorithms', cell: (i) => display(i.algorithms) },
  {
    header: 'Identity',
    cell: (i) => `${i.identityClaim ?? 'sub'} as ${i.identityMatch ?? '—'}`,
  },
  {
    header: 'Provisioning',
    cell: (i) => (i.provisioning === 'jit' ? 'just in time' : 'none'),
  },
  { header: 'Account provider', cell: (i) => i.accountProvider ?? '—' },
];

export function IssuersPage({ path: rest }: PageProps) {
  return rest[0] !== undefined ? <IssuerPage id={rest[0]} /> : <IssuerList />;
}

function IssuerList() {
  const api = useApi();
  const [version, setVersion] = useState(0);
  return (
    <>
      <PageTitle>Token issuers</PageTitle>
      <p>
        The authorization servers whose signed tokens the tenant accepts. A
        change applies at the next token here, within seconds elsewhere.
      </p>
      <section aria-labelledby="issuers-list">
        <h2 id="issuers-list">Trusted issuers</h2>
        <PagedTable
          first="/token-issuers?limit=20"
          version={version}
          caption="Token issuers in their order"
          empty="No issuer is trusted: only the service’s own tokens work."
          rowKey={(i) => i.id}
          columns={COLUMNS}
          load={(next) => api.page<Issuer>(next)}
        />
      </section>
      <section aria-labelledby="issuers-add" class="card">
        <h2 id="issuers-add">Trust an issuer</h2>
        <IssuerForm
          submitLabel="Add issuer"
          onSubmit={async (body) => {
            await api.send('POST', '/token-issuers', { body });
            setVersion((n) => n + 1);
          }}
        />
      </section>
    </>
  );
}

function IssuerPage({ id }: { id: string }) {
  const api = useApi();
  const loaded = useLoad(() => api.get<Issuer>(path(id)), [id]);
  const issuer = loaded.data;
  return (
    <>
      <PageTitle>Token issuer</PageTitle>
      <p>
        <a href={href('issuers')}>All token issuers</a>
      </p>
      <ErrorBox error={loaded.error} />
      {loaded.loading && <p class="muted">Loading…</p>}
      {issuer && (
        <>
          <Facts
            facts={[
              ['Issuer', issuer.data.issuer],
              ['Id', issuer.data.id],
              ['Audiences', issuer.data.audiences],
            ]}
          />
          <section aria-labelledby="issuer-edit" class="card">
            <h2 id="issuer-edit">Change its keys</h2>
            <p class="hint">Keys left empty take their defaults.</p>
            <IssuerForm
              issuer={issuer.data}
              submitLabel="Save issuer"
              onReload={loaded.reload}
              onSubmit={async (body) => {
                loaded.update(
                  await api.send<Issuer>('PUT', path(id), {
                    body,
                    ifMatch: issuer.etag,
                  }),
                );
              }}
            />
          </section>
          <section aria-labelledby="issuer-delete" class="card">
            <h2 id="issuer-delete">Stop trusting it</h2>
            <p>
              Its tokens are refused (401) from then on. The identities it
              created stay.
            </p>
            <ConfirmButton
              label="Delete"
              question={`Stop trusting ${issuer.data.issuer}?`}
              onReload={loaded.reload}
              onConfirm={async () => {
                await api.send('DELETE', path(id), { ifMatch: issuer.etag });
                navigate('issuers');
              }}
            />
          </section>
        </>
      )}
    </>
  );
}
