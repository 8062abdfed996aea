import { emptyIdentity, FIELD_NAMES } from './identity-fields';
import { IdentityRecord } from './identity.record';
import {
  pickFields,
  PUBLIC_FIELDS,
  toFieldsResponse,
  toIdentityResponse,
} from './identity.mapper';

const EMPTY: IdentityRecord = { ...emptyIdentity('x'), version: 7n };

describe('toIdentityResponse', () => {
  it('keeps only the always-present fields of an empty identity, never null', () => {
    expect(toIdentityResponse(EMPTY)).toStrictEqual({
      identityId: 'x',
      disabled: false,
      isArchived: false,
      emailAddresses: [],
      emailAddressVerified: false,
      givenNames: [],
      surnames: [],
      localities: [],
      mobilePhoneVerified: false,
      oldIdentityIds: [],
      properties: {},
    });
  });

  it.each([
    ['displayName', 'D', 'D'],
    ['userName', 'u', 'u'],
    ['emailAddress', 'a@b.example', 'a@b.example'],
    ['givenName', 'G', 'G'],
    ['surname', 'S', 'S'],
    ['locality', 'en-GB', 'en-GB'],
    ['mobilePhone', '+1 555', '+1 555'],
    ['privatePersonalIdentifier', 'p', 'p'],
    ['userNamePasswordAccountUserName', 'n', 'n'],
    ['smallPictures', ['https://p.example/s'], ['https://p.example/s']],
    ['mediumPictures', ['https://p.example/m'], ['https://p.example/m']],
    ['largePictures', ['https://p.example/l'], ['https://p.example/l']],
    ['emailAddresses', ['a@b.example'], ['a@b.example']],
    ['givenNames', ['G', 'H'], ['G', 'H']],
    ['surnames', ['S'], ['S']],
    ['localities', ['en-GB'], ['en-GB']],
    ['oldIdentityIds', ['old'], ['old']],
    ['properties', { k: 'v' }, { k: 'v' }],
    ['disabled', true, true],
    ['isArchived', true, true],
    ['emailAddressVerified', true, true],
    ['mobilePhoneVerified', true, true],
  ])('maps %s', (field, value, expected) => {
    const empty = { ...(toIdentityResponse(EMPTY) as object) };
    expect(toIdentityResponse({ ...EMPTY, [field]: value })).toStrictEqual({
      ...empty,
      [field]: expected,
    });
  });

  it('formats lastLogin in UTC with milliseconds and no offset', () => {
    const body = toIdentityResponse({
      ...EMPTY,
      lastLogin: new Date('2026-01-02T03:04:05.006Z'),
    });
    expect(body.lastLogin).toBe('2026-01-02T03:04:05.006');
  });

  it('knows every field it produces', () => {
    const full = toIdentityResponse({
      ...EMPTY,
      displayName: 'D',
      userName: 'u',
      externalId: 'x',
      emailAddress: 'e@x.example',
      givenName: 'G',
      surname: 'S',
      locality: 'en-GB',
      mobilePhone: '1',
      privatePersonalIdentifier: 'p',
      lastLogin: new Date(0),
      smallPictures: ['https://x.example/s'],
      mediumPictures: ['https://x.example/m'],
      largePictures: ['https://x.example/l'],
      userNamePasswordAccountUserName: 'n',
    });
    expect(new Set(Object.keys(full))).toStrictEqual(new Set(FIELD_NAMES));
  });
});

describe('toFieldsResponse', () => {
  it('answers the fields of a row that holds only them, as the whole identity answers them', () => {
    const row = {
      identityId: 'x',
      userName: null,
      emailAddress: 'e@x.example',
      smallPictures: [],
      disabled: false,
    };
    expect(
      toFieldsResponse(row, [
        'identityId',
        'userName',
        'emailAddress',
        'smallPictures',
        'disabled',
      ]),
    ).toStrictEqual({
      identityId: 'x',
      emailAddress: 'e@x.example',
      disabled: false,
    });
  });
});

describe('pickFields', () => {
  it('keeps the named fields and identityId', () => {
    const body = toIdentityResponse({
      ...EMPTY,
      displayName: 'D',
      mobilePhone: '1',
    });
    expect(pickFields(body, new Set(['displayName']))).toStrictEqual({
      identityId: 'x',
      displayName: 'D',
    });
  });

  it('reduces to the public view of decisions.md', () => {
    const body = toIdentityResponse({
      ...EMPTY,
      displayName: 'D',
      mobilePhone: '1',
      emailAddress: 'e@x.example',
    });
    expect(pickFields(body, PUBLIC_FIELDS)).toStrictEqual({
      identityId: 'x',
      displayName: 'D',
      givenNames: [],
      surnames: [],
      localities: [],
      disabled: false,
      isArchived: false,
    });
  });
});
