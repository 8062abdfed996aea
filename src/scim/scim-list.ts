export const LIST_RESPONSE_SCHEMA =
  'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** A query's answer as RFC 7644 §3.4.2 shapes it. */
export interface ScimList<T> {
  schemas: [typeof LIST_RESPONSE_SCHEMA];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: T[];
}

export function listResponse<T>(
  resources: T[],
  totalResults = resources.length,
  startIndex = 1,
): ScimList<T> {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
