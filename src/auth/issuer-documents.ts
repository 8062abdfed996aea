import {
  egressAgent,
  egressFetch,
  REFUSED_ADDRESS,
} from '../common/validation/egress-agent';
import { egressUrlProblem } from '../common/validation/egress-policy';
import { isOnIssuerHost } from '../common/validation/outbound-url';

export { resolver } from '../common/validation/egress-agent';

/** The most an issuer's discovery document or key set may weigh. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/**
 * A fetch from an issuer that failed. Its message names the URL and what
 * went wrong (a status, a timeout, a refused connection), never a fragment
 * of what the remote server sent: logs must not carry what it chose to say.
 */
export class IssuerFetchError extends Error {}

/** The reason a fetch failed, from Node's error or its cause, without remote content. */
function reasonOf(error: unknown): string {
  const e = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return 'timed out';
  const code = e?.cause?.code ?? e?.code;
  if (code === REFUSED_ADDRESS)
    return `refused: ${e?.cause?.message ?? e?.message}`;
  return code ?? 'failed';
}

/** The body, refusing one larger than MAX_DOCUMENT_BYTES without reading it all. */
async function readBounded(
  res: Awaited<ReturnType<typeof egressFetch>>,
  label: string,
): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_DOCUMENT_BYTES)
    throw new IssuerFetchError(
      `${label}: larger than ${MAX_DOCUMENT_BYTES} bytes`,
    );
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_DOCUMENT_BYTES) {
      await res.body?.cancel().catch(() => undefined);
      throw new IssuerFetchError(
        `${label}: larger than ${MAX_DOCUMENT_BYTES} bytes`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET `url` as an issuer's server answers it: redirects are not followed (a
 * redirect could lead anywhere, the validated URL was this one), the body is
 * read up to MAX_DOCUMENT_BYTES, the URL and every address its name
 * resolves to must pass the egress policy for the tenant (`allowPrivate`:
 * the operator lists it), and every failure is an IssuerFetchError
 * whose message starts with `label` (a discovered address is remote content
 * and is not logged). Returns a Response holding the bounded body, for
 * jose's key set to parse.
 */
export async function fetchFromIssuer(
  url: string,
  label: string,
  init: {
    signal?: AbortSignal | null;
    headers?: HeadersInit;
    /** GET unless said; the token endpoint of a linked provider is a POST. */
    method?: string;
    body?: string | URLSearchParams | null;
    /** Whether the tenant may reach loopback and private networks (EgressPolicy). */
    allowPrivate: boolean;
    /** Told the body's bytes once it is read (what a cache of it holds). */
    weigh?: (bytes: number) => void;
  },
): Promise<Response> {
  const problem = egressUrlProblem(url, init.allowPrivate);
  if (problem) throw new IssuerFetchError(`${label}: ${problem}`);
  let res: Awaited<ReturnType<typeof egressFetch>>;
  try {
    res = await egressFetch(url, {
      signal: init.signal ?? undefined,
      headers: [...new Headers(init.headers)],
      method: init.method ?? 'GET',
      body:
        init.body === null || init.body === undefined
          ? undefined
          : String(init.body),
      redirect: 'manual',
      dispatcher: egressAgent(init.allowPrivate),
    });
  } catch (error) {
    throw new IssuerFetchError(`${label}: ${reasonOf(error)}`);
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => undefined);
    throw new IssuerFetchError(
      `${label}: answered a redirect (${res.status}), which is not followed`,
    );
  }
  const body = await readBounded(res, label).catch((error: unknown) => {
    throw error instanceof IssuerFetchError
      ? error
      : new IssuerFetchError(`${label}: ${reasonOf(error)}`);
  });
  init.weigh?.(Buffer.byteLength(body));
  return new Response(body, { status: res.status, headers: [...res.headers] });
}

/**
 * The JWKS address from the issuer's OpenID Connect discovery document. It
 * must be https on the issuer's own host (or loopback): a discovery document
 * must not send the service to fetch from anywhere else.
 */
export async function discoverJwksUri(
  issuer: string,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<string> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const res = await fetchFromIssuer(url, url, {
    signal: AbortSignal.timeout(timeoutMs),
    allowPrivate,
  });
  if (res.status !== 200)
    throw new IssuerFetchError(`${url}: answered ${res.status}`);
  let document: unknown;
  try {
    document = JSON.parse(await res.text());
  } catch {
    throw new IssuerFetchError(`${url}: not JSON`);
  }
  const jwksUri = (document as { jwks_uri?: unknown } | null)?.jwks_uri;
  if (typeof jwksUri !== 'string')
    throw new IssuerFetchError(`${url}: no jwks_uri`);
  if (!isOnIssuerHost(jwksUri, issuer, allowPrivate))
    throw new IssuerFetchError(
      `${url}: jwks_uri is not https on the issuer's host; refused`,
    );
  return jwksUri;
}
