// The tenant administrators' console: a sign-in, then the pages of the
// administration API, each at its own hash address (`#/identities/bob`).
import { render, type ComponentType } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import {
  Api,
  clearSession,
  loadSession,
  saveSession,
  type Session,
} from './api';
import { ApiContext } from './context';
import { SignIn } from './sign-in';
import { href, useRoute, type PageProps } from './router';
import { IdentitiesPage } from './pages/identities';
import { TokensPage } from './pages/tokens';
import { SettingsPage } from './pages/settings';
import { ProvidersPage } from './pages/providers';
import { IssuersPage } from './pages/issuers';
import { AuditPage } from './pages/audit';
import { WebhooksPage } from './pages/webhooks';

/** The pages in the navigation's order: route name, label, component. */
const PAGES: [string, string, ComponentType<PageProps>][] = [
  ['identities', 'Identities', IdentitiesPage],
  ['providers', 'Providers', ProvidersPage],
  ['issuers', 'Token issuers', IssuersPage],
  ['settings', 'Settings', SettingsPage],
  ['tokens', 'Tokens', TokensPage],
  ['audit', 'Audit log', AuditPage],
  ['webhooks', 'Webhooks', WebhooksPage],
];

function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [reason, setReason] = useState<string>();
  const signOut = (why?: string) => {
    clearSession();
    setReason(why);
    setSession(undefined);
  };
  const api = useMemo(
    () =>
      session &&
      new Api(session, (detail) =>
        signOut(`Signed out: the service refused the token (${detail}).`),
      ),
    [session],
  );
  if (!session || !api)
    return (
      <SignIn
        reason={reason}
        onSignIn={(signedIn) => {
          saveSession(signedIn);
          setReason(undefined);
          setSession(signedIn);
        }}
      />
    );
  return (
    <ApiContext.Provider value={api}>
      <Shell tenant={session.tenant} onSignOut={() => signOut()} />
    </ApiContext.Provider>
  );
}

function Shell({
  tenant,
  onSignOut,
}: {
  tenant: string;
  onSignOut: () => void;
}) {
  const [name = 'identities', ...rest] = useRoute();
  const main = useRef<HTMLElement>(null);
  const page = PAGES.find(([route]) => route === name);
  const Page = page?.[2];
  return (
    <>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <p class="brand">
          Identity console <span class="tenant">tenant {tenant}</span>
        </p>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav aria-label="Console">
          <ul>
            {PAGES.map(([route, label]) => (
              <li key={route}>
                <a
                  href={href(route)}
                  aria-current={route === name ? 'page' : undefined}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} ref={main}>
          {Page ? (
            <Page key={name} path={rest} />
          ) : (
            <>
              <h1>Not found</h1>
              <p>
                No page here. <a href={href('identities')}>Identities</a>
              </p>
            </>
          )}
        </main>
      </div>
    </>
  );
}

render(<App />, document.getElementById('app')!);
