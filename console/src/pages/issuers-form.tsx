// A token issuer's form, to trust one or to replace one's keys. Keys left
// empty are left out, so that the service fills in their defaults.
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { FormError, Submit } from '../components';
import {
  Checkbox,
  Choices,
  listOf,
  messagesAbout,
  Select,
  TextInput,
} from './form-kit';

export const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
const MATCHES: [string, string][] = [
  ['identityId', 'identityId: the identity’s id'],
  ['externalId', 'externalId'],
  ['userName', 'userName'],
  ['account', 'account: an account at the provider below'],
  ['verifiedEmail', 'verifiedEmail: a verified e-mail address'],
];

/** A trusted issuer as the administration API shows it (defaults filled in). */
export interface Issuer {
  id: string;
  issuer: string;
  jwksUri?: string;
  audiences: string[];
  algorithms?: string[];
  identityClaim?: string;
  identityMatch?: string;
  accountClaim?: string;
  appIdClaims?: string[];
  scopeClaim?: string;
  provisioning?: 'jit';
  accountProvider?: string;
}

interface Values {
  issuer: string;
  jwksUri: string;
  audiences: string;
  algorithms: string[];
  identityClaim: string;
  identityMatch: string;
  accountClaim: string;
  appIdClaims: string;
  scopeClaim: string;
  jit: boolean;
  accountProvider: string;
}

const valuesOf = (issuer?: Issuer): Values => ({
  issuer: issuer?.issuer ?? '',
  jwksUri: issuer?.jwksUri ?? '',
  audiences: (issuer?.audiences ?? []).join('\n'),
  algorithms: issuer?.algorithms ?? [...ALGORITHMS],
  identityClaim: issuer?.identityClaim ?? 'sub',
  identityMatch: issuer?.identityMatch ?? 'identityId',
  accountClaim: issuer?.accountClaim ?? '',
  appIdClaims: (issuer?.appIdClaims ?? ['client_id', 'azp']).join('\n'),
  scopeClaim: issuer?.scopeClaim ?? 'scope',
  jit: issuer?.provisioning === 'jit',
  accountProvider: issuer?.accountProvider ?? '',
});

function bodyOf(v: Values): Record<string, unknown> {
  const text = (key: keyof Values) => {
    const value = String(v[key]).trim();
    return value === '' ? {} : { [key]: value };
  };
  return {
    issuer: v.issuer.trim(),
    ...text('jwksUri'),
    audiences: listOf(v.audiences),
    algorithms: v.algorithms,
    ...text('identityClaim'),
    identityMatch: v.identityMatch,
    ...text('accountClaim'),
    appIdClaims: listOf(v.appIdClaims),
    ...text('scopeClaim'),
    ...(v.jit && { provisioning: 'jit' }),
    ...text('accountProvider'),
  };
}

export function IssuerForm({
  issuer,
  submitLabel,
  onSubmit,
  onReload,
}: {
  issuer?: Issuer;
  submitLabel: string;
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  onReload?: () => void;
}) {
  const adding = issuer === undefined;
  const prefix = adding ? 'new-issuer' : 'issuer';
  const [values, setValues] = useState<Values>(() => valuesOf(issuer));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState(false);
  const set =
    <K extends keyof Values>(key: K) =>
    (value: Values[K]) => {
      setDone(false);
      setValues((v) => ({ ...v, [key]: value }));
    };
  const field = (
    key: keyof Values,
    label: string,
    hint?: string,
    more: { lines?: boolean; required?: boolean } = {},
  ) => (
    <TextInput
      id={`${prefix}-${key}`}
      label={label}
      hint={hint}
      value={String(values[key])}
      errors={messagesAbout(error, key)}
      onInput={set(key) as (value: string) => void}
      {...more}
    />
  );
  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone(false);
    try {
      await onSubmit(bodyOf(values));
      setDone(true);
      if (adding) setValues(valuesOf());
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
          id={`${prefix}-issuer`}
          label="Issuer URL"
          type="url"
          required
          readOnly={!adding}
          hint={
            adding
              ? 'The iss of its tokens: https.'
              : 'Another URL is another issuer: add it, then delete this one.'
          }
          value={values.issuer}
          errors={messagesAbout(error, 'issuer')}
          onInput={set('issuer')}
        />
        {field(
          'jwksUri',
          'Key set URL',
          'Empty: found by OpenID Connect discovery.',
        )}
        {field('audiences', 'Audiences', 'One a line: accepted aud values.', {
          lines: true,
          required: true,
        })}
        <Choices
          id={`${prefix}-algorithms`}
          label="Algorithms"
          choices={ALGORITHMS}
          chosen={values.algorithms}
          errors={messagesAbout(error, 'algorithms')}
          onChange={set('algorithms')}
        />
        {field('identityClaim', 'Identity claim')}
        <Select
          id={`${prefix}-identityMatch`}
          label="The identity claim carries"
          value={values.identityMatch}
          options={MATCHES}
          errors={messagesAbout(error, 'identityMatch')}
          onChange={set('identityMatch')}
        />
        {field('accountClaim', 'Account claim')}
        {field('appIdClaims', 'App id claims', 'One a line.', { lines: true })}
        {field('scopeClaim', 'Scope claim')}
        <Checkbox
          id={`${prefix}-jit`}
          label="Create the identities its tokens name (just in time)"
          checked={values.jit}
          errors={messagesAbout(error, 'provisioning')}
          onChange={set('jit')}
        />
        {field(
          'accountProvider',
          'Account provider',
          'The provider of the accounts it matches or creates.',
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
