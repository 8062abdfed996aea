import { DomainError } from '../../common/errors';

export class GroupNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'group-not-found';
  readonly title = 'Group not found';
  constructor(id: string) {
    super(`No Group "${id}" in this tenant.`);
  }
}

export class GroupChanged extends DomainError {
  readonly status = 412;
  readonly slug = 'precondition-failed';
  readonly title = 'Precondition failed';
  constructor() {
    super(
      'If-Match does not match the current version of the Group; fetch it again and retry.',
    );
  }
}
