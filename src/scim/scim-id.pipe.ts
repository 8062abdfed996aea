import { PipeTransform } from '@nestjs/common';
import { GroupNotFound, IdentityNotFound } from '../common/errors';
import { isStorableText } from '../common/validation/field-rules';

/**
 * A resource id from the path. No stored id holds U+0000 or a lone
 * surrogate (PostgreSQL cannot compare the one and reads the other as
 * U+FFFD), so such an id names no resource: 404, as on the identity API.
 */
class StoredId implements PipeTransform<string, string> {
  constructor(private readonly notFound: (id: string) => Error) {}

  transform(id: string): string {
    if (!isStorableText(id)) throw this.notFound(id);
    return id;
  }
}

export const USER_ID = new StoredId((id) => new IdentityNotFound(id));
export const GROUP_ID = new StoredId((id) => new GroupNotFound(id));
