import { InvalidRequest } from '../common/errors';

type Resource = Record<string, unknown>;

/** Always returned, whatever `attributes` and `excludedAttributes` say. */
const ALWAYS = new Set(['schemas', 'id']);

type Path = [string[], string | undefined];

/**
 * An attribute path as [keys in the resource, sub-attribute or undefined]:
 * `userName`, `name.givenName`, `urn:…:core:2.0:User:userName`, an
 * extension's `urn:…:identity:2.0:User:givenNames`, or the extension
 * itself. Names compare case-insensitively.
 */
function resolve(path: string, schemas: string[]): Path {
  const lower = path.toLowerCase();
  const whole = schemas.find((s) => s.toLowerCase() === lower);
  if (whole) return [[whole], undefined];
  const schema = schemas.find((s) => lower.startsWith(`${s.toLowerCase()}:`));
  const rest = schema ? path.slice(schema.length + 1) : path;
  const [name, sub] = rest.split('.', 2);
  return [schema && schema !== schemas[0] ? [schema, name] : [name], sub];
}

const keyOf = (object: Resource, name: string) =>
  Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase());

/** Whether a value has sub-attributes (an object, not a string or a list). */
const isComplex = (value: unknown): value is Resource =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `object` has anything left worth returning. */
const isEmpty = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !Object.keys(value).length;

/**
 * The resource reduced as `attributes` or `excludedAttributes` ask (RFC
 * 7644 §3.4.2.5), each a comma-separated list of attribute paths.
 */
export function project(
  resource: Resource,
  attributes: string | undefined,
  excluded: string | undefined,
): Resource {
  if (attributes !== undefined && excluded !== undefined)
    throw new InvalidRequest(
      'Send attributes or excludedAttributes, not both.',
    );
  const list = (attributes ?? excluded)
    ?.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!list?.length) return resource;
  const paths = list.map((p) => resolve(p, resource.schemas as string[]));
  return attributes !== undefined
    ? keep(resource, paths)
    : drop(resource, paths);
}

function keep(resource: Resource, paths: Path[]): Resource {
  const result: Resource = {};
  for (const key of Object.keys(resource))
    if (ALWAYS.has(key)) result[key] = resource[key];
  for (const [keys, sub] of paths) {
    let source: Resource = resource;
    let target = result;
    for (const [i, name] of keys.entries()) {
      const key = keyOf(source, name);
      if (!key) break;
      if (i === keys.length - 1)
        target[key] = pick(source[key], sub, target[key]);
      else {
        if (!isComplex(source[key])) break;
        source = source[key] as Resource;
        target = (target[key] ??= {}) as Resource;
      }
    }
  }
  for (const [key, value] of Object.entries(result))
    if (isEmpty(value)) delete result[key];
  return result;
}

/** A value, or only one sub-attribute of it (of each entry, when multi-valued). */
function pick(
  value: unknown,
  sub: string | undefined,
  already: unknown,
): unknown {
  if (sub === undefined || typeof value !== 'object' || value === null)
    return value;
  const one = (entry: Resource, into: Resource = {}) => {
    if (!isComplex(entry)) return entry;
    const key = keyOf(entry, sub);
    return key === undefined ? into : { ...into, [key]: entry[key] };
  };
  if (Array.isArray(value))
    return value.map((entry, i) =>
      one(entry as Resource, (already as Resource[] | undefined)?.[i]),
    );
  return one(value as Resource, already as Resource | undefined);
}

function drop(resource: Resource, paths: Path[]): Resource {
  const result = structuredClone(resource);
  for (const [keys, sub] of paths) {
    let target = result;
    for (const [i, name] of keys.entries()) {
      const key = keyOf(target, name);
      if (!key || ALWAYS.has(key)) break;
      if (i < keys.length - 1) {
        if (!isComplex(target[key])) break;
        target = target[key] as Resource;
        continue;
      }
      if (sub === undefined) delete target[key];
      else {
        const value = target[key];
        for (const entry of Array.isArray(value) ? value : [value]) {
          // Only complex values have sub-attributes.
          if (!isComplex(entry)) continue;
          const subKey = keyOf(entry as Resource, sub);
          if (subKey) delete (entry as Resource)[subKey];
        }
      }
    }
  }
  return result;
}
