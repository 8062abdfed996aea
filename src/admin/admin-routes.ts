import { HttpCode, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  type ApiParamOptions,
} from '@nestjs/swagger';
import { Access } from '../common/http/access.decorator';
import {
  ApiAdminRoute,
  ApiConditionalGet,
  ApiIfMatch,
  ApiMergedRedirect,
  ApiPaging,
  NoContent,
} from '../common/http/api-docs';
import { IDENTITY_ID_SCHEMA } from '../identity/identity.dto';
import { Route, stack } from '../common/http/route';
import {
  headers,
  RATE_LIMIT,
  type ResponseHeader,
} from '../common/http/api-headers';
import { WHO } from './admin-rules';

// The routes of the administration API, each declared once with what every
// route of its kind shares: the tenant:admin rule, the problems it answers,
// its paging, its conditional GET or If-Match, the headers of its answer.

/** What a route's documentation says; the sentence on who may call it follows. */
export interface RouteDoc {
  summary: string;
  description?: string;
}

/** A kind of resource of the administration API, as its routes name it. */
export interface AdminResource {
  /** Its collection's path below the controller's ('' for the controller's own). */
  path: string;
  /** The path parameter naming one of them; none for a resource of which there is one. */
  id?: ApiParamOptions & { name: string };
  /** What an If-Match header names: 'the webhook'. */
  called: string;
  /** Its representation, as a GET of one answers it. */
  type: Type;
}

/** The statuses beyond those every admin route has (401, 403, 404, …). */
type Problems = readonly number[];

const operation = ({ summary, description }: RouteDoc) =>
  ApiOperation({
    summary,
    description: description === undefined ? WHO : `${description} ${WHO}`,
  });

/** GET of a collection at `path`, a page at a time, answered conditionally. */
export const adminList = (path: string, doc: RouteDoc, type: Type) =>
  stack(
    Route('GET', path),
    Access('admin'),
    operation(doc),
    ApiAdminRoute(),
    ApiConditionalGet(),
    ApiPaging(),
    ApiOkResponse({
      type: [type],
      headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
    }),
  );

/**
 * GET of an identity of the tenant at `path` (`:id`, or `:id/<what>` for
 * something of it), answered conditionally: the access guard reads the
 * identity, 404 when there is none, 308 to the same path under the
 * identity a merged-away id now belongs to. `paged`: a page at a time.
 */
export const adminIdentityRead = (
  path: string,
  doc: RouteDoc,
  answer: { type: Type | [Type]; paged?: boolean },
) =>
  stack(
    Route('GET', path),
    Access('admin-identity'),
    operation(doc),
    ApiAdminRoute(404),
    ApiParam({
      name: 'id',
      description: 'an identityId of the tenant',
      schema: { ...IDENTITY_ID_SCHEMA, example: 'bob' },
    }),
    ApiConditionalGet(),
    ApiMergedRedirect(),
    ...(answer.paged ? [ApiPaging()] : []),
    ApiOkResponse({
      type: answer.type,
      headers: headers(
        ...RATE_LIMIT,
        'ETag',
        ...(answer.paged ? ['Link' as const] : []),
      ),
    }),
  );

/** Where one resource of a kind is: its path, the parameter naming it, what it is. */
interface One {
  /** `<path>/:<id>`; the collection's path for a resource of which there is one. */
  path: string;
  /** The path parameter's documentation, made for each route; none without one. */
  id: () => MethodDecorator[];
  called: string;
  type: Type;
}

/** POST of a new one: 201 with what was made and where it is. */
const adminCreate =
  ({ path, type }: AdminResource) =>
  (
    doc: RouteDoc,
    body: Type,
    answer: {
      type?: Type;
      problems?: Problems;
      headers?: ResponseHeader[];
    } = {},
  ) =>
    stack(
      Route('POST', path),
      Access('admin'),
      HttpCode(201),
      operation(doc),
      ApiAdminRoute(...(answer.problems ?? []), 413, 415),
      ApiBody({ type: body }),
      ApiCreatedResponse({
        type: answer.type ?? type,
        headers: headers(
          ...RATE_LIMIT,
          ...(answer.headers ?? ['ETag', 'Location']),
        ),
      }),
    );

/** GET of one, answered conditionally. */
const adminRead =
  ({ path, id, type }: One) =>
  (doc: RouteDoc) =>
    stack(
      Route('GET', path),
      Access('admin'),
      operation(doc),
      ApiAdminRoute(404),
      ...id(),
      ApiConditionalGet(),
      ApiOkResponse({ type, headers: headers(...RATE_LIMIT, 'ETag') }),
    );

/** PUT (every setting) or PATCH (the ones sent) of one, under If-Match. */
const adminChange =
  ({ path, id, called, type }: One) =>
  (
    method: 'PUT' | 'PATCH',
    doc: RouteDoc,
    body: Type,
    problems: Problems = [],
  ) =>
    stack(
      Route(method, path),
      Access('admin'),
      operation(doc),
      ApiAdminRoute(404, ...problems, 412, 413, 415),
      ...id(),
      ApiIfMatch(called),
      ApiBody({ type: body }),
      ApiOkResponse({ type, headers: headers(...RATE_LIMIT, 'ETag') }),
    );

/** DELETE of one, under If-Match: 204. */
const adminRemove =
  ({ path, id, called }: One) =>
  (doc: RouteDoc, done: string, problems: Problems = []) =>
    stack(
      Route('DELETE', path),
      Access('admin'),
      operation(doc),
      ApiAdminRoute(404, ...problems, 412),
      ...id(),
      ApiIfMatch(called),
      NoContent(done),
    );

/** Another operation on one, at `<one>/<action>`: the rest of its documentation in `more`. */
const adminAction =
  ({ path, id }: One) =>
  (
    verb: 'GET' | 'POST',
    action: string,
    doc: RouteDoc,
    problems: Problems,
    ...more: MethodDecorator[]
  ) =>
    stack(
      Route(verb, `${path}/${action}`),
      Access('admin'),
      operation(doc),
      ApiAdminRoute(404, ...problems),
      ...id(),
      ...more,
    );

/** The decorators of a resource's routes. */
export function adminRoutes(resource: AdminResource) {
  const { path, called, type } = resource;
  const named = resource.id;
  const one: One = {
    path: !named ? path : [path, `:${named.name}`].filter(Boolean).join('/'),
    id: () => (named ? [ApiParam(named)] : []),
    called,
    type,
  };
  return {
    /** GET of the collection, a page at a time, answered conditionally. */
    list: (doc: RouteDoc) => adminList(path, doc, type),
    create: adminCreate(resource),
    read: adminRead(one),
    change: adminChange(one),
    remove: adminRemove(one),
    action: adminAction(one),
  };
}
