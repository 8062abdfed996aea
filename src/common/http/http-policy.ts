import type { NextFunction, Request, Response } from 'express';
import {
  MethodNotAllowed,
  NotAcceptable,
  UnsupportedMediaType,
} from '../errors';
import { hasTokenInQuery, requestState } from './request-context';
import { RouteTable } from './route-table';

const WITH_BODY = new Set(['PUT', 'POST', 'PATCH']);
/** The identity API speaks JSON only; health, metrics and docs have their own types. */
const API_PATH = /^\/[^/]+\/api\//;

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
    if (!API_PATH.test(req.path)) return next();
    if (
      req.get('accept') &&
      !req.accepts(['application/json', 'application/problem+json'])
    )
      return next(new NotAcceptable());
    state.limited = true;
    next();
  };
}

/** 415 for a request body to an API route that is not JSON, before it is parsed. */
export function requireJsonBody(
  req: Request,
  _res: Response,
  next: NextFunction,
) {
  if (
    requestState(req).limited &&
    WITH_BODY.has(req.method) &&
    !req.is('application/json')
  )
    return next(new UnsupportedMediaType());
  next();
}
