import type { IncomingMessage } from 'node:http';
import { InvalidRequest } from '../common/errors';

/** The parts of a request a bearer token can come from (RFC 6750 §2.1, §2.3). */
export interface TokenSources {
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  query: Record<string, unknown>;
}

const BEARER = /^bearer (\S+)$/i;

/**
 * The bearer token of a request, exactly as authentication reads it: from
 * `Authorization: Bearer <token>` (the scheme in any case) or from the
 * `access_token` query parameter; undefined when there is none. Two tokens
 * are refused (400): two Authorization headers, the header and the
 * parameter (even an empty one), or the parameter twice. The rate limiter
 * keys its budgets on the same token.
 */
export function bearerToken(req: TokenSources): string | undefined {
  const headers = req.rawHeaders.filter(
    (_, i) =>
      i % 2 === 0 && req.rawHeaders[i].toLowerCase() === 'authorization',
  );
  const inQuery = Object.prototype.hasOwnProperty.call(
    req.query,
    'access_token',
  );
  if (headers.length > 1)
    throw new InvalidRequest('Send one Authorization header, not several.');
  if (headers.length && inQuery)
    throw new InvalidRequest(
      'Send the access token either in the Authorization header or in access_token, not both.',
    );
  if (headers.length) {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (!token)
      throw new InvalidRequest(
        'The Authorization header must be of the form "Bearer <token>".',
      );
    return token;
  }
  if (!inQuery) return undefined;
  const token = req.query.access_token;
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
