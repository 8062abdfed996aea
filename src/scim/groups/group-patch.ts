import { parse, type Filter } from 'scim2-parse-filter';
import { InvalidRequest } from '../../common/errors';
import {
  addMembers,
  MemberChange,
  noMemberChange,
  removeMembers,
  setMembers,
} from './group-members';
import {
  GROUP_SCHEMA,
  isObject,
  readDisplayName,
  readExternalId,
  readMembers,
  WRITABLE,
} from './group-body';
import type { GroupWrite } from './groups.repository';

const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Op = 'add' | 'remove' | 'replace';
type Attribute = (typeof WRITABLE)[keyof typeof WRITABLE];

interface Target {
  attribute: Attribute;
  /** For `members[value eq "…"]`: the ids the filter selects. */
  selected?: string[];
}

/**
 * Applies a PatchOp body (RFC 7644 §3.5.2) to a Group's state. Operation
 * names are case-insensitive ("Add", "Replace" as Entra ID sends them);
 * members are changed by `add`/`remove`/`replace` on `members`, a
 * `members[value eq "…"]` filter, or a value list on `remove` (Entra ID);
 * `replace` without a path takes an object of attributes (Okta sends the
 * Group's own id in it, which is accepted when it is the Group's).
 */
export function applyGroupPatch(
  current: { id: string; name: string; externalId: string | null },
  body: unknown,
): GroupWrite {
  const operations = readOperations(body);
  let name = current.name;
  let externalId = current.externalId;
  let members: MemberChange = noMemberChange();
  const apply = (op: Op, target: Target, value: unknown) => {
    switch (target.attribute) {
      case 'displayName':
        if (op === 'remove')
          throw new InvalidRequest(
            'displayName is required; it cannot be removed.',
            undefined,
            'mutability',
          );
        name = readDisplayName(value);
        return;
      case 'externalId':
        externalId = op === 'remove' ? null : readExternalId(value);
        return;
      case 'members':
        members = changeMembers(members, op, target, value);
    }
  };
  for (const { op, path, value } of operations) {
    if (path !== undefined) {
      apply(op, readPath(path), value);
      continue;
    }
    if (op === 'remove')
      throw new InvalidRequest(
        'A remove operation needs a path.',
        undefined,
        'noTarget',
      );
    if (!isObject(value))
      throw new InvalidRequest(
        'An operation without a path needs an object of attributes as its value.',
      );
    for (const [key, attributeValue] of Object.entries(value)) {
      const lower = key.toLowerCase();
      if (lower === 'id' && attributeValue === current.id) continue;
      if (lower === 'id' || lower === 'meta')
        throw new InvalidRequest(
          `"${key}" is read-only.`,
          undefined,
          'mutability',
        );
      apply(op, readPath(key), attributeValue);
    }
  }
  return { name, externalId, members };
}

function changeMembers(
  members: MemberChange,
  op: Op,
  target: Target,
  value: unknown,
): MemberChange {
  if (target.selected) {
    if (op !== 'remove')
      throw new InvalidRequest(
        'Members selected by a filter can only be removed.',
        undefined,
        'invalidPath',
      );
    return removeMembers(members, target.selected);
  }
  if (op === 'remove')
    return value == null
      ? setMembers([])
      : removeMembers(members, readMembers(value));
  const ids = value == null ? [] : readMembers(value);
  return op === 'add' ? addMembers(members, ids) : setMembers(ids);
}

function readOperations(
  body: unknown,
): { op: Op; path?: string; value?: unknown }[] {
  if (!isObject(body))
    throw new InvalidRequest(
      'The body must be a JSON object.',
      undefined,
      'invalidSyntax',
    );
  const schemas = body.schemas;
  if (
    schemas !== undefined &&
    !(Array.isArray(schemas) && schemas.includes(PATCH_OP_SCHEMA))
  )
    throw new InvalidRequest(
      `schemas must list "${PATCH_OP_SCHEMA}".`,
      undefined,
      'invalidSyntax',
    );
  const operations = Object.entries(body).find(
    ([key]) => key.toLowerCase() === 'operations',
  )?.[1];
  if (!Array.isArray(operations) || operations.length === 0)
    throw new InvalidRequest(
      'Operations must be a non-empty list.',
      undefined,
      'invalidSyntax',
    );
  return operations.map((operation) => {
    const op =
      isObject(operation) && typeof operation.op === 'string'
        ? operation.op.toLowerCase()
        : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace')
      throw new InvalidRequest(
        'Each operation needs an "op" of add, remove or replace.',
        undefined,
        'invalidSyntax',
      );
    const path = (operation as Record<string, unknown>).path;
    if (path !== undefined && typeof path !== 'string')
      throw new InvalidRequest(
        'An operation\'s "path" must be a string.',
        undefined,
        'invalidPath',
      );
    return { op, path, value: (operation as Record<string, unknown>).value };
  });
}

/** `displayName`, `externalId`, `members`, `members[value eq "…"]`, optionally prefixed by the Group schema's URN. */
function readPath(path: string): Target {
  const local = path.toLowerCase().startsWith(`${GROUP_SCHEMA.toLowerCase()}:`)
    ? path.slice(GROUP_SCHEMA.length + 1)
    : path;
  const attribute = WRITABLE[local.toLowerCase() as keyof typeof WRITABLE];
  if (attribute) return { attribute };
  let filter: Filter;
  try {
    filter = parse(local);
  } catch {
    throw new InvalidRequest(
      `"${path}" is not a path of a Group.`,
      undefined,
      'invalidPath',
    );
  }
  if (filter.op !== '[]' || filter.attrPath.toLowerCase() !== 'members')
    throw new InvalidRequest(
      `"${path}" is not a path of a Group.`,
      undefined,
      'invalidPath',
    );
  return { attribute: 'members', selected: memberIds(filter.valFilter, path) };
}

/** The ids of `value eq "…"`, alone or joined by `or`. */
function memberIds(filter: Filter, path: string): string[] {
  if (filter.op === 'or')
    return filter.filters.flatMap((f) => memberIds(f, path));
  if (
    filter.op === 'eq' &&
    filter.attrPath.toLowerCase() === 'value' &&
    typeof filter.compValue === 'string'
  )
    return [filter.compValue];
  throw new InvalidRequest(
    `"${path}": members can only be selected by value eq "…".`,
    undefined,
    'invalidFilter',
  );
}
