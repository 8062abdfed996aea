import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { compile, match } from 'path-to-regexp';

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
  return {
    method,
    template,
    params: template.split(':').length - 1,
    matches: (path) => matcher(path) !== false,
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
const segmentsOf = (path: string) =>
  path.replace(/(.)\/$/, '$1').split('/').length;

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
  allowedMethods(path: string): string[] | undefined {
    this.bySegments ??= Map.groupBy(this.routes, (r) => segmentsOf(r.template));
    const candidates = (this.bySegments.get(segmentsOf(path)) ?? []).filter(
      (r) => r.matches(path),
    );
    if (candidates.length === 0) return undefined;
    const fewest = Math.min(...candidates.map((r) => r.params));
    const methods = new Set(
      candidates.filter((r) => r.params === fewest).map((r) => r.method),
    );
    if (methods.has('GET')) methods.add('HEAD');
    return METHODS.filter((m) => methods.has(m));
  }
}
