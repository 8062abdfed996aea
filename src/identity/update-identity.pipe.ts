import { Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { InvalidRequest } from '../common/errors';
import {
  findUnsafeKeys,
  MAX_JSON_DEPTH,
  toFieldErrors,
  tooDeep,
} from '../common/validation/field-errors';
import {
  EDITABLE_FIELDS,
  IdentityUpdate,
  READ_ONLY_FIELDS,
} from './identity.dto';
import { IdentityValueRules } from './identity-field-rules';
import { IdentityUpdateLimits } from './identity-update.rules';

const EDITABLE = new Set<string>(EDITABLE_FIELDS);
const READ_ONLY = new Set<string>(READ_ONLY_FIELDS);

/** Turns a PUT body into an IdentityUpdate, or a 400 naming every problem. */
@Injectable()
export class UpdateIdentityPipe implements PipeTransform<
  unknown,
  IdentityUpdate
> {
  transform(body: unknown): IdentityUpdate {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new InvalidRequest('The body must be a JSON object.');
    const deep = tooDeep(body);
    if (deep !== undefined)
      throw new InvalidRequest(
        `The body nests values more than ${MAX_JSON_DEPTH} levels deep.`,
        [
          {
            field: deep,
            message: `is nested more than ${MAX_JSON_DEPTH} levels deep`,
          },
        ],
      );
    const keys = Object.keys(body);
    const refused = [
      ...findUnsafeKeys(body).map((field) => ({
        field,
        message: 'is not an allowed key',
      })),
      ...keys
        .filter(
          (key) => !EDITABLE.has(key) && !findUnsafeKeys({ [key]: 0 }).length,
        )
        .map((field) => ({
          field,
          message: READ_ONLY.has(field)
            ? 'is read-only'
            : 'is not a known field',
        })),
    ];
    if (refused.length)
      throw new InvalidRequest(
        `The body has read-only or unknown fields: ${refused.map((e) => e.field).join(', ')}.`,
        refused,
      );
    // Each field kind's value rule first, the import's own (null clears,
    // so it is not checked), then the size limits of a PUT.
    const values = Object.fromEntries(
      Object.entries(body).filter(([, v]) => v !== null),
    );
    const check = (rules: new () => object, value: object) =>
      toFieldErrors(
        validateSync(plainToInstance(rules, value), { stopAtFirstError: true }),
      );
    const ruleErrors = check(IdentityValueRules, values);
    const errors = ruleErrors.length
      ? ruleErrors
      : check(IdentityUpdateLimits, body);
    if (errors.length)
      throw new InvalidRequest(
        errors.map((e) => `${e.field} ${e.message}`).join('; '),
        errors,
      );
    return body as IdentityUpdate;
  }
}
