import { Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { InvalidRequest } from '../common/errors';
import {
  findUnsafeKeys,
  toFieldErrors,
} from '../common/validation/field-errors';
import { MAX_TEXT } from '../identity/identity-update.rules';
import { AccountEntry } from '../tenants/tenant-file.dto';
import type { NewAccount } from './accounts.repository';

const KEYS = new Set([
  'accountId',
  'accountProviderId',
  'issuedUserId',
  'accountPrivatePersonalIdentifier',
  'displayName',
  'emailAddress',
  'accountProfileUrl',
  'pictureUrl',
]);

/**
 * The body of a POST of an account: an account entry of the import format
 * (docs/import-format.md), each value at most MAX_TEXT characters,
 * `accountId` a new UUID when left out; a 400 naming every problem
 * otherwise.
 */
@Injectable()
export class AccountEntryPipe implements PipeTransform<unknown, NewAccount> {
  transform(body: unknown): NewAccount {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new InvalidRequest('The body must be a JSON object.');
    const unknown = [
      ...findUnsafeKeys(body),
      ...Object.keys(body).filter(
        (key) => !KEYS.has(key) && !findUnsafeKeys({ [key]: 0 }).length,
      ),
    ].map((field) => ({ field, message: 'is not a known field' }));
    if (unknown.length)
      throw new InvalidRequest(
        `The body has unknown fields: ${unknown.map((e) => e.field).join(', ')}.`,
        unknown,
      );
    const errors = toFieldErrors(
      validateSync(plainToInstance(AccountEntry, body), {
        stopAtFirstError: true,
      }),
    );
    // The import format's rules, then the size limit of a write (as PUT's).
    if (!errors.length)
      for (const [field, value] of Object.entries(body))
        if (typeof value === 'string' && value.length > MAX_TEXT)
          errors.push({
            field,
            message: `must be at most ${MAX_TEXT} characters`,
          });
    if (errors.length)
      throw new InvalidRequest(
        errors.map((e) => `${e.field} ${e.message}`).join('; '),
        errors,
      );
    const entry = body as AccountEntry;
    return {
      accountId: entry.accountId ?? randomUUID(),
      accountProviderId: entry.accountProviderId,
      issuedUserId: entry.issuedUserId,
      accountPrivatePersonalIdentifier:
        entry.accountPrivatePersonalIdentifier ?? null,
      displayName: entry.displayName ?? null,
      emailAddress: entry.emailAddress ?? null,
      accountProfileUrl: entry.accountProfileUrl ?? null,
      pictureUrl: entry.pictureUrl ?? null,
    };
  }
}
