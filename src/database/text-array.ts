import { types } from 'pg';

type TypeId = Parameters<typeof types.getTypeParser>[0];

const TEXT_ARRAY_OID = 1009;

/** `pg`'s own parser of a text[] value (pg-types, character by character). */
export const pgTextArray = types.getTypeParser(
  TEXT_ARRAY_OID as TypeId,
  'text',
) as (text: string) => (string | null)[];

/**
 * A text[] value as `pg` parses it (pgTextArray), without its cost per
 * character: a one-dimensional array whose elements PostgreSQL wrote
 * unquoted (it quotes every element that is empty, the word NULL, or holds
 * a delimiter, space, quote, backslash or brace) is cut at its commas, an
 * unquoted NULL read as null. Every other value (quoted elements, several
 * dimensions, explicit bounds) goes to pg's parser.
 */
export function parseTextArray(text: string): (string | null)[] {
  const end = text.length - 1;
  if (!unquoted(text, end)) return pgTextArray(text);
  if (end === 1) return [];
  const items: (string | null)[] = text.slice(1, end).split(',');
  for (let i = 0; i < items.length; i++)
    if (items[i] === 'NULL') items[i] = null;
  return items;
}

/** `{…}` of one dimension, no element quoted or empty. */
const unquoted = (text: string, end: number) =>
  text.charCodeAt(0) === 0x7b /* { */ &&
  text.charCodeAt(end) === 0x7d /* } */ &&
  text.indexOf('"') === -1 &&
  text.indexOf('\\') === -1 &&
  text.indexOf('{', 1) === -1 &&
  text.indexOf('}') === end &&
  // pg's parser drops an empty unquoted element (PostgreSQL writes none).
  text.charCodeAt(1) !== 0x2c /* , */ &&
  text.charCodeAt(end - 1) !== 0x2c &&
  !text.includes(',,');
