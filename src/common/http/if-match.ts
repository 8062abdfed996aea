/**
 * Whether an If-Match header lets a write go ahead on an identity whose
 * current version has the tag `version` (RFC 9110 §13.1.1, strong
 * comparison). A tag of a reduced representation (`"<version tag>-…"`)
 * names the same version. An absent header lets every write through.
 */
export function ifMatchAllows(
  header: string | undefined,
  version: string,
): boolean {
  if (header === undefined) return true;
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === `"${version}"` || tag.startsWith(`"${version}-`));
}
