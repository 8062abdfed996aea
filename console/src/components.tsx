// The pieces every page is made of. API values are only ever children of
// elements (text) or attribute values: nothing is parsed as HTML.
import type { ComponentChildren, TargetedSubmitEvent } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, type Page } from './api';

/** An error as the service described it: status, title, detail, field errors. */
export function ErrorBox({
  error,
  onReload,
}: {
  error: unknown;
  /** Offered after a 412: read the value again before changing it. */
  onReload?: () => void;
}) {
  if (!error) return null;
  if (!(error instanceof ApiError))
    return (
      <div class="error" role="alert">
        <p class="error-title">The service could not be reached.</p>
        <p>{error instanceof Error ? error.message : 'No answer came.'}</p>
      </div>
    );
  return (
    <div class="error" role="alert">
      <p class="error-title">
        {error.status} {error.title}
      </p>
      {error.detail && <p>{error.detail}</p>}
      {error.errors.length > 0 && (
        <ul>
          {error.errors.map((e) => (
            <li key={`${e.field}:${e.message}`}>
              <code>{e.field}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
      {error.status === 403 && (
        <p>The token needs the tenant:admin scope of this tenant.</p>
      )}
      {error.status === 429 && error.retryAfter && (
        <p>Try again in {error.retryAfter} seconds.</p>
      )}
      {error.status === 412 && (
        <p>
          This changed since you loaded it.{' '}
          {onReload && (
            <button type="button" onClick={onReload}>
              Reload
            </button>
          )}
        </p>
      )}
    </div>
  );
}

/** A value read from the API, with its error and a way to read it again. */
export interface Loaded<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
  reload: () => void;
  /** Replaces the value without reading it again (with what a write answered). */
  update: (data: T) => void;
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<Omit<Loaded<T>, 'reload' | 'update'>>({
    loading: true,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState({ loading: true });
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const update = useCallback(
    (data: T) => setState({ data, loading: false }),
    [],
  );
  return { ...state, reload, update };
}

/** A page's heading, focused when the page opens (for keyboards and screen readers). */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={heading}>
      {children}
    </h1>
  );
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
}

/**
 * A list of the API a page at a time: `first` is the list's path (its
 * query included), "Next page" follows the answer's Link.
 */
export interface PagedTableProps<T> {
  first: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  caption: string;
  empty?: string;
  /** Changing it reads the first page again (after a change). */
  version?: number;
  load: (path: string) => Promise<Page<T>>;
}

export function PagedTable<T>(props: PagedTableProps<T>) {
  return <PagedList key={`${props.version ?? 0} ${props.first}`} {...props} />;
}

function PagedList<T>({
  first,
  columns,
  rowKey,
  caption,
  empty = 'None.',
  load,
}: PagedTableProps<T>) {
  const [path, setPath] = useState(first);
  const [pageNumber, setPageNumber] = useState(1);
  const page = useLoad(() => load(path), [path]);
  return (
    <div class="paged">
      <ErrorBox error={page.error} />
      {page.loading && <p class="muted">Loading…</p>}
      {page.data && page.data.items.length === 0 && <p>{empty}</p>}
      {page.data && page.data.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption>
              {caption}
              {pageNumber > 1 && `, page ${pageNumber}`}
            </caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th scope="col" key={c.header}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <td key={c.header}>{c.cell(row)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="pager">
        {pageNumber > 1 && (
          <button
            type="button"
            onClick={() => {
              setPath(first);
              setPageNumber(1);
            }}
          >
            First page
          </button>
        )}
        {page.data?.next && (
          <button
            type="button"
            onClick={() => {
              setPath(page.data!.next!);
              setPageNumber((n) => n + 1);
            }}
          >
            Next page
          </button>
        )}
      </div>
    </div>
  );
}

/** A button that asks once more before it acts, and shows what went wrong. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  onReload,
}: {
  label: string;
  question: string;
  onConfirm: () => Promise<void>;
  onReload?: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      setAsking(false);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="confirm">
      {!asking ? (
        <button type="button" class="danger" onClick={() => setAsking(true)}>
          {label}
        </button>
      ) : (
        <span role="group" aria-label={question}>
          <span>{question} </span>
          <button
            type="button"
            class="danger"
            ref={yes}
            disabled={busy}
            onClick={confirm}
          >
            Yes, {label.toLowerCase()}
          </button>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </span>
      )}
      <FormError
        error={error}
        setError={(next) => {
          setError(next);
          setAsking(false);
        }}
        onReload={onReload}
      />
    </span>
  );
}

/** One field of a FieldForm. */
export interface FormField {
  name: string;
  label: string;
  kind?: 'text' | 'lines' | 'number' | 'choices';
  /** For `choices`: the values offered, as checkboxes. */
  choices?: string[];
  hint?: string;
  required?: boolean;
}

/** The values of a FieldForm: text, lines (one value a line), or choices. */
export type FormValues = Record<string, string | string[]>;

/**
 * A form of labelled fields, each with its hint and the API's errors about
 * it; `onSubmit` throws an ApiError to show them.
 */
export function FieldForm({
  fields,
  initial,
  submitLabel,
  onSubmit,
  onReload,
  legend,
  doneMessage = 'Saved.',
}: {
  fields: FormField[];
  initial: FormValues;
  submitLabel: string;
  /** Said once `onSubmit` succeeded. */
  doneMessage?: string;
  onSubmit: (values: FormValues) => Promise<void>;
  onReload?: () => void;
  legend?: string;
}) {
  const [values, setValues] = useState<FormValues>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const form = useId();
  useEffect(() => setValues(initial), [initial]);
  const set = (name: string, value: string | string[]) => {
    setSaved(false);
    setValues((v) => ({ ...v, [name]: value }));
  };
  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await onSubmit(values);
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const about = (name: string) =>
    error instanceof ApiError ? error.about(name) : [];
  return (
    <form class="field-form" onSubmit={submit} noValidate>
      <fieldset disabled={busy}>
        {legend && <legend>{legend}</legend>}
        {fields.map((field) => (
          <Field
            key={field.name}
            id={`${form}-${field.name}`}
            field={field}
            value={values[field.name]}
            errors={about(field.name).map((e) => e.message)}
            onChange={(value) => set(field.name, value)}
          />
        ))}
        <Submit label={submitLabel} done={saved && doneMessage} />
      </fieldset>
      <FormError error={error} setError={setError} onReload={onReload} />
    </form>
  );
}

function Field({
  id,
  field,
  value,
  errors,
  onChange,
}: {
  id: string;
  field: FormField;
  value: string | string[] | undefined;
  errors: string[];
  onChange: (value: string | string[]) => void;
}) {
  const described = [
    field.hint && `${id}-hint`,
    errors.length > 0 && `${id}-errors`,
  ]
    .filter(Boolean)
    .join(' ');
  const notes = (
    <>
      {field.hint && (
        <span class="hint" id={`${id}-hint`}>
          {field.hint}
        </span>
      )}
      {errors.length > 0 && (
        <span class="field-error" id={`${id}-errors`}>
          {errors.join('; ')}
        </span>
      )}
    </>
  );
  if (field.kind === 'choices') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset class="field choices" aria-describedby={described || undefined}>
        <legend>{field.label}</legend>
        {(field.choices ?? []).map((choice) => (
          <label key={choice} class="choice">
            <input
              type="checkbox"
              name={field.name}
              value={choice}
              checked={chosen.includes(choice)}
              onChange={(e) =>
                onChange(
                  e.currentTarget.checked
                    ? [...chosen, choice]
                    : chosen.filter((c) => c !== choice),
                )
              }
            />{' '}
            {choice}
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }
  const text = Array.isArray(value) ? value.join('\n') : (value ?? '');
  const common = {
    id,
    name: field.name,
    required: field.required,
    'aria-invalid': errors.length > 0 ? true : undefined,
    'aria-describedby': described || undefined,
  };
  return (
    <div class="field">
      <label for={id}>{field.label}</label>
      {field.kind === 'lines' ? (
        <textarea
          {...common}
          rows={4}
          value={text}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      ) : field.kind === 'number' ? (
        <input
          {...common}
          type="number"
          value={text}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          type="text"
          value={text}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      )}
      {notes}
    </div>
  );
}

/** The lines of a `lines` field as a list: trimmed, empty ones left out. */
export const linesOf = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : (value ?? '').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** Name–value pairs as a definition list; values as text, lists one per line. */
export function Facts({ facts }: { facts: [string, unknown][] }) {
  return (
    <dl class="facts">
      {facts
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{display(value)}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Any API value as text. */
export function display(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (Array.isArray(value)) return value.map(display).join(', ') || '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean | bigint);
}

/** A time of the API (`2026-11-27T16:06:25.121Z`) as `2026-11-27 16:06:25 UTC`. */
export function when(value: string | null | undefined): string {
  if (!value) return '—';
  return /^\d{4}-\d\d-\d\dT[\d:]{8}(\.\d+)?Z$/.test(value)
    ? `${value.slice(0, 10)} ${value.slice(11, 19)} UTC`
    : value;
}

/** A form's submit button, and what it says once the form is done (a status). */
export function Submit({
  label,
  done,
}: {
  label: string;
  done: string | false | undefined;
}) {
  return (
    <>
      <button type="submit" class="primary">
        {label}
      </button>
      {done && (
        <span class="saved" role="status">
          {' '}
          {done}
        </span>
      )}
    </>
  );
}

/** The error of a form's last try; a 412's Reload clears it first. */
export function FormError({
  error,
  setError,
  onReload,
}: {
  error: unknown;
  setError: (error: unknown) => void;
  onReload?: () => void;
}) {
  return (
    <ErrorBox
      error={error}
      onReload={
        onReload &&
        (() => {
          setError(undefined);
          onReload();
        })
      }
    />
  );
}
