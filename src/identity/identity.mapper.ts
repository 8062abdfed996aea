import {
  formatUtcDateTime,
  setNonEmpty,
  setPresent,
} from '../common/representation';
import {
  IdentityField,
  IdentityResponse,
  PartialIdentityResponse,
} from './identity.dto';
import {
  FIELD_NAMES,
  FieldKind,
  IDENTITY_FIELDS,
  IdentityFieldValues,
} from './identity-fields';
import { IdentityRecord } from './identity.record';

export { PUBLIC_FIELDS } from './identity-fields';

/** How each kind of field is answered: a missing single value and empty pictures are left out. */
const ANSWER: Record<
  FieldKind,
  (target: Answer, field: string, value: unknown) => void
> = {
  id: copy,
  flag: copy,
  texts: copy,
  emails: copy,
  localities: copy,
  properties: copy,
  text: present,
  email: present,
  locality: present,
  datetime: (target, field, value) =>
    present(target, field, value && formatUtcDateTime(value as Date)),
  urls: (target, field, value) =>
    setNonEmpty(target, field, value as string[] | null),
};

type Answer = Record<string, unknown>;
function copy(target: Answer, field: string, value: unknown) {
  target[field] = value;
}
function present(target: Answer, field: string, value: unknown) {
  setPresent(target, field, value);
}

/** The whole identity as its owner, an admin or a reading app sees it. */
export function toIdentityResponse(row: IdentityRecord): IdentityResponse {
  return toFieldsResponse(row, FIELD_NAMES) as IdentityResponse;
}

/**
 * The `fields` of a row (its columns named as the fields), each answered
 * as the whole identity answers it, in the order given.
 */
export function toFieldsResponse<F extends IdentityField>(
  row: Pick<IdentityFieldValues, F>,
  fields: readonly F[],
): Pick<IdentityResponse, F> {
  const body: Answer = {};
  for (const field of fields)
    ANSWER[IDENTITY_FIELDS[field].kind](body, field, row[field]);
  return body as Pick<IdentityResponse, F>;
}

/** Keeps the named fields of a response, and identityId always. */
export function pickFields(
  body: IdentityResponse,
  fields: ReadonlySet<IdentityField>,
): PartialIdentityResponse {
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    if (key === 'identityId' || fields.has(key as IdentityField))
      picked[key] = value;
  return picked as PartialIdentityResponse;
}
