import {
  accountFromClaims,
  identityFromClaims,
  isProvisionableId,
  locality,
  signInTime,
} from './sign-in-claims';

describe('identityFromClaims', () => {
  it('maps every standard claim onto its field, primaries in their lists', () => {
    expect(
      identityFromClaims({
        name: 'Nora Berg',
        preferred_username: 'nora',
        given_name: 'Nora',
        family_name: 'Berg',
        email: 'nora@acme.example',
        email_verified: true,
        phone_number: '+1 (425) 555-1212;ext=12',
        phone_number_verified: true,
        picture: 'https://pictures.acme.example/nora.jpg',
        locale: 'nb_no',
      }),
    ).toStrictEqual({
      displayName: 'Nora Berg',
      userName: 'nora',
      givenName: 'Nora',
      givenNames: ['Nora'],
      surname: 'Berg',
      surnames: ['Berg'],
      emailAddress: 'nora@acme.example',
      emailAddresses: ['nora@acme.example'],
      emailAddressVerified: true,
      mobilePhone: '+1 (425) 555-1212;ext=12',
      mobilePhoneVerified: true,
      smallPictures: ['https://pictures.acme.example/nora.jpg'],
      mediumPictures: ['https://pictures.acme.example/nora.jpg'],
      largePictures: ['https://pictures.acme.example/nora.jpg'],
      locality: 'nb-NO',
      localities: ['nb-NO'],
    });
  });

  it('keeps an unverified e-mail address and phone as unverified', () => {
    expect(
      identityFromClaims({
        email: 'a@acme.example',
        email_verified: 'true',
        phone_number: '+4930123456',
        phone_number_verified: false,
      }),
    ).toStrictEqual({
      emailAddress: 'a@acme.example',
      emailAddresses: ['a@acme.example'],
      mobilePhone: '+4930123456',
    });
  });

  it.each([
    ['a number', 42],
    ['a list', ['x']],
    ['an object', { x: 1 }],
    ['null', null],
    ['an empty string', ''],
    ['blanks', '   '],
    ['U+0000', 'a\u0000b'],
    ['a lone surrogate', 'a\ud800b'],
    ['more than 512 characters', 'x'.repeat(513)],
  ])('drops claims that are %s', (_what, value) => {
    const claims = Object.fromEntries(
      [
        'name',
        'preferred_username',
        'given_name',
        'family_name',
        'email',
        'phone_number',
        'picture',
        'locale',
      ].map((claim) => [claim, value]),
    );
    expect(
      identityFromClaims({
        ...claims,
        email_verified: true,
        phone_number_verified: true,
      }),
    ).toStrictEqual({});
  });

  it.each([
    ['email', 'not-an-address'],
    ['email', 'a@b'],
    ['phone_number', 'call me'],
    ['phone_number', '12'],
    ['phone_number', '+1234567890123456'],
    ['picture', 'ftp://pictures.acme.example/a.jpg'],
    ['picture', '/relative.jpg'],
    ['locale', 'de'],
  ])('drops %s %j, which its field cannot hold', (claim, value) => {
    expect(identityFromClaims({ [claim]: value })).toStrictEqual({});
  });
});

describe('locality', () => {
  it.each([
    ['en-us', 'en-US'],
    ['en_US', 'en-US'],
    ['en-US', 'en-US'],
    ['EN-gb', 'en-GB'],
    ['zh-Hant-TW', 'zh-TW'],
    ['de', undefined],
    ['es-419', undefined],
    ['fil-PH', undefined],
    ['en-US-x-private', undefined],
    ['', undefined],
    [7, undefined],
  ])('maps %j to %j', (value, expected) => {
    expect(locality(value)).toBe(expected);
  });
});

describe('isProvisionableId', () => {
  it.each([
    ['nora', true],
    ['a.b_c-9', true],
    ['auth0|123', false],
    ['-x', false],
    ['roles', false],
    ['x'.repeat(129), false],
  ])('%j: %s', (subject, expected) => {
    expect(isProvisionableId(subject)).toBe(expected);
  });
});

describe('accountFromClaims', () => {
  it('names the account by the claim at the provider, with the claims that fit it', () => {
    expect(
      accountFromClaims(
        { name: 'Nora', email: 'bad', picture: 'https://p.example/n.jpg' },
        'acc-1',
        'acme-sso',
      ),
    ).toStrictEqual({
      accountId: 'acc-1',
      accountProviderId: 'acme-sso',
      issuedUserId: 'acc-1',
      displayName: 'Nora',
      emailAddress: null,
      pictureUrl: 'https://p.example/n.jpg',
    });
  });
});

describe('signInTime', () => {
  const now = Date.UTC(2026, 10, 21, 12);
  it('reads auth_time in seconds, to the millisecond', () => {
    expect(
      signInTime({ auth_time: now / 1000 - 60.1234 }, now, 30_000),
    ).toEqual(new Date(now - 60_124));
  });
  it('takes a time within the tolerance ahead as now, and ignores one beyond it', () => {
    expect(signInTime({ auth_time: now / 1000 + 10 }, now, 30_000)).toEqual(
      new Date(now),
    );
    expect(signInTime({ auth_time: now / 1000 + 31 }, now, 30_000)).toBe(
      undefined,
    );
  });
  it.each([['1700000000'], [-1], [Number.NaN], [null], [undefined]])(
    'ignores auth_time %j',
    (auth_time) => {
      expect(signInTime({ auth_time }, now, 30_000)).toBe(undefined);
    },
  );
});
