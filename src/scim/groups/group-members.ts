/**
 * What a write does to a Group's members: replace them with a set, or add
 * and remove some. A PATCH folds its operations into one of these, so that
 * adding one member to a large group never reads the others.
 */
export type MemberChange =
  | { kind: 'set'; members: Set<string> }
  | { kind: 'delta'; add: Set<string>; remove: Set<string> };

/** No change yet: a PATCH's operations are folded into it one by one. */
export function noMemberChange(): MemberChange {
  return { kind: 'delta', add: new Set(), remove: new Set() };
}

export function setMembers(ids: Iterable<string>): MemberChange {
  return { kind: 'set', members: new Set(ids) };
}

// Adding and removing change the change in place: the cost of a PATCH is
// its number of ids, however many operations carry them.

export function addMembers(change: MemberChange, ids: string[]): MemberChange {
  for (const id of ids)
    if (change.kind === 'set') change.members.add(id);
    else {
      change.add.add(id);
      change.remove.delete(id);
    }
  return change;
}

export function removeMembers(
  change: MemberChange,
  ids: string[],
): MemberChange {
  for (const id of ids)
    if (change.kind === 'set') change.members.delete(id);
    else {
      change.remove.add(id);
      change.add.delete(id);
    }
  return change;
}

/** The ids a change makes members, which must all name identities. */
export function joiningIds(change: MemberChange): string[] {
  return [...(change.kind === 'set' ? change.members : change.add)];
}

export function changesMembers(change: MemberChange): boolean {
  return change.kind === 'set' || change.add.size > 0 || change.remove.size > 0;
}
