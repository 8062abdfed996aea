import { ScimError, scimPatch, ScimPatchOperation } from 'scim-patch';
import { InvalidRequest, ScimType } from '../common/errors';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const OPS = new Set(['add', 'replace', 'remove']);

const invalid = (detail: string, scimType: ScimType = 'invalidSyntax') =>
  new InvalidRequest(detail, undefined, scimType);

/**
 * The operations of a PATCH body (RFC 7644 §3.5.2), checked and with their
 * op names in lower case: Entra ID sends "Replace" and "Add".
 */
function operations(body: unknown): ScimPatchOperation[] {
  const patch = body as { schemas?: unknown; Operations?: unknown };
  if (
    typeof body !== 'object' ||
    body === null ||
    !Array.isArray(patch.schemas) ||
    !patch.schemas.includes(PATCH_OP)
  )
    throw invalid(`The body must be a PatchOp (schemas: ["${PATCH_OP}"]).`);
  if (!Array.isArray(patch.Operations) || patch.Operations.length === 0)
    throw invalid('Operations must be a non-empty array.');
  return patch.Operations.flatMap((operation: unknown, i) => {
    const { op, path, value } = (operation ?? {}) as Record<string, unknown>;
    if (typeof op !== 'string' || !OPS.has(op.toLowerCase()))
      throw invalid(`Operations[${i}].op must be add, replace or remove.`);
    if (path !== undefined && typeof path !== 'string')
      throw invalid(`Operations[${i}].path must be a string.`, 'invalidPath');
    if (path === undefined && op.toLowerCase() === 'remove')
      throw invalid(
        `Operations[${i}] removes nothing: it has no path.`,
        'noTarget',
      );
    if (
      path === undefined &&
      (typeof value !== 'object' || value === null || Array.isArray(value))
    )
      throw invalid(
        `Operations[${i}] without a path needs an object value.`,
        'invalidValue',
      );
    const name = op.toLowerCase();
    return path === undefined
      ? splitValue(name, value as Record<string, unknown>)
      : [{ op: name, path, value } as ScimPatchOperation];
  });
}

/**
 * A value without a path, split so that scim-patch applies it as RFC 7644
 * §3.5.2 says. Keys with a value filter, as Entra ID sends them
 * (`{"emails[type eq \"work\"].value": "…"}`), become operations of their
 * own with the key as path; so does each sub-attribute of a complex value
 * (`{"name": {"givenName": "…"}}`), which changes only the sub-attributes it
 * names. The rest (dotted keys such as `name.givenName` included, which
 * scim-patch resolves) stays one operation.
 */
function splitValue(
  op: string,
  value: Record<string, unknown>,
): ScimPatchOperation[] {
  const rest: Record<string, unknown> = {};
  const split: ScimPatchOperation[] = [];
  for (const [key, entry] of Object.entries(value)) {
    if (key.includes('['))
      split.push({ op, path: key, value: entry } as ScimPatchOperation);
    else if (isComplex(entry) && !key.startsWith('urn:'))
      for (const [sub, subValue] of Object.entries(entry))
        split.push({
          op,
          path: `${key}.${sub}`,
          value: subValue,
        } as ScimPatchOperation);
    else rest[key] = entry;
  }
  return [
    ...(Object.keys(rest).length || !split.length
      ? [{ op, value: rest } as ScimPatchOperation]
      : []),
    ...split,
  ];
}

const isComplex = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Applies a PATCH body to a resource with scim-patch and returns the new
 * resource; `readOnly` names the attributes it may not change (400
 * mutability). The library's errors become SCIM errors of their scimType.
 */
export function applyPatch<T extends object>(
  resource: T,
  body: unknown,
  readOnly: (resource: T) => unknown,
): T {
  const ops = operations(body);
  let patched: T;
  try {
    patched = scimPatch(
      JSON.parse(JSON.stringify(resource)) as never,
      ops,
    ) as T;
  } catch (error) {
    if (error instanceof ScimError)
      throw invalid(
        error.message,
        (error.scimCode as ScimType) ?? 'invalidSyntax',
      );
    throw invalid(
      'The patch cannot be applied to this resource.',
      'invalidPath',
    );
  }
  // Compared as JSON: what a client could see change.
  if (JSON.stringify(readOnly(patched)) !== JSON.stringify(readOnly(resource)))
    throw invalid('The patch changes a read-only attribute.', 'mutability');
  return patched;
}
