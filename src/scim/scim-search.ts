import { InvalidRequest } from '../common/errors';
import { STORABLE_TEXT } from '../common/validation/field-rules';
import { ScimListQuery } from './scim-users.dto';

export const SEARCH_REQUEST =
  'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

const invalid = (detail: string) =>
  new InvalidRequest(detail, undefined, 'invalidSyntax');

/** The largest startIndex or count taken, as in a query. */
const BOUND = 999_999_999;

/**
 * A SearchRequest body (RFC 7644 §3.4.3) as the query of the GET it stands
 * for: lists of attributes joined by commas, numbers as the query's text.
 * `sortBy` and `sortOrder` are ignored, as they are in a query.
 */
export function searchQuery(body: unknown): ScimListQuery {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('The body must be a SearchRequest object.');
  const request = body as Record<string, unknown>;
  if (
    request.schemas !== undefined &&
    !(
      Array.isArray(request.schemas) && request.schemas.includes(SEARCH_REQUEST)
    )
  )
    throw invalid(`schemas must be ["${SEARCH_REQUEST}"].`);
  return Object.assign(new ScimListQuery(), {
    attributes: paths(request.attributes, 'attributes'),
    excludedAttributes: paths(request.excludedAttributes, 'excludedAttributes'),
    filter: text(request.filter, 'filter'),
    startIndex: integer(request.startIndex, 'startIndex'),
    count: integer(request.count, 'count'),
  });
}

function text(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !STORABLE_TEXT.test(value))
    throw invalid(`${name} must be a string without U+0000.`);
  return value;
}

function paths(value: unknown, name: string): string | undefined {
  if (!Array.isArray(value)) return text(value, name);
  return value.map((path, i) => text(path, `${name}[${i}]`) ?? '').join(',');
}

function integer(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    Math.abs(value) > BOUND
  )
    throw invalid(`${name} must be a whole number.`);
  return String(value);
}
