import type { StreamedJson } from '../../src/common/pagination';

/** A list's JSON whole, whether the repository held it or streams it. */
export async function wholeJson(items: string | StreamedJson): Promise<string> {
  if (typeof items === 'string') return items;
  let json = '';
  for await (const piece of items.pieces) json += piece;
  return json;
}
