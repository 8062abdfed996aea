import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '../identity/principal';
import { scimBase } from './scim-url';

/**
 * A SCIM request as its handler needs it: the caller's tenant, the tenant's
 * SCIM base URL as the client reached it (for meta.location), and the
 * response, for the ETag and Location of the answer.
 */
export interface ScimCall {
  readonly tenantId: string;
  readonly base: string;
  readonly res: Response;
}

/** The SCIM request of a route of the SCIM service provider. */
export const Scim = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ScimCall => {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    return {
      tenantId: (req.user as Principal).tenantId,
      base: scimBase(req),
      res: http.getResponse<Response>(),
    };
  },
);
