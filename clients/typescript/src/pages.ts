/**
 * The target of the `rel="next"` link of a `Link` header (RFC 8288), as an
 * absolute URL against `base`; undefined on the last page.
 */
export function nextLink(
  link: string | null,
  base: string,
): string | undefined {
  for (const value of (link ?? '').split(/,(?=\s*<)/)) {
    const [, target, params] = /^\s*<([^>]*)>(.*)$/.exec(value) ?? [];
    if (target === undefined) continue;
    const [, quoted, bare] =
      /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(params) ?? [];
    const relations = (quoted ?? bare ?? '').toLowerCase().split(/\s+/);
    if (relations.includes('next')) return new URL(target, base).toString();
  }
  return undefined;
}
