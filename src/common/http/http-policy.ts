import type { Application, NextFunction, Request, Response } from 'express';
import {
  MethodNotAllowed,
  NotAcceptable,
  UnsupportedMediaType,
} from '../errors';
import { hasTokenInQuery, requestState } from './request-context';

const WITH_BODY = new Set(['PUT', 'POST', 'PATCH']);
/** The identity API speaks JSON only; health, metrics and docs have their own types. */
const API_PATH = /^\/[^/]+\/api\//;

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Runs before routing, for every request: request id, caching headers,
 * content negotiation (406 for Accept, 415 for a body that is not JSON),
 * and 405/OPTIONS answers computed from the routes the
 * application actually registered. When several route patterns match a
 * path, the most specific one (fewest parameters) decides, so that
 * `DELETE /{tenant}/api/identity/v1/accounts` is a 405, not a deletion of
 * an identity called "accounts".
 */
export function httpPolicy(app: Application) {
  const layers = () => (app.router as unknown as { stack: RouteLayer[] }).stack;

  function allowedMethods(path: string): string[] | undefined {
    let best: { params: number; methods: Set<string> } | undefined;
    for (const layer of layers()) {
      // Wildcard routes are middleware mounted by Nest, not resources.
      if (!layer.route || layer.route.path.includes('*') || !layer.match(path))
        continue;
      const params = layer.route.path.split(':').length - 1;
      if (!best || params < best.params) best = { params, methods: new Set() };
      if (params === best.params)
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on) best.methods.add(method.toUpperCase());
    }
    if (!best) return undefined;
    if (best.methods.has('GET')) best.methods.add('HEAD');
    return ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH'].filter((m) =>
      best.methods.has(m),
    );
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const state = requestState(req);
    res.setHeader('X-Request-Id', state.id);
    res.setHeader(
      'Cache-Control',
      hasTokenInQuery(req) ? 'no-store' : 'private, no-cache',
    );
    const allow = allowedMethods(req.path);
    if (!allow) return next();
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', ['OPTIONS', ...allow].join(', '));
      return res.status(204).end();
    }
    if (!allow.includes(req.method))
      return next(new MethodNotAllowed(req.method, allow));
    if (
      API_PATH.test(req.path) &&
      req.get('accept') &&
      !req.accepts(['application/json', 'application/problem+json'])
    )
      return next(new NotAcceptable());
    if (WITH_BODY.has(req.method) && !req.is('application/json'))
      return next(new UnsupportedMediaType());
    next();
  };
}
