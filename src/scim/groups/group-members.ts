/**
 * What a write does to a Group's members: replace them with a set, or add
 * and remove some. A PATCH folds its operations into one of these, so that
 * adding one member to a large group never reads the others.
 */
export type MemberChange =
  | { kind: 'set'; members: Set<string> }
  | { kind: 'delta'; add: Set<string>; remove: Set<string> };

export const NO_MEMBER_CHANGE: MemberChange = {
  kind: 'delta',
  add: new Set(),
  remove: new Set(),
};

export function setMembers(ids: Iterable<string>): MemberChange {
  return { kind: 'set', members: new Set(ids) };
}

export function addMembers(change: MemberChange, ids: string[]): MemberChange {
  if (change.kind === 'set') return setMembers([...change.members, ...ids]);
  const add = new Set([...change.add, ...ids]);
  const remove = new Set([...change.remove].filter((id) => !add.has(id)));
  return { kind: 'delta', add, remove };
}

export function removeMembers(
  change: MemberChange,
  ids: string[],
): MemberChange {
  const gone = new Set(ids);
  if (change.kind === 'set')
    return setMembers([...change.members].filter((id) => !gone.has(id)));
  const remove = new Set([...change.remove, ...ids]);
  const add = new Set([...change.add].filter((id) => !gone.has(id)));
  return { kind: 'delta', add, remove };
}

/** The ids a change makes members, which must all name identities. */
export function joiningIds(change: MemberChange): string[] {
  return [...(change.kind === 'set' ? change.members : change.add)];
}

export function changesMembers(change: MemberChange): boolean {
  return change.kind === 'set' || change.add.size > 0 || change.remove.size > 0;
}
