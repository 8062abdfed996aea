import { InvalidRequest } from '../common/errors';
import { Collection, int4Key, Page, pageFrom } from '../common/pagination';
import { contentTag } from '../common/http/conditional';
import type { FieldError } from '../common/validation/field-errors';

// What every resource of the admin API shares.

/** Who may call the admin API, as each operation's description says it. */
export const WHO =
  'App tokens with the tenant:admin scope only: any other token gets 403, an admin’s access token included.';

/** A page of the admin API's collections when `limit` is left out. */
export const DEFAULT_LIMIT = 100;

/** The 400 of one field. */
export const invalid = (field: string, message: string) =>
  invalidFields([{ field, message }]);

/** The 400 of the fields `errors` names, all of them in one answer. */
export const invalidFields = (errors: FieldError[]) =>
  new InvalidRequest(
    errors.map((e) => `${e.field} ${e.message}`).join('; '),
    errors,
  );

/** The tag of a representation: a digest of its JSON, without the quotes. */
export const tagOf = (body: object) =>
  contentTag(JSON.stringify(body)).slice(1, -1);

/** The actor an app token of the admin API is in the audit log. */
export const actorOf = (appId: string) => `app:${appId}`;

/**
 * A page of rows kept in their tenant's order (`position`): `fetch` reads
 * up to `limit` of them after a position; each is shown as `show` says.
 */
export async function pageByPosition<Row extends { position: number }, Shown>(
  page: Page,
  fetch: (after: number | undefined, limit: number) => Promise<Row[]>,
  show: (row: Row) => Shown,
): Promise<Collection<Shown[]>> {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const after = page.after && int4Key(page.after[0]);
  const rows = await fetch(after, limit + 1);
  const { items, next } = pageFrom(rows, { limit }, (row) => [
    String(row.position),
  ]);
  return { items: items.map(show), next };
}
