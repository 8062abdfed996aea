import { randomUUID } from 'node:crypto';
import { TENANT_ID } from '../validation/field-rules';
import type { Request } from 'express';
import { queryOf } from './credentials';

/** A client's X-Request-Id is echoed when it has this shape. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the service attaches to a request as it passes the layers. */
export interface RequestState {
  id: string;
  /** The request reaches an API route and is charged to a rate-limit budget. */
  limited?: boolean;
  /** The budget key of the request's token, as the rate limiter computed it. */
  tokenKey?: string;
}

/**
 * Where a request keeps its state: a property of its own, under a symbol no
 * other code knows. Not a WeakMap keyed by the request: V8's young
 * generation collector keeps such an entry's value alive until a full
 * collection, and V8 may then judge the state's literal long-lived and
 * allocate every state in the old generation (docs/benchmark.md, "What
 * survives a request").
 */
const STATE = Symbol('request state');

type Stated = Request & { [STATE]?: RequestState };

export function requestState(req: Request): RequestState {
  let state = (req as Stated)[STATE];
  if (!state) {
    const sent = req.get('x-request-id');
    state = { id: sent && REQUEST_ID.test(sent) ? sent : randomUUID() };
    (req as Stated)[STATE] = state;
  }
  return state;
}

/** Whether the request carries its token in the URL (RFC 6750 §2.3). */
export function hasTokenInQuery(req: Request): boolean {
  return Object.prototype.hasOwnProperty.call(
    queryOf(req) ?? {},
    'access_token',
  );
}

/**
 * The realm a 401 names in WWW-Authenticate: the route's tenant when it has
 * the shape of one, `identity` otherwise.
 */
export function realmOf(req: Request): string {
  const tenant = pathParam(req, 'tenant');
  return TENANT_ID.test(tenant) ? tenant : 'identity';
}

/** A named path parameter as one string. */
export function pathParam(req: Pick<Request, 'params'>, name: string): string {
  const value = req.params?.[name];
  return Array.isArray(value) ? value.join('/') : (value ?? '');
}
