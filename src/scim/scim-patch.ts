import { ScimError, scimPatch, ScimPatchOperation } from 'scim-patch';
import { InvalidRequest, ScimType } from '../common/errors';
import { UNSAFE_KEYS } from '../common/validation/field-errors';
import { isIgnored, parsePath, PathModel, ScimPath } from './scim-path';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const OPS = new Set(['add', 'replace', 'remove']);

/** The most operations one PATCH may carry; a directory sends a handful. */
export const MAX_OPERATIONS = 500;
/** The most values an array, or keys an object, of an operation may hold. */
export const MAX_VALUES = 100;
/** The most values all of a PATCH's operations may hold together. */
export const MAX_TOTAL_VALUES = 500;

const invalid = (detail: string, scimType: ScimType = 'invalidSyntax') =>
  new InvalidRequest(detail, undefined, scimType);

/**
 * The operations of a PATCH body (RFC 7644 §3.5.2), checked and with their
 * op names in lower case: Entra ID sends "Replace" and "Add".
 */
function operations(body: unknown, model: PathModel): ScimPatchOperation[] {
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
  if (patch.Operations.length > MAX_OPERATIONS)
    throw invalid(`Operations may hold at most ${MAX_OPERATIONS} operations.`);
  const budget = { values: MAX_TOTAL_VALUES };
  const checked = patch.Operations.flatMap((operation: unknown, i) => {
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
    checkSize(value, `Operations[${i}].value`, budget);
    const name = op.toLowerCase();
    return path === undefined
      ? splitValue(name, value as Record<string, unknown>)
      : [{ op: name, path, value } as ScimPatchOperation];
  });
  return checked.flatMap((operation) => checkPaths(operation, model));
}

/**
 * Every path an operation names, as a path or as a key of its value, parsed
 * against the model before the patch library navigates by it: a name the
 * model does not have (a prototype's included) never reaches it. A path to
 * a read-only attribute, or to meta, is 400 mutability.
 */
function checkPaths(
  operation: ScimPatchOperation,
  model: PathModel,
): ScimPatchOperation[] {
  const { op } = operation;
  // A path named by the operation is held to mutability at once; one that
  // is a key of its value only when it is meta (an unchanged id may come
  // back in a value, and the read-only comparison catches a changed one).
  const writable = (parsed: ScimPath, path: string, named: boolean) => {
    const readOnly =
      parsed.attribute?.mutability === 'readOnly' ||
      parsed.subAttribute?.mutability === 'readOnly';
    if (readOnly && (named || isMeta(parsed)))
      throw invalid(`${path} is read-only.`, 'mutability');
  };
  // The whole extension: an operation on each attribute it names, so that
  // each is applied as if named by its own path (RFC 7644 §3.5.2).
  const wholeExtension = (parsed: ScimPath, value: unknown) => {
    const schema = parsed.schema;
    if (op === 'remove')
      return schema.attributes
        .filter((a) => a.mutability !== 'readOnly')
        .map(
          (a) => ({ op, path: `${schema.id}:${a.name}` }) as ScimPatchOperation,
        );
    if (!isComplex(value))
      throw invalid(
        `${schema.id} takes an object of its attributes.`,
        'invalidValue',
      );
    // Some clients repeat `schemas` inside the extension's object: not an attribute.
    return Object.entries(value)
      .filter(([name]) => name !== 'schemas')
      .map(([name, entry]) => {
        const path = parsePath(`${schema.id}:${name}`, model);
        writable(path, `${schema.id}:${name}`, false);
        return { op, path: path.canonical, value: entry } as ScimPatchOperation;
      });
  };
  if (operation.path !== undefined) {
    if (isIgnored(operation.path, model)) return [];
    const parsed = parsePath(operation.path, model);
    if (!parsed.attribute) return wholeExtension(parsed, operation.value);
    writable(parsed, operation.path, true);
    return [{ ...operation, path: parsed.canonical } as ScimPatchOperation];
  }
  const value: Record<string, unknown> = {};
  const extensions: ScimPatchOperation[] = [];
  for (const [key, entry] of Object.entries(
    operation.value as Record<string, unknown>,
  )) {
    if (isIgnored(key, model)) continue;
    const parsed = parsePath(key, model);
    if (!parsed.attribute) {
      extensions.push(...wholeExtension(parsed, entry));
      continue;
    }
    writable(parsed, key, false);
    value[parsed.canonical] = entry;
  }
  return [
    ...(Object.keys(value).length || !extensions.length
      ? [{ ...operation, value } as ScimPatchOperation]
      : []),
    ...extensions,
  ];
}

const isMeta = (parsed: ScimPath) => parsed.attribute?.name === 'meta';

/**
 * Bounds what an operation's value may hold, counted in one pass: no array
 * longer than MAX_VALUES, no object with more keys, and no more than
 * MAX_TOTAL_VALUES in all the operations together, so that no body costs
 * the patch library (whose adds compare each value with every other) more
 * than a bounded amount of work; and no key that could reach a prototype
 * when the library merges a value into the resource.
 */
function checkSize(value: unknown, name: string, budget: { values: number }) {
  const stack = [value];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node))
      for (const key of Object.keys(node))
        if (UNSAFE_KEYS.has(key))
          throw invalid(`${name} has a key named "${key}".`, 'invalidValue');
    const children = Array.isArray(node) ? node : Object.values(node);
    if (children.length > MAX_VALUES)
      throw invalid(
        `${name} holds more than ${MAX_VALUES} values in one array or object.`,
        'invalidValue',
      );
    budget.values -= children.length;
    if (budget.values < 0)
      throw invalid(
        `The operations hold more than ${MAX_TOTAL_VALUES} values together.`,
        'invalidValue',
      );
    stack.push(...children);
  }
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
 * The library's own words when they are a short sentence of its own; it
 * also wraps whatever it caught (`RangeError: …`) or prints the operation,
 * which no client should read.
 */
function libraryDetail(message: string): string {
  return message.length <= 200 && !/Error\b|\[object /.test(message)
    ? message
    : 'The patch cannot be applied to this resource.';
}

/**
 * Applies a PATCH body to a resource with scim-patch and returns the new
 * resource; `model` names the attributes its paths may name, `readOnly`
 * what it may not change (400 mutability). The library's errors become SCIM errors of their scimType.
 */
export function applyPatch<T extends object>(
  resource: T,
  body: unknown,
  model: PathModel,
  readOnly: (resource: T) => unknown,
): T {
  const ops = operations(body, model);
  let patched: T;
  try {
    patched = scimPatch(
      JSON.parse(JSON.stringify(resource)) as never,
      ops,
    ) as T;
  } catch (error) {
    if (error instanceof ScimError)
      throw invalid(
        libraryDetail(error.message),
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
