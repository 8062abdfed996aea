import { createHash } from 'node:crypto';
import type { Exchange } from './exchange';

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * Whether If-None-Match names the current tag (RFC 9110 §13.1.2): weak
 * comparison, `*` matching any current representation.
 */
export function noneMatchFails(
  header: string | undefined,
  etag: string,
): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const current = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === current);
}

/** A strong tag for a representation: a digest of its bytes. */
export function contentTag(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 22)}"`;
}

/**
 * Sets the representation's ETag and answers 304 with no body when the
 * request's If-None-Match holds it. The service evaluates the precondition
 * itself (RFC 9110 §13.2), whatever Cache-Control the request carries:
 * fetch() adds `Cache-Control: no-cache` to every request with
 * If-None-Match, and Express's own check would then never answer 304.
 */
export function conditional<T>(
  { req, res }: Exchange,
  etag: string,
  body: T,
): T | undefined {
  res.setHeader('ETag', etag);
  if (!noneMatchFails(req.get('if-none-match'), etag)) return body;
  res.status(304);
  return undefined;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON body already serialized, with a tag of its bytes, answered conditionally. */
export function conditionalJson(
  http: Exchange,
  json: string,
): string | undefined {
  http.res.setHeader('Content-Type', JSON_TYPE);
  return conditional(http, contentTag(json), json);
}

/**
 * Answers 201 with what was made: its JSON, its tag and where it is from
 * now on (`Location`: the collection's path and `id`).
 */
export function createdJson(
  { req, res }: Exchange,
  id: string,
  body: object,
): string {
  const json = JSON.stringify(body);
  const location = `${req.path}/${encodeURIComponent(id)}`;
  res.status(201);
  res.setHeader('Location', location);
  res.setHeader('ETag', contentTag(json));
  res.setHeader('Content-Type', JSON_TYPE);
  return json;
}
