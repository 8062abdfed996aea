import { Injectable, PipeTransform } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InvalidRequest } from '../common/errors';
import type { FieldError } from '../common/validation/field-errors';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import { MAX_TEXT } from '../identity/identity-update.rules';
import { AccountEntry } from '../tenants/tenant-file.dto';
import type { NewAccount } from './accounts.repository';

const KEYS: (keyof AccountEntry)[] = [
  'accountId',
  'accountProviderId',
  'issuedUserId',
  'accountPrivatePersonalIdentifier',
  'displayName',
  'emailAddress',
  'accountProfileUrl',
  'pictureUrl',
];

/**
 * The body of a POST of an account: an account entry of the import format
 * (docs/import-format.md), each value at most MAX_TEXT characters,
 * `accountId` a new UUID when left out; a 400 naming every problem
 * otherwise.
 */
@Injectable()
export class AccountEntryPipe implements PipeTransform<unknown, NewAccount> {
  transform(body: unknown): NewAccount {
    // The import format's rules, then the size limit of a write (as PUT's).
    const entry = new JsonBodyPipe(AccountEntry, KEYS).transform(body);
    const errors: FieldError[] = [];
    for (const [field, value] of Object.entries(entry))
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
