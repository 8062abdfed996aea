import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Api, type Session } from './api';
import { ErrorBox } from './components';

/**
 * The tenant and one of its app tokens with tenant:admin, checked by
 * reading the tenant's settings before the console opens.
 */
export function SignIn({
  reason,
  onSignIn,
}: {
  /** Why the console came back here (a token refused), when it did. */
  reason?: string;
  onSignIn: (session: Session) => void;
}) {
  const [tenant, setTenant] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const session = { tenant: tenant.trim(), token: token.trim() };
    setBusy(true);
    setError(undefined);
    try {
      await new Api(session, () => undefined).get('/tenant');
      onSignIn(session);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>Identity console</h1>
      <p>
        Sign in with an app token of the tenant that has the{' '}
        <code>tenant:admin</code> scope. The token stays in this tab only, and
        is forgotten when it closes or you sign out.
      </p>
      {reason && (
        <p class="notice" role="alert">
          {reason}
        </p>
      )}
      <form onSubmit={submit}>
        <fieldset disabled={busy}>
          <div class="field">
            <label for="sign-in-tenant">Tenant</label>
            <input
              id="sign-in-tenant"
              name="tenant"
              ref={first}
              required
              autocomplete="off"
              spellcheck={false}
              value={tenant}
              onInput={(e) => setTenant(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="sign-in-token">Admin token</label>
            <input
              id="sign-in-token"
              name="token"
              type="password"
              required
              autocomplete="off"
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
            />
          </div>
          <button type="submit" class="primary">
            Sign in
          </button>
        </fieldset>
      </form>
      <ErrorBox error={error} />
    </main>
  );
}
