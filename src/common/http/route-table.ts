import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { compile, match, pathToRegexp } from 'path-to-regexp';

/** The methods the service knows, in the order `Allow` lists them (after OPTIONS). */
export const METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH'];

/** The identity API's routes all start here (a controller's path). */
export const API_PREFIX = ':tenant/api/identity/v1';

/** The tenant administration API's routes all start here. */
export const ADMIN_PREFIX = ':tenant/api/admin/v1';

/** The SCIM 2.0 service provider's routes all start here (RFC 7644). */
export const SCIM_PREFIX = ':tenant/scim/v2';

/** A path under the SCIM base, `/{tenant}/scim/v2`, the base included. */
export const SCIM_PATH = /^\/[^/]+\/scim\/v2(\/|$)/;

export interface Route {
  method: string;
  /** As Express sees it: `/:tenant/api/identity/v1/:id/friends`. */
  template: string;
  /** How many parameters it has; the route with fewest is the most specific. */
  params: number;
  matches(path: string): boolean;
}

const route = (method: string, template: string): Route => {
  const matcher = match(template, { sensitive: true });
  const { regexp } = pathToRegexp(template, { sensitive: true });
  return {
    method,
    template,
    params: template.split(':').length - 1,
    // A path without a percent sign has nothing to decode, so nothing that
    // decoding could refuse: the pattern alone answers, with no match made.
    matches: (path) =>
      path.includes('%') ? matcher(path) !== false : regexp.test(path),
  };
};

/** A route's path with its parameters filled in, each percent-encoded. */
export function pathOf(
  template: string,
  params: Record<string, string | string[]>,
): string {
  return compile(template, { encode: encodeURIComponent })(params);
}

const join = (...parts: string[]) =>
  `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/**
 * Every route of the application, read from the controllers' own metadata
 * (what `@Controller` and `@Get`, `@Put`… declare), plus the documents
 * served beside them. The HTTP policy answers OPTIONS and 405 from it, and
 * a test checks that no fixed segment under `{id}` can be an identity.
 */
/** How many segments a path or a template has, a trailing slash aside. */
const segmentsOf = (path: string) => {
  let slashes = 0;
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1))
    slashes++;
  // `path.replace(/(.)\/$/, '$1').split('/').length`, with no string made.
  const trailing =
    path.length > 1 &&
    path.endsWith('/') &&
    !/[\n\r\u2028\u2029]/.test(path[path.length - 2]);
  return slashes + 1 - (trailing ? 1 : 0);
};

@Injectable()
export class RouteTable {
  readonly routes: Route[];
  /** The routes by their number of segments: a path is matched only against those. */
  private bySegments?: Map<number, Route[]>;

  constructor(discovery: DiscoveryService, scanner: MetadataScanner) {
    this.routes = discovery.getControllers().flatMap((wrapper) => {
      const controller = wrapper.metatype as { prototype: object } | null;
      if (!controller) return [];
      const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
      return scanner
        .getAllMethodNames(controller.prototype)
        .map((name) => (controller.prototype as Record<string, object>)[name])
        .filter((handler) => Reflect.hasMetadata(PATH_METADATA, handler))
        .map((handler) =>
          route(
            RequestMethod[
              Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod
            ],
            join(base, Reflect.getMetadata(PATH_METADATA, handler) as string),
          ),
        );
    });
  }

  /** Adds a route served outside the controllers (the OpenAPI documents). */
  add(method: string, template: string): void {
    this.routes.push(route(method, join(template)));
    this.bySegments = undefined;
  }

  /**
   * The methods allowed on `path`, HEAD wherever GET is, or undefined for a
   * path no route matches. When several routes match, the most specific
   * (fewest parameters) decides, so that `DELETE …/v1/accounts` is a 405,
   * not a deletion of an identity called "accounts".
   */
  allowedMethods(path: string): readonly string[] | undefined {
    this.bySegments ??= Map.groupBy(this.routes, (r) => segmentsOf(r.template));
    // One pass, nothing made per request: the methods of the matching
    // routes with the fewest parameters, as a set of bits.
    let fewest = Infinity;
    let methods = 0;
    for (const r of this.bySegments.get(segmentsOf(path)) ?? []) {
      if (r.params > fewest || !r.matches(path)) continue;
      if (r.params < fewest) [fewest, methods] = [r.params, 0];
      methods |= methodBit(r.method);
    }
    if (fewest === Infinity) return undefined;
    if (methods & methodBit('GET')) methods |= methodBit('HEAD');
    return methodLists[methods];
  }
}

/** A method's bit in a set of methods (0 for one the service does not know). */
const methodBit = (method: string) => {
  const at = METHODS.indexOf(method);
  return at < 0 ? 0 : 1 << at;
};

/** Each set of methods as the list `Allow` names, in METHODS' order. */
const methodLists = Array.from({ length: 1 << METHODS.length }, (_, bits) =>
  Object.freeze(METHODS.filter((_m, at) => bits & (1 << at))),
);
