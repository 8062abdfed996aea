import { DomainError } from '../../common/errors';

export class GroupNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'group-not-found';
  readonly title = 'Group not found';
  constructor(id: string) {
    super(`No Group "${id}" in this tenant.`);
  }
}
