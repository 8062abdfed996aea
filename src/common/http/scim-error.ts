import type { ScimType } from '../errors';
import type { Problem } from './problem';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** An error as a SCIM client reads it (RFC 7644 §3.12): the status is a string. */
export interface ScimError {
  schemas: [typeof SCIM_ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail: string;
}

/** What a problem's slug means to a SCIM client, where RFC 7644 names it. */
const SCIM_TYPES: Record<string, ScimType> = {
  'malformed-json': 'invalidSyntax',
};

/**
 * The problem the service would answer, in the SCIM error schema. A 400
 * always names its scimType (invalidValue unless the error knows better);
 * other statuses name one only where RFC 7644 defines it (409 uniqueness).
 */
export function toScimError(problem: Problem, scimType?: ScimType): ScimError {
  const type =
    scimType ??
    SCIM_TYPES[problem.type.slice(problem.type.lastIndexOf(':') + 1)] ??
    (problem.status === 400 ? 'invalidValue' : undefined);
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(problem.status),
    ...(type && { scimType: type }),
    detail: problem.detail,
  };
}
