import type { Request } from 'express';
import { pathParam } from '../common/http/request-context';

/**
 * The absolute URL of the tenant's SCIM base, as the client reached it
 * (behind a trusted proxy, its scheme and host), for meta.location and
 * Location.
 */
export function scimBase(req: Request): string {
  const tenant = encodeURIComponent(pathParam(req, 'tenant'));
  return `${req.protocol}://${req.get('host') ?? 'localhost'}/${tenant}/scim/v2`;
}
