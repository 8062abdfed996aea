import { parse, type Filter } from 'scim2-parse-filter';
import { InvalidRequest } from '../common/errors';
import type { ScimAttribute, ScimSchema } from './scim-schema';

/** The longest PATCH path taken: a value filter of a few terms fits many times over. */
export const MAX_PATH_LENGTH = 1024;

/** The schemas a resource's paths may name: the core one first, then its extensions. */
export interface PathModel {
  core: ScimSchema;
  extensions: ScimSchema[];
  /** Attributes every resource has (RFC 7643 §3.1): id, externalId, meta. */
  common: ScimAttribute[];
  /** Schemas whose attributes are accepted and not kept (Entra ID sends the enterprise one). */
  ignored: string[];
}

/** Whether a path lies in one of the model's ignored schemas. */
export function isIgnored(path: string, model: PathModel): boolean {
  const lower = path.toLowerCase();
  return model.ignored.some(
    (urn) =>
      lower.startsWith(urn.toLowerCase()) &&
      (path.length === urn.length || path[urn.length] === ':'),
  );
}

/** A PATCH path (RFC 7644 §3.5.2), resolved against the model. */
export interface ScimPath {
  schema: ScimSchema;
  /** Absent when the path is an extension's URN: the whole extension. */
  attribute?: ScimAttribute;
  /** The value filter's text, between the brackets. */
  filter?: string;
  subAttribute?: ScimAttribute;
  /** The path in the schema's spelling of each name, its filter as sent. */
  canonical: string;
}

const invalidPath = (detail: string) =>
  new InvalidRequest(detail, undefined, 'invalidPath');

/** ATTRNAME of RFC 7643 §2.1: ALPHA *(nameChar), matched at a position. */
const ATTRNAME = /[A-Za-z][\w$-]*/y;

function name(path: string, at: number): string | undefined {
  ATTRNAME.lastIndex = at;
  return ATTRNAME.exec(path)?.[0];
}

const find = (attributes: readonly ScimAttribute[], wanted: string) => {
  const lower = wanted.toLowerCase();
  return attributes.find((a) => a.name.toLowerCase() === lower);
};

/** Where the value filter that opens at `open` closes, quoted strings skipped. */
function closingBracket(path: string, open: number): number {
  let quoted = false;
  for (let i = open + 1; i < path.length; i++) {
    const c = path[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ']') return i;
  }
  return -1;
}

/** The attribute paths a filter compares, sub-filters included. */
function filterPaths(filter: Filter, into: string[] = []): string[] {
  switch (filter.op) {
    case 'and':
    case 'or':
      for (const f of filter.filters) filterPaths(f, into);
      return into;
    case 'not':
      return filterPaths(filter.filter, into);
    case '[]':
      into.push(filter.attrPath);
      return filterPaths(filter.valFilter, into);
    default:
      into.push(filter.attrPath);
      return into;
  }
}

/**
 * Parses a PATCH path in one pass over its characters and resolves each name
 * against the model: an attribute, or a sub-attribute, that the model does
 * not name — a prototype's name included — is 400 invalidPath. Names are
 * compared in any case (RFC 7643 §2.1).
 */
export function parsePath(path: string, model: PathModel): ScimPath {
  if (path.length === 0) throw invalidPath('The path is empty.');
  if (path.length > MAX_PATH_LENGTH)
    throw invalidPath(`The path is longer than ${MAX_PATH_LENGTH} characters.`);
  let schema = model.core;
  let at = 0;
  if (/^urn:/i.test(path)) {
    schema = schemaNamed(path, model);
    if (path.length === schema.id.length) {
      if (schema === model.core)
        throw invalidPath('A path cannot name the core schema alone.');
      return { schema, canonical: schema.id };
    }
    at = schema.id.length + 1;
  }
  const attributeName = name(path, at);
  const attribute =
    attributeName === undefined
      ? undefined
      : (find(schema.attributes, attributeName) ??
        (schema === model.core
          ? find(model.common, attributeName)
          : undefined));
  if (!attribute)
    throw invalidPath(
      `The path "${short(path)}" names no attribute of ${schema.name}.`,
    );
  at += attributeName!.length;
  const result: ScimPath = { schema, attribute, canonical: '' };
  if (path[at] === '[') {
    result.filter = valueFilter(path, at, attribute);
    at += 1 + result.filter.length + 1;
  }
  if (path[at] === '.') {
    const subName = name(path, at + 1);
    const sub =
      subName === undefined
        ? undefined
        : find(attribute.subAttributes ?? [], subName);
    if (!sub)
      throw invalidPath(
        `The path "${short(path)}" names no sub-attribute of ${attribute.name}.`,
      );
    result.subAttribute = sub;
    at += 1 + subName!.length;
  }
  if (at !== path.length)
    throw invalidPath(
      `The path "${short(path)}" is not a SCIM attribute path.`,
    );
  result.canonical =
    (schema === model.core && !/^urn:/i.test(path) ? '' : `${schema.id}:`) +
    attribute.name +
    (result.filter === undefined ? '' : `[${result.filter}]`) +
    (result.subAttribute ? `.${result.subAttribute.name}` : '');
  return result;
}

/** The schema whose URN a path starts with: the core one or an extension. */
function schemaNamed(path: string, model: PathModel): ScimSchema {
  const lower = path.toLowerCase();
  const named = [model.core, ...model.extensions].find(
    (s) =>
      lower.startsWith(s.id.toLowerCase()) &&
      (path.length === s.id.length || path[s.id.length] === ':'),
  );
  if (!named)
    throw invalidPath(`The path "${short(path)}" names an unknown schema.`);
  return named;
}

/**
 * The text of the value filter whose "[" is at `open`, once it is known to
 * close, to parse, and to compare only sub-attributes of `attribute`.
 */
function valueFilter(
  path: string,
  open: number,
  attribute: ScimAttribute,
): string {
  const close = closingBracket(path, open);
  if (close < 0) throw invalidPath('The value filter has no closing "]".');
  if (!attribute.multiValued)
    throw invalidPath(
      `${attribute.name} has one value: it takes no value filter.`,
    );
  const text = path.slice(open + 1, close);
  let filter: Filter;
  try {
    filter = parse(text);
  } catch {
    throw invalidPath(`The value filter of "${short(path)}" is not valid.`);
  }
  for (const compared of filterPaths(filter))
    if (!find(attribute.subAttributes ?? [], compared))
      throw invalidPath(
        `The value filter compares "${short(compared)}", which ${attribute.name} does not have.`,
      );
  return text;
}

/** A path as an error detail may quote it: never a whole hostile input. */
function short(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
