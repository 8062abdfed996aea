import { ifMatchAllows } from '../common/http/if-match';

/**
 * If-Match on a SCIM resource (RFC 7644 §3.14): `*`, or the resource's tag
 * as `meta.version` gives it, weak or strong. SCIM clients send back the
 * version they read, and RFC 7644's own examples send weak tags, so Users
 * and Groups both compare without the `W/` (an absent header lets every
 * write through).
 */
export function scimIfMatchAllows(
  header: string | undefined,
  versionTag: string,
): boolean {
  return ifMatchAllows(strongTags(header), versionTag);
}

/** An If-Match header with each tag's `W/` left out, for a strong comparison. */
export function strongTags(header: string | undefined): string | undefined {
  return header
    ?.split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .join(', ');
}
