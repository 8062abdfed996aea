import { applyGroupPatch } from './group-patch';

const current = { id: 'g1', name: 'staff', externalId: null };
const patch = (...Operations: object[]) =>
  applyGroupPatch(current, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations,
  });
const ids = (...values: string[]) => new Set(values);

describe('applyGroupPatch', () => {
  it.each([
    [
      'adds members (Entra ID: "Add", $ref null)',
      [{ op: 'Add', path: 'members', value: [{ $ref: null, value: 'a' }] }],
      { kind: 'delta', add: ids('a'), remove: ids() },
    ],
    [
      'removes members by a value list (Entra ID)',
      [{ op: 'Remove', path: 'members', value: [{ value: 'a' }] }],
      { kind: 'delta', add: ids(), remove: ids('a') },
    ],
    [
      'removes members by filter, several joined by or',
      [{ op: 'remove', path: 'members[value eq "a" or value eq "b"]' }],
      { kind: 'delta', add: ids(), remove: ids('a', 'b') },
    ],
    [
      'replaces the members (Okta)',
      [{ op: 'replace', path: 'members', value: [{ value: 'a' }] }],
      { kind: 'set', members: ids('a') },
    ],
    [
      'removes every member without a value',
      [{ op: 'remove', path: 'members' }],
      { kind: 'set', members: ids() },
    ],
    [
      'folds a remove after an add of the same member',
      [
        { op: 'add', path: 'members', value: [{ value: 'a' }, { value: 'b' }] },
        { op: 'remove', path: 'members[value eq "a"]' },
      ],
      { kind: 'delta', add: ids('b'), remove: ids('a') },
    ],
    [
      'adds to a replaced set',
      [
        { op: 'replace', path: 'members', value: [] },
        { op: 'add', path: 'members', value: { value: 'c' } },
      ],
      { kind: 'set', members: ids('c') },
    ],
  ])('%s', (_, operations, members) => {
    expect(patch(...operations)).toStrictEqual({
      name: 'staff',
      externalId: null,
      members,
    });
  });

  it('renames with and without a path, ignoring its own id (Okta)', () => {
    expect(
      patch({ op: 'Replace', path: 'displayName', value: 'crew' }).name,
    ).toBe('crew');
    expect(
      patch({ op: 'replace', value: { id: 'g1', displayName: 'crew' } }).name,
    ).toBe('crew');
    expect(
      patch({
        op: 'replace',
        path: 'urn:ietf:params:scim:schemas:core:2.0:Group:externalId',
        value: 'x',
      }).externalId,
    ).toBe('x');
  });

  it.each([
    [{ op: 'copy', path: 'members' }, 'invalidSyntax'],
    [{ op: 'remove' }, 'noTarget'],
    [{ op: 'add', path: 'owner', value: 'x' }, 'invalidPath'],
    [{ op: 'add', path: 'members[value eq "a"]', value: 'x' }, 'invalidPath'],
    [{ op: 'remove', path: 'members[display eq "A"]' }, 'invalidFilter'],
    [{ op: 'remove', path: 'displayName' }, 'mutability'],
    [{ op: 'replace', value: { id: 'other' } }, 'mutability'],
    [{ op: 'replace', path: 'displayName', value: '' }, 'invalidValue'],
    [{ op: 'add', path: 'members', value: [{ display: 'A' }] }, 'invalidValue'],
  ])('refuses %j with %s', (operation, scimType) => {
    expect(() => patch(operation)).toThrow(
      expect.objectContaining({ status: 400, scimType }),
    );
  });

  it('refuses a body that is not a PatchOp', () => {
    for (const body of [
      null,
      [],
      { Operations: [] },
      { schemas: ['x'], Operations: [{ op: 'add' }] },
    ])
      expect(() => applyGroupPatch(current, body)).toThrow(
        expect.objectContaining({ status: 400 }),
      );
  });
});
