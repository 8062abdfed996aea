// The console's one way to the administration API: the bearer token, JSON
// both ways, ETag and If-Match, the next page of a list from its Link
// header, and every problem+json answer turned into an ApiError that says
// what the service said.

/** Who is signed in: a tenant and one of its app tokens with tenant:admin. */
export interface Session {
  tenant: string;
  token: string;
}

// The tab's own storage: gone when the tab closes, never sent by the
// browser on its own (as a cookie would be), not seen by tabs opened on
// their own (as localStorage would be; a tab duplicated from this one
// starts with a copy).
const SESSION_KEY = 'identity-console.session';

export function loadSession(): Session | undefined {
  const stored = sessionStorage.getItem(SESSION_KEY);
  if (!stored) return undefined;
  try {
    const session = JSON.parse(stored) as Partial<Session>;
    return typeof session.tenant === 'string' &&
      typeof session.token === 'string'
      ? { tenant: session.tenant, token: session.token }
      : undefined;
  } catch {
    return undefined;
  }
}

export const saveSession = (session: Session) =>
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));

export const clearSession = () => sessionStorage.removeItem(SESSION_KEY);

/** One entry of a problem's `errors`: which field, and what is wrong with it. */
export interface FieldError {
  field: string;
  message: string;
}

/** An answer other than 2xx, as the service described it (RFC 9457). */
export class ApiError extends Error {
  readonly status: number;
  readonly type?: string;
  readonly title: string;
  readonly detail?: string;
  readonly errors: FieldError[];
  /** Seconds, from Retry-After (429, 503). */
  readonly retryAfter?: string;

  constructor(
    status: number,
    problem: Record<string, unknown>,
    retryAfter?: string,
  ) {
    const title =
      typeof problem.title === 'string' ? problem.title : `HTTP ${status}`;
    super(title);
    this.status = status;
    this.title = title;
    this.type = typeof problem.type === 'string' ? problem.type : undefined;
    this.detail =
      typeof problem.detail === 'string' ? problem.detail : undefined;
    this.errors = Array.isArray(problem.errors)
      ? problem.errors.filter(isFieldError)
      : [];
    this.retryAfter = retryAfter ?? undefined;
  }

  /** The field errors of one field. */
  about(field: string): FieldError[] {
    return this.errors.filter((e) => e.field === field);
  }
}

const isFieldError = (value: unknown): value is FieldError =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FieldError).field === 'string' &&
  typeof (value as FieldError).message === 'string';

/** A value with the ETag it was read with (for a later If-Match). */
export interface Tagged<T> {
  data: T;
  etag?: string;
}

/** One page of a list, and where the next one is (a path of this origin). */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** The target of a `Link` header's rel="next", when it is a path of this origin. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rels = /;\s*rel="?([^";]+)"?/i.exec(match[2])?.[1].split(/\s+/);
    if (rels?.includes('next') && /^\/(?!\/)/.test(match[1])) return match[1];
  }
  return undefined;
}

export interface RequestOptions {
  body?: unknown;
  ifMatch?: string;
}

/**
 * The administration API of the signed-in tenant. `onUnauthorized` hears
 * of a 401 (a token revoked or expired while the console was open), with
 * the service's words, so that the console goes back to its sign-in.
 */
export class Api {
  readonly base: string;

  constructor(
    readonly session: Session,
    private readonly onUnauthorized: (reason: string) => void,
  ) {
    this.base = `/${encodeURIComponent(session.tenant)}/api/admin/v1`;
  }

  /** `path` under the base (`/tokens`), or a path from a Link header. */
  url(path: string): string {
    return path.startsWith(this.base + '/') || path.startsWith(this.base + '?')
      ? path
      : this.base + path;
  }

  async request<T>(
    method: string,
    path: string,
    { body, ifMatch }: RequestOptions = {},
  ): Promise<{ data: T; response: Response }> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${this.session.token}`,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (ifMatch !== undefined) headers['If-Match'] = ifMatch;
    const response = await fetch(this.url(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'follow',
    });
    const text = await response.text();
    const data = parseJson(text);
    if (!response.ok) {
      const error = new ApiError(
        response.status,
        typeof data === 'object' && data !== null
          ? (data as Record<string, unknown>)
          : {},
        response.headers.get('Retry-After') ?? undefined,
      );
      if (response.status === 401)
        this.onUnauthorized(error.detail ?? error.title);
      throw error;
    }
    return { data: data as T, response };
  }

  async get<T>(path: string): Promise<Tagged<T>> {
    const { data, response } = await this.request<T>('GET', path);
    return { data, etag: response.headers.get('ETag') ?? undefined };
  }

  async page<T>(path: string): Promise<Page<T>> {
    const { data, response } = await this.request<T[]>('GET', path);
    return {
      items: Array.isArray(data) ? data : [],
      next: nextLink(response.headers.get('Link')),
    };
  }

  async send<T>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: RequestOptions = {},
  ): Promise<Tagged<T>> {
    const { data, response } = await this.request<T>(method, path, options);
    return { data, etag: response.headers.get('ETag') ?? undefined };
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A path segment, percent-encoded. */
export const segment = (value: string) => encodeURIComponent(value);

/** A query string of the values given (empty ones left out), with its `?`. */
export function query(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
