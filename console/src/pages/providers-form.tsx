// A provider's form, to add one or to replace one's settings. The client
// secret is write-only: the field starts empty, is never filled from the
// service, and is sent only when something is typed into it.
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { FormError, Submit, when } from '../components';
import { Checkbox, listOf, messagesAbout, Select, TextInput } from './form-kit';

/** How a provider links an account for real (OpenID Connect or OAuth 2.0). */
export interface LinkSettings {
  type: 'oidc' | 'oauth2';
  issuer?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userInfoEndpoint?: string;
  clientId: string;
  clientSecret?: string | null;
  /** When the client secret was set; the secret itself is never shown. */
  clientSecretSetAt?: string;
  scopes?: string[];
  claims?: { issuedUserId?: string };
}

/** An account provider as the administration API shows it. */
export interface Provider {
  accountProviderId: string;
  displayName?: string;
  signInUrl: string;
  providerImageUrl?: string;
  allowsMultipleAccounts: boolean;
  link?: LinkSettings;
}

interface Values {
  accountProviderId: string;
  displayName: string;
  signInUrl: string;
  providerImageUrl: string;
  allowsMultipleAccounts: boolean;
  hasLink: boolean;
  type: string;
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint: string;
  clientId: string;
  clientSecret: string;
  removeSecret: boolean;
  scopes: string;
  issuedUserId: string;
}

const valuesOf = (provider?: Provider): Values => ({
  accountProviderId: provider?.accountProviderId ?? '',
  displayName: provider?.displayName ?? '',
  signInUrl: provider?.signInUrl ?? '',
  providerImageUrl: provider?.providerImageUrl ?? '',
  allowsMultipleAccounts: provider?.allowsMultipleAccounts ?? false,
  hasLink: provider?.link !== undefined,
  type: provider?.link?.type ?? 'oidc',
  issuer: provider?.link?.issuer ?? '',
  authorizationEndpoint: provider?.link?.authorizationEndpoint ?? '',
  tokenEndpoint: provider?.link?.tokenEndpoint ?? '',
  userInfoEndpoint: provider?.link?.userInfoEndpoint ?? '',
  clientId: provider?.link?.clientId ?? '',
  clientSecret: '',
  removeSecret: false,
  scopes: (provider?.link?.scopes ?? []).join(' '),
  issuedUserId: provider?.link?.claims?.issuedUserId ?? '',
});

/** The keys given a value, the empty ones left out (the service's defaults). */
const given = (keys: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(keys)
      .map(([key, value]) => [key, value.trim()])
      .filter(([, value]) => value !== ''),
  );

function linkOf(v: Values): LinkSettings {
  const link: LinkSettings = {
    type: v.type as LinkSettings['type'],
    // OpenID Connect finds its endpoints from the issuer; OAuth 2.0 names them.
    ...given(
      v.type === 'oidc'
        ? { issuer: v.issuer }
        : {
            authorizationEndpoint: v.authorizationEndpoint,
            tokenEndpoint: v.tokenEndpoint,
            userInfoEndpoint: v.userInfoEndpoint,
          },
    ),
    clientId: v.clientId.trim(),
  };
  // Typed: sent. Removal asked: null. Otherwise left out (the one set stays).
  if (v.clientSecret !== '') link.clientSecret = v.clientSecret;
  else if (v.removeSecret) link.clientSecret = null;
  const scopes = listOf(v.scopes, /\s+/);
  if (scopes.length > 0) link.scopes = scopes;
  if (v.issuedUserId.trim() !== '')
    link.claims = { issuedUserId: v.issuedUserId.trim() };
  return link;
}

/** The body of a POST (with the id) or of a PUT (the path names it). */
export function bodyOf(v: Values, withId: boolean): Record<string, unknown> {
  return {
    ...(withId && { accountProviderId: v.accountProviderId.trim() }),
    ...given({
      displayName: v.displayName,
      signInUrl: v.signInUrl,
      providerImageUrl: v.providerImageUrl,
    }),
    allowsMultipleAccounts: v.allowsMultipleAccounts,
    ...(v.hasLink && { link: linkOf(v) }),
  };
}

export function ProviderForm({
  provider,
  submitLabel,
  onSubmit,
  onReload,
}: {
  /** The provider to change; a new one without. */
  provider?: Provider;
  submitLabel: string;
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  onReload?: () => void;
}) {
  const adding = provider === undefined;
  const [values, setValues] = useState<Values>(() => valuesOf(provider));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState(false);
  const prefix = adding ? 'new-provider' : 'provider';
  const set =
    <K extends keyof Values>(key: K) =>
    (value: Values[K]) => {
      setDone(false);
      setValues((v) => ({ ...v, [key]: value }));
    };
  const about = (field: string) => messagesAbout(error, field);
  const text = (key: keyof Values, label: string, hint?: string) => (
    <TextInput
      id={`${prefix}-${key}`}
      label={label}
      hint={hint}
      value={String(values[key])}
      errors={about(key)}
      onInput={set(key) as (value: string) => void}
    />
  );
  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone(false);
    try {
      await onSubmit(bodyOf(values, adding));
      setDone(true);
      // The secret typed is gone from the form once sent.
      setValues((v) =>
        adding ? valuesOf() : { ...v, clientSecret: '', removeSecret: false },
      );
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
          id={`${prefix}-accountProviderId`}
          label="Provider id"
          required
          readOnly={!adding}
          hint={
            adding
              ? 'Letters, digits, - and _; it cannot change later.'
              : 'A provider keeps its id.'
          }
          value={values.accountProviderId}
          errors={about('accountProviderId')}
          onInput={set('accountProviderId')}
        />
        {text('displayName', 'Display name')}
        <TextInput
          id={`${prefix}-signInUrl`}
          label="Sign-in URL"
          type="url"
          required
          hint="Where an identity signs in to link an account here."
          value={values.signInUrl}
          errors={about('signInUrl')}
          onInput={set('signInUrl')}
        />
        <TextInput
          id={`${prefix}-providerImageUrl`}
          label="Image URL"
          type="url"
          hint="Shown to clients as a URL; the console does not load it."
          value={values.providerImageUrl}
          errors={about('providerImageUrl')}
          onInput={set('providerImageUrl')}
        />
        <Checkbox
          id={`${prefix}-allowsMultipleAccounts`}
          label="An identity may have several accounts here"
          checked={values.allowsMultipleAccounts}
          errors={about('allowsMultipleAccounts')}
          onChange={set('allowsMultipleAccounts')}
        />
        <Checkbox
          id={`${prefix}-hasLink`}
          label="Link accounts through OpenID Connect or OAuth 2.0"
          hint="Without it, the sign-in URL is given to clients as it is."
          checked={values.hasLink}
          errors={about('link')}
          onChange={set('hasLink')}
        />
        {values.hasLink && (
          <LinkFields
            prefix={prefix}
            values={values}
            hasSecret={
              provider?.link?.clientSecretSetAt &&
              when(provider.link.clientSecretSetAt)
            }
            set={set}
            about={about}
          />
        )}
        <Submit
          label={submitLabel}
          done={done && (adding ? 'Added.' : 'Saved.')}
        />
      </fieldset>
      <FormError error={error} setError={setError} onReload={onReload} />
    </form>
  );
}

function LinkFields({
  prefix,
  values,
  hasSecret,
  set,
  about,
}: {
  prefix: string;
  values: Values;
  hasSecret: string | undefined;
  set: <K extends keyof Values>(key: K) => (value: Values[K]) => void;
  about: (field: string) => string[];
}) {
  const field = (key: keyof Values, label: string, hint?: string) => (
    <TextInput
      id={`${prefix}-link-${key}`}
      label={label}
      hint={hint}
      value={String(values[key])}
      errors={about(`link.${key}`)}
      onInput={set(key) as (value: string) => void}
    />
  );
  const oidc = values.type === 'oidc';
  return (
    <fieldset>
      <legend>Linking</legend>
      <Select
        id={`${prefix}-link-type`}
        label="Protocol"
        value={values.type}
        options={[
          ['oidc', 'OpenID Connect'],
          ['oauth2', 'OAuth 2.0'],
        ]}
        errors={about('link.type')}
        onChange={set('type')}
      />
      {oidc ? (
        field(
          'issuer',
          'Issuer',
          'The provider’s URL; its endpoints are found by discovery.',
        )
      ) : (
        <>
          {field('authorizationEndpoint', 'Authorization endpoint')}
          {field('tokenEndpoint', 'Token endpoint')}
          {field('userInfoEndpoint', 'User info endpoint')}
        </>
      )}
      {field('clientId', 'Client id')}
      <TextInput
        id={`${prefix}-link-clientSecret`}
        label="Client secret"
        type="password"
        autoComplete="new-password"
        hint={
          hasSecret
            ? `A secret is set (since ${hasSecret}); it is never shown. Type one to replace it; leave empty to keep it.`
            : 'Write-only: kept encrypted, never shown again. Leave empty for none (a public client).'
        }
        value={values.clientSecret}
        errors={about('link.clientSecret')}
        onInput={set('clientSecret')}
      />
      {hasSecret && (
        <Checkbox
          id={`${prefix}-link-removeSecret`}
          label="Remove the client secret (a public client, PKCE only)"
          checked={values.removeSecret}
          onChange={set('removeSecret')}
        />
      )}
      {field(
        'scopes',
        'Scopes',
        'Separated by spaces. Empty: openid profile email for OpenID Connect, none for OAuth 2.0.',
      )}
      <TextInput
        id={`${prefix}-link-issuedUserId`}
        label="Claim of the user id"
        value={values.issuedUserId}
        errors={about('link.claims.issuedUserId')}
        onInput={set('issuedUserId')}
      />
    </fieldset>
  );
}
