import type { NextFunction, Request, Response } from 'express';
import {
  MethodNotAllowed,
  NotAcceptable,
  UnsupportedMediaType,
} from '../errors';
import { hasTokenInQuery, requestState } from './request-context';
import { RouteTable, SCIM_PATH } from './route-table';

const WITH_BODY = new Set(['PUT', 'POST', 'PATCH']);
/** The identity API speaks JSON only; health, metrics and docs have their own types. */
const API_PATH = /^\/[^/]+\/api\//;
/** SCIM speaks application/scim+json, and plain JSON to clients that ask for it (RFC 7644 §3.1). */
export const SCIM_MEDIA_TYPES = ['application/scim+json', 'application/json'];
const API_MEDIA_TYPES = ['application/json', 'application/problem+json'];

/**
 * Runs before routing, for every request: request id, caching headers,
 * content negotiation (406 for Accept), and 405/OPTIONS answers computed
 * from the application's routes; marks the requests that reach an API route
 * for the rate limiter.
 */
export function httpPolicy(routes: RouteTable) {
  return (req: Request, res: Response, next: NextFunction) => {
    const state = requestState(req);
    res.setHeader('X-Request-Id', state.id);
    res.setHeader(
      'Cache-Control',
      hasTokenInQuery(req) ? 'no-store' : 'private, no-cache',
    );
    const allow = routes.allowedMethods(req.path);
    if (!allow) return next();
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', ['OPTIONS', ...allow].join(', '));
      return res.status(204).end();
    }
    if (!allow.includes(req.method))
      return next(new MethodNotAllowed(req.method, allow));
    const scim = SCIM_PATH.test(req.path);
    if (!scim && !API_PATH.test(req.path)) return next();
    if (
      req.get('accept') &&
      !req.accepts(scim ? SCIM_MEDIA_TYPES : API_MEDIA_TYPES)
    )
      return next(
        scim
          ? new NotAcceptable(SCIM_MEDIA_TYPES.join(' or '))
          : new NotAcceptable(),
      );
    state.limited = true;
    next();
  };
}

/**
 * 415 for a request body to an API route that is not JSON, before it is
 * parsed. A request without a body, or with an empty one (a PUT of a
 * friendship, say), has no media type to refuse: the route decides whether
 * it needs one.
 */
export function requireJsonBody(
  req: Request,
  _res: Response,
  next: NextFunction,
) {
  if (!requestState(req).limited || !WITH_BODY.has(req.method)) return next();
  if (isEmpty(req)) return next();
  if (!SCIM_PATH.test(req.path))
    return next(
      req.is('application/json') ? undefined : new UnsupportedMediaType(),
    );
  if (!req.is(SCIM_MEDIA_TYPES))
    return next(new UnsupportedMediaType(SCIM_MEDIA_TYPES.join(' or ')));
  next();
}

/** A request that carries no content: no Content-Length or 0, and not chunked. */
function isEmpty(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] === undefined &&
    (req.headers['content-length'] ?? '0') === '0'
  );
}
