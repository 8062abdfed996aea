import createClient, {
  type Client,
  type MaybeOptionalInit,
  type Middleware,
} from 'openapi-fetch';
import type {
  HttpMethod,
  MediaType,
  PathsWithMethod,
  Readable,
  RequiredKeysOf,
  ResponseObjectMap,
  SuccessResponse,
} from 'openapi-typescript-helpers';
import { EtagCache } from './conditional';
import { nextLink } from './pages';
import { errorOf } from './problem';
import { retrying, type RetryOptions } from './retry';
import type { paths } from './schema';
import type { Fetch } from './transport';

export interface ClientOptions {
  /** Where the service is, e.g. `https://identity.example.com`. */
  baseUrl: string;
  /** The bearer token, or a function that gives the current one. */
  token: string | (() => string | Promise<string>);
  /** The bound of retries after 429 and 503; `false`: never retry. */
  retry?: RetryOptions | false;
  /** Where ETags and revalidated answers are kept; `false`: nowhere. */
  cache?: EtagCache | false;
  /** The transport; `globalThis.fetch` unless given. */
  fetch?: Fetch;
}

// openapi-fetch's own shape of a call's arguments (not exported by it).
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

/** A call's success: its typed body (errors are thrown) and the answer. */
type Success<Operation> =
  ResponseObjectMap<Operation> extends infer Responses extends Record<
    string | number,
    any
  >
    ? {
        data: Readable<SuccessResponse<Responses, MediaType>>;
        response: Response;
      }
    : never;

type Method<M extends HttpMethod> = <
  Path extends PathsWithMethod<paths, M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<Success<paths[Path][M]>>;

/** The elements of a list a GET answers. */
type Element<Path extends PathsWithMethod<paths, 'get'>> = Success<
  paths[Path]['get']
>['data'] extends readonly (infer E)[]
  ? E
  : never;

/**
 * The service's API, typed by its OpenAPI document: every path of the
 * identity, write, admin and SCIM APIs, as openapi-fetch calls them
 * (`api.GET('/{tenant}/api/identity/v1', { params: { path: { tenant } } })`).
 * A call resolves with `{ data, response }` or throws a ProblemError.
 */
export interface IdentityClient {
  GET: Method<'get'>;
  PUT: Method<'put'>;
  POST: Method<'post'>;
  PATCH: Method<'patch'>;
  DELETE: Method<'delete'>;
  /**
   * Every element of a list, page after page: the first page as `GET`
   * would ask for it, each next one at its `Link: <…>; rel="next"`.
   */
  pages<
    Path extends PathsWithMethod<paths, 'get'>,
    Init extends MaybeOptionalInit<paths[Path], 'get'>,
  >(
    url: Path,
    ...init: InitParam<Init>
  ): AsyncIterableIterator<Element<Path>>;
  /** The ETags seen and the answers kept (see EtagCache). */
  readonly cache: EtagCache | undefined;
  /** The openapi-fetch client underneath, with the same behaviour. */
  readonly raw: Client<paths>;
}

/**
 * A client of the service: typed calls that send the token, revalidate
 * GETs with `If-None-Match`, send `If-Match` with the last ETag of the path
 * a write changes, retry 429 and 503 after `Retry-After` within a bound, and
 * throw problems as ProblemError.
 */
export function createIdentityClient(options: ClientOptions): IdentityClient {
  const cache =
    options.cache === false ? undefined : (options.cache ?? new EtagCache());
  const transport =
    options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retried =
    options.retry === false ? transport : retrying(transport, options.retry);
  const send = cache ? cache.wrap(retried) : retried;
  const token =
    typeof options.token === 'function'
      ? options.token
      : () => options.token as string;

  const careful: Middleware = {
    async onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${await token()}`);
      return request;
    },
    async onResponse({ response }) {
      if (!response.ok) throw await errorOf(response);
    },
  };
  const raw = createClient<paths>({ baseUrl: options.baseUrl, fetch: send });
  raw.use(careful);

  const get = raw.GET as unknown as (
    url: string,
    init?: object,
  ) => Promise<{ data: unknown[]; response: Response }>;
  async function* pages(url: string, init?: object) {
    let { data, response } = await get(url, init);
    // An answer revalidated from the cache has no URL of its own.
    let at = response.url || options.baseUrl;
    for (;;) {
      yield* data;
      const next = nextLink(response.headers.get('Link'), at);
      if (!next) return;
      const headers = { Authorization: `Bearer ${await token()}` };
      response = await send(new Request(next, { headers }));
      if (!response.ok) throw await errorOf(response);
      data = (await response.json()) as unknown[];
      at = next;
    }
  }

  return {
    GET: raw.GET,
    PUT: raw.PUT,
    POST: raw.POST,
    PATCH: raw.PATCH,
    DELETE: raw.DELETE,
    pages,
    cache,
    raw,
  } as unknown as IdentityClient;
}
