import { InvalidRequest } from '../common/errors';
import { MAX_PATH_LENGTH, parsePath } from './scim-path';
import { USER_PATHS } from './scim-schemas';

const EXTENSION = 'urn:ietf:params:scim:schemas:extension:identity:2.0:User';
const canonical = (path: string) => parsePath(path, USER_PATHS).canonical;
const refusal = (path: string) => {
  try {
    parsePath(path, USER_PATHS);
  } catch (error) {
    const { scimType, detail } = error as InvalidRequest & { detail: string };
    return { scimType, message: (error as Error).message, detail };
  }
  return 'accepted';
};

describe('parsePath', () => {
  it('resolves names in any case to the schema’s spelling', () => {
    expect(canonical('USERNAME')).toBe('userName');
    expect(canonical('name.GIVENNAME')).toBe('name.givenName');
    expect(canonical('Emails[type eq "work"].VALUE')).toBe(
      'emails[type eq "work"].value',
    );
    expect(
      canonical('urn:ietf:params:scim:schemas:core:2.0:User:displayName'),
    ).toBe('urn:ietf:params:scim:schemas:core:2.0:User:displayName');
    expect(canonical(`${EXTENSION.toUpperCase()}:givennames`)).toBe(
      `${EXTENSION}:givenNames`,
    );
    expect(canonical(EXTENSION)).toBe(EXTENSION);
    expect(canonical('meta.lastModified')).toBe('meta.lastModified');
  });

  it('takes quoted brackets inside a value filter', () => {
    expect(canonical('emails[value eq "a]b\\"c"].type')).toBe(
      'emails[value eq "a]b\\"c"].type',
    );
  });

  it('refuses every name the model lacks, prototypes included', () => {
    for (const path of [
      '__proto__',
      '__proto__.x',
      'constructor.prototype.x',
      'name.__proto__',
      'toString',
      `${EXTENSION}:__proto__.x`,
      'emails[__proto__ eq "x"]',
      'hasOwnProperty',
      'urn:ietf:params:scim:schemas:core:2.0:User',
      '',
      'name.',
      'emails[type eq "work"',
      'emails[type eq ]',
    ])
      expect([
        path,
        (refusal(path) as { scimType: string }).scimType,
      ]).toStrictEqual([path, 'invalidPath']);
  });

  it('refuses a path longer than the bound before reading it', () => {
    const long = 'a.'.repeat(MAX_PATH_LENGTH / 2 - 1) + 'a';
    expect(refusal(long)).toMatchObject({ scimType: 'invalidPath' });
    expect(refusal('a.'.repeat(512 * 1024))).toMatchObject({
      scimType: 'invalidPath',
      message: `The path is longer than ${MAX_PATH_LENGTH} characters.`,
    });
  });
});
