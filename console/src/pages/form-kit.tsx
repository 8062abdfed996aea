// The inputs of the providers', issuers' and webhooks' forms: each with its
// label, its hint and what the service said is wrong with it, tied to the
// input by aria-describedby. Values stay text until the form sends them.
import type { ComponentChildren } from 'preact';
import { ApiError } from '../api';

/** The service's messages about one field (a nested one by its path: `link.clientId`). */
export const messagesAbout = (error: unknown, field: string): string[] =>
  error instanceof ApiError ? error.about(field).map((e) => e.message) : [];

interface InputProps {
  id: string;
  label: string;
  hint?: ComponentChildren;
  errors?: string[];
}

/** The ids a field's hint and errors have, for aria-describedby. */
function notes({ id, hint, errors = [] }: InputProps) {
  const described = [hint && `${id}-hint`, errors.length > 0 && `${id}-errors`]
    .filter(Boolean)
    .join(' ');
  return {
    described: described || undefined,
    invalid: errors.length > 0 ? true : undefined,
    view: (
      <>
        {hint && (
          <span class="hint" id={`${id}-hint`}>
            {hint}
          </span>
        )}
        {errors.length > 0 && (
          <span class="field-error" id={`${id}-errors`}>
            {errors.join('; ')}
          </span>
        )}
      </>
    ),
  };
}

export function TextInput(
  props: InputProps & {
    value: string;
    onInput: (value: string) => void;
    type?: 'text' | 'url' | 'password' | 'number' | 'datetime-local';
    required?: boolean;
    readOnly?: boolean;
    lines?: boolean;
    autoComplete?: string;
  },
) {
  const { id, label, value, onInput, type = 'text' } = props;
  const { described, invalid, view } = notes(props);
  const common = {
    id,
    name: id,
    value,
    required: props.required,
    readOnly: props.readOnly,
    'aria-invalid': invalid,
    'aria-describedby': described,
  };
  return (
    <div class="field">
      <label for={id}>
        {label}
        {props.required && ' (required)'}
      </label>
      {props.lines ? (
        <textarea
          {...common}
          rows={3}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          // Preact types each input type apart; these share every attribute used.
          type={type as 'text'}
          autoComplete={props.autoComplete ?? 'off'}
          spellcheck={false}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
      {view}
    </div>
  );
}

export function Checkbox(
  props: InputProps & {
    checked: boolean;
    onChange: (checked: boolean) => void;
  },
) {
  const { described, invalid, view } = notes(props);
  return (
    <div class="field">
      <label class="choice" for={props.id}>
        <input
          id={props.id}
          type="checkbox"
          checked={props.checked}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />{' '}
        {props.label}
      </label>
      {view}
    </div>
  );
}

export function Select(
  props: InputProps & {
    value: string;
    options: [value: string, label: string][];
    onChange: (value: string) => void;
  },
) {
  const { described, invalid, view } = notes(props);
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.id}
        aria-invalid={invalid}
        aria-describedby={described}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value} selected={value === props.value}>
            {label}
          </option>
        ))}
      </select>
      {view}
    </div>
  );
}

/** Checkboxes for some of `choices`, in a fieldset with its legend. */
export function Choices(
  props: InputProps & {
    choices: readonly string[];
    chosen: string[];
    onChange: (chosen: string[]) => void;
  },
) {
  const { described, view } = notes(props);
  return (
    <fieldset class="field choices" aria-describedby={described}>
      <legend>{props.label}</legend>
      {props.choices.map((choice) => (
        <label key={choice} class="choice">
          <input
            type="checkbox"
            name={props.id}
            value={choice}
            checked={props.chosen.includes(choice)}
            onChange={(e) =>
              props.onChange(
                e.currentTarget.checked
                  ? [...props.chosen, choice]
                  : props.chosen.filter((c) => c !== choice),
              )
            }
          />{' '}
          {choice}
        </label>
      ))}
      {view}
    </fieldset>
  );
}

/** Text split into its lines (or words, with `/\s+/`): trimmed, empty ones left out. */
export const listOf = (text: string, separator: RegExp = /\n/): string[] =>
  text
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** A URL of the service's answer as a link when it is http(s), as text otherwise. */
export function UrlText({ url }: { url: string | undefined }) {
  if (!url) return <>—</>;
  return /^https?:\/\//i.test(url) ? (
    <a href={url} rel="noopener noreferrer nofollow" target="_blank">
      {url}
    </a>
  ) : (
    <>{url}</>
  );
}
