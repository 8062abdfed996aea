import { InvalidRequest } from '../common/errors';
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
