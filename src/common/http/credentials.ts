import type { IncomingMessage } from 'node:http';
import { InvalidRequest } from '../errors';

/** The parts of a request a bearer token can come from (RFC 6750 §2.1, §2.3). */
export interface TokenSources {
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  query: Record<string, unknown>;
  url?: string;
}

/** The query of a request with no query string: nothing to parse. */
const NO_QUERY: Record<string, unknown> = Object.freeze(
  Object.create(null) as Record<string, unknown>,
);

/**
 * The request's query parameters. Express parses them again on each read
 * of `req.query`; a URL without `?` has none, and is not parsed at all.
 */
export function queryOf(req: Pick<TokenSources, 'query' | 'url'>) {
  return req.url !== undefined && !req.url.includes('?') ? NO_QUERY : req.query;
}

/** How many Authorization headers the request has, whatever their case. */
function authorizationHeaders(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    // Lowered only when it can be the one: no string made for the others.
    if (name.length === 13 && name.toLowerCase() === 'authorization') count++;
  }
  return count;
}

const BEARER = /^bearer (\S+)$/i;
const BEARER_SCHEME = /^bearer(\s|$)/i;

/**
 * The bearer token of a request, exactly as authentication reads it: from
 * `Authorization: Bearer <token>` (the scheme in any case) or from the
 * `access_token` query parameter; undefined when there is none, and when
 * the header is of another scheme (`Basic …`): RFC 6750 §3.1 treats that
 * as a request without authentication (401, no error code). Refused (400):
 * a malformed Bearer value, and two tokens — two Authorization headers, the
 * header and the parameter (even an empty one), or the parameter twice.
 * The rate limiter keys its budgets on the same token.
 */
export function bearerToken(req: TokenSources): string | undefined {
  const headers = authorizationHeaders(req.rawHeaders);
  const query = queryOf(req);
  const inQuery = Object.prototype.hasOwnProperty.call(query, 'access_token');
  if (headers > 1)
    throw new InvalidRequest('Send one Authorization header, not several.');
  if (headers && inQuery)
    throw new InvalidRequest(
      'Send the access token either in the Authorization header or in access_token, not both.',
    );
  if (headers) {
    const header = req.headers.authorization ?? '';
    if (!BEARER_SCHEME.test(header.trim())) return undefined;
    const token = BEARER.exec(header)?.[1];
    if (!token)
      throw new InvalidRequest(
        'The Authorization header must be of the form "Bearer <token>".',
      );
    return token;
  }
  if (!inQuery) return undefined;
  const token = query.access_token;
  if (typeof token !== 'string')
    throw new InvalidRequest(
      'Send one access token, not several access_token parameters.',
    );
  return token === '' ? undefined : token;
}

/** The token when the request names one well-formed; undefined otherwise (no throw). */
export function bearerTokenOrNone(req: TokenSources): string | undefined {
  try {
    return bearerToken(req);
  } catch {
    return undefined;
  }
}

const JWS = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/**
 * What a token means, for keying budgets on it: the token itself, or, for a
 * JWT, the token with its signature in canonical base64url. The last
 * character of a base64url signature can carry unused bits, so several
 * spellings of one signature verify alike; each would otherwise get a
 * budget of its own. (The header and payload cannot vary: they are what
 * the signature signs.)
 */
export function canonicalToken(token: string): string {
  const jws = JWS.exec(token);
  if (!jws) return token;
  const signature = Buffer.from(jws[3], 'base64url').toString('base64url');
  return `${jws[1]}.${jws[2]}.${signature}`;
}
