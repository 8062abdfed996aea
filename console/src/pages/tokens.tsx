import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../api';
import {
  ConfirmButton,
  display,
  FieldForm,
  PagedTable,
  PageTitle,
  type Column,
  type FormValues,
  when,
} from '../components';
import { useApi } from '../context';
import { href, type PageProps } from '../router';

/** A token as the administration API lists it (never its secret). */
export interface Token {
  tokenId: string;
  type: 'access' | 'app';
  identityId?: string;
  appId?: string;
  accountId?: string;
  scopes?: string[];
  expiresAt?: string | null;
  createdAt: string;
  revokedAt?: string | null;
  lastUsedAt?: string | null;
}

/** The scopes a token may carry (the service's list, in its order). */
export const SCOPES = [
  'identities:read',
  'identities:delete',
  'scim:provision',
  'accounts:write',
  'friends:write',
  'tenant:admin',
];

/** Revokes a token with the ETag its own GET answers. */
export async function revokeToken(api: Api, tokenId: string): Promise<void> {
  const path = `/tokens/${encodeURIComponent(tokenId)}`;
  const { etag } = await api.get<Token>(path);
  await api.send('DELETE', path, { ifMatch: etag });
}

const isLive = (token: Token) =>
  !token.revokedAt &&
  (!token.expiresAt || Date.parse(token.expiresAt) > Date.now());

/** The columns of a token list, its Revoke button last. */
export function tokenColumns(api: Api, onRevoked: () => void): Column<Token>[] {
  return [
    {
      header: 'Token',
      cell: (t) => <code title={t.tokenId}>{t.tokenId.slice(0, 8)}…</code>,
    },
    {
      header: 'For',
      cell: (t) =>
        t.identityId ? (
          <a href={href('identities', t.identityId)}>{t.identityId}</a>
        ) : (
          `app ${t.appId ?? ''}`
        ),
    },
    { header: 'Scopes', cell: (t) => display(t.scopes) },
    { header: 'Created', cell: (t) => when(t.createdAt) },
    { header: 'Expires', cell: (t) => when(t.expiresAt) },
    { header: 'Last used', cell: (t) => when(t.lastUsedAt) },
    {
      header: 'State',
      cell: (t) =>
        t.revokedAt ? `revoked ${t.revokedAt}` : isLive(t) ? 'live' : 'expired',
    },
    {
      header: 'Actions',
      cell: (t) =>
        isLive(t) && (
          <ConfirmButton
            label="Revoke"
            question={`Revoke token ${t.tokenId}?`}
            onConfirm={async () => {
              await revokeToken(api, t.tokenId);
              onRevoked();
            }}
            onReload={onRevoked}
          />
        ),
    },
  ];
}

/** The tenant's tokens, a page at a time; making and revoking them. */
export function TokensPage(_props: PageProps) {
  const api = useApi();
  const [version, setVersion] = useState(0);
  const [created, setCreated] = useState<Token & { secret: string }>();
  const changed = () => setVersion((n) => n + 1);
  const create = async (body: Record<string, unknown>) => {
    const { data } = await api.send<Token & { secret: string }>(
      'POST',
      '/tokens',
      { body },
    );
    setCreated(data);
    changed();
  };
  return (
    <>
      <PageTitle>Tokens</PageTitle>
      {created && <NewSecret token={created} />}
      <section aria-labelledby="tokens-list">
        <h2 id="tokens-list">All tokens</h2>
        <PagedTable
          first="/tokens?limit=20"
          version={version}
          caption="Tokens by creation"
          empty="No tokens."
          rowKey={(t) => t.tokenId}
          columns={tokenColumns(api, changed)}
          load={(path) => api.page<Token>(path)}
        />
      </section>
      <section aria-labelledby="tokens-app" class="card">
        <h2 id="tokens-app">New app token</h2>
        <FieldForm
          fields={[
            { name: 'appId', label: 'App id', required: true },
            {
              name: 'scopes',
              label: 'Scopes',
              kind: 'choices',
              choices: SCOPES,
            },
            {
              name: 'ttlSeconds',
              label: 'Lifetime in seconds',
              kind: 'number',
              hint: 'Empty: it does not expire. At most 366 days.',
            },
          ]}
          initial={APP_TOKEN}
          submitLabel="Create app token"
          doneMessage="Created."
          onSubmit={(values) =>
            create({
              appId: String(values.appId).trim(),
              scopes: values.scopes,
              ...lifetime(values),
            })
          }
        />
      </section>
      <section aria-labelledby="tokens-identity" class="card">
        <h2 id="tokens-identity">New access token</h2>
        <FieldForm
          fields={[
            { name: 'identityId', label: 'Identity id', required: true },
            {
              name: 'accountId',
              label: 'Account id',
              hint: 'Optional: one of the identity’s accounts.',
            },
            {
              name: 'ttlSeconds',
              label: 'Lifetime in seconds',
              kind: 'number',
              hint: 'Empty: it does not expire.',
            },
          ]}
          initial={ACCESS_TOKEN}
          submitLabel="Create access token"
          doneMessage="Created."
          onSubmit={(values) =>
            create({
              identityId: String(values.identityId).trim(),
              ...(String(values.accountId).trim()
                ? { accountId: String(values.accountId).trim() }
                : {}),
              ...lifetime(values),
            })
          }
        />
      </section>
    </>
  );
}

const APP_TOKEN: FormValues = { appId: '', scopes: [], ttlSeconds: '' };
const ACCESS_TOKEN: FormValues = {
  identityId: '',
  accountId: '',
  ttlSeconds: '',
};

/** `ttlSeconds` as a number when given (the API says what is wrong with it). */
function lifetime(values: FormValues) {
  const text = String(values.ttlSeconds ?? '').trim();
  return text === '' ? {} : { ttlSeconds: Number(text) };
}

/** A new token's secret: shown here once, never again. */
function NewSecret({ token }: { token: Token & { secret: string } }) {
  const field = useRef<HTMLInputElement>(null);
  // Selected at once, ready to copy.
  useEffect(() => field.current?.focus(), [token]);
  return (
    <section class="secret" role="status" aria-labelledby="secret-title">
      <h2 id="secret-title">Token {token.tokenId} made</h2>
      <p class="warning">
        Copy the secret now: it is shown this once, and the service keeps only
        its hash. Anyone holding it can call the API as this token.
      </p>
      <label for="new-secret">Secret</label>
      <input
        id="new-secret"
        class="secret-value"
        readOnly
        ref={field}
        value={token.secret}
        onFocus={(e) => e.currentTarget.select()}
      />
      <p class="hint">It is selected: copy it with Ctrl+C (⌘C on a Mac).</p>
    </section>
  );
}
