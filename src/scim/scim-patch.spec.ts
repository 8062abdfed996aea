import { InvalidRequest } from '../common/errors';
import { applyPatch } from './scim-patch';
import { USER_PATHS } from './scim-schemas';

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: 'ada',
  userName: 'ada',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  active: true,
  emails: [{ value: 'ada@example.org', type: 'work', primary: true }],
  meta: { resourceType: 'User' },
};
const patch = (...Operations: object[]) =>
  applyPatch(USER, { schemas: [PATCH], Operations }, USER_PATHS, (u) => u.id);
const scimTypeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as InvalidRequest).scimType;
  }
  return 'none';
};

describe('applyPatch', () => {
  it('takes op names in any case (Entra ID)', () => {
    expect(
      patch({ op: 'Replace', path: 'active', value: 'False' }).active,
    ).toBe('False');
    expect(patch({ op: 'ADD', path: 'displayName', value: 'A' })).toMatchObject(
      { displayName: 'A' },
    );
  });

  it('replaces without a path, dotted keys included (Okta, Entra ID)', () => {
    expect(
      patch({
        op: 'replace',
        value: { active: false, 'name.givenName': 'Augusta' },
      }),
    ).toMatchObject({
      active: false,
      name: { givenName: 'Augusta', familyName: 'Lovelace' },
    });
  });

  it('takes value-filter paths as keys of a value without a path (Entra ID)', () => {
    expect(
      patch({
        op: 'replace',
        value: {
          'emails[type eq "work"].value': 'augusta@example.org',
          'name.familyName': 'King',
        },
      }),
    ).toMatchObject({
      name: { givenName: 'Ada', familyName: 'King' },
      emails: [{ value: 'augusta@example.org', type: 'work', primary: true }],
    });
  });

  it('changes only the sub-attributes a complex value without a path names (RFC 7644 §3.5.2.3)', () => {
    for (const op of ['add', 'replace'])
      expect(
        patch({ op, value: { name: { givenName: 'Augusta' } } }).name,
      ).toStrictEqual({ givenName: 'Augusta', familyName: 'Lovelace' });
  });

  it('follows value filters', () => {
    expect(
      patch({
        op: 'replace',
        path: 'emails[type eq "work"].value',
        value: 'a@x.org',
      }).emails,
    ).toStrictEqual([{ value: 'a@x.org', type: 'work', primary: true }]);
    expect(
      patch({ op: 'remove', path: 'emails[type eq "work"]' }).emails,
    ).toBeUndefined();
  });

  it('leaves the resource it was given alone', () => {
    patch({ op: 'replace', path: 'userName', value: 'other' });
    expect(USER.userName).toBe('ada');
  });

  it('refuses what it cannot apply with the SCIM error type', () => {
    expect(
      scimTypeOf(() =>
        applyPatch(USER, { Operations: [] }, USER_PATHS, (u) => u.id),
      ),
    ).toBe('invalidSyntax');
    expect(scimTypeOf(() => patch())).toBe('invalidSyntax');
    expect(scimTypeOf(() => patch({ op: 'move', path: 'x' }))).toBe(
      'invalidSyntax',
    );
    expect(scimTypeOf(() => patch({ op: 'remove' }))).toBe('noTarget');
    expect(scimTypeOf(() => patch({ op: 'replace', value: 'x' }))).toBe(
      'invalidValue',
    );
    expect(
      scimTypeOf(() => patch({ op: 'replace', path: 'id', value: 'x' })),
    ).toBe('mutability');
  });
});

describe('applyPatch’s errors', () => {
  it('never passes on what the library caught or how it prints an operation', () => {
    const spy = jest
      .spyOn(require('scim-patch'), 'scimPatch')
      .mockImplementation(() => {
        const { InvalidScimPatchOp } = require('scim-patch');
        throw new InvalidScimPatchOp(
          'RangeError: Maximum call stack size exceeded',
        );
      });
    try {
      patch({ op: 'replace', path: 'displayName', value: 'x' });
      throw new Error('not refused');
    } catch (error) {
      expect((error as Error).message).toBe(
        'The patch cannot be applied to this resource.',
      );
    } finally {
      spy.mockRestore();
    }
  });
});
