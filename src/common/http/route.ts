import { applyDecorators, RequestMapping, RequestMethod } from '@nestjs/common';

/** The HTTP methods the API's routes answer. */
export type Verb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A route, for route kits that declare the method with the rest of a
 * route's description: `Route('PUT', ':id')` is `@Put(':id')`.
 */
export const Route = (method: Verb, path = '') =>
  RequestMapping({ method: RequestMethod[method], path });

/**
 * The decorators as a stack of them written top-down applies them: the last
 * first (applyDecorators applies the first first). OpenAPI lists a route's
 * parameters in the order their decorators are applied.
 */
export const stack = (
  ...decorators: Array<ClassDecorator | MethodDecorator | PropertyDecorator>
) => applyDecorators(...decorators.reverse());
