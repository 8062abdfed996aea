import { applyUpdate } from './identity-update';
import { emptyIdentity } from './identity-fields';
import { IdentityRecord } from './identity.record';

const CURRENT: IdentityRecord = {
  ...emptyIdentity('x'),
  version: 3n,
  displayName: 'Old',
  userName: 'u',
  emailAddress: 'a@x.example',
  emailAddresses: ['a@x.example', 'b@x.example'],
  emailAddressVerified: true,
  givenName: 'G',
  givenNames: ['G'],
  surname: 'S',
  surnames: ['S'],
  locality: 'en-GB',
  localities: ['en-GB'],
  mobilePhone: '+1',
  mobilePhoneVerified: true,
  privatePersonalIdentifier: 'p',
  properties: { a: '1' },
};

describe('applyUpdate', () => {
  it('changes only what the body names', () => {
    expect(applyUpdate(CURRENT, { displayName: 'New' })).toStrictEqual({
      changes: { displayName: 'New' },
      fields: ['displayName'],
    });
  });

  it('clears with null: text to absent, lists to empty, properties to empty', () => {
    const update = {
      userName: null,
      givenName: null,
      givenNames: null,
      properties: null,
    };
    expect(applyUpdate(CURRENT, update).changes).toStrictEqual({
      userName: null,
      givenName: null,
      givenNames: [],
      properties: {},
    });
  });

  it('keeps the primary value when only its list is cleared', () => {
    expect(applyUpdate(CURRENT, { givenNames: null })).toStrictEqual({
      changes: {},
      fields: [],
    });
  });

  it('replaces properties whole', () => {
    expect(
      applyUpdate(CURRENT, { properties: { b: '2' } }).changes,
    ).toStrictEqual({ properties: { b: '2' } });
  });

  it('keeps a primary value in its list, at the front', () => {
    expect(applyUpdate(CURRENT, { surname: 'T' }).changes).toStrictEqual({
      surname: 'T',
      surnames: ['T', 'S'],
    });
    expect(
      applyUpdate(CURRENT, { localities: ['de-DE'] }).changes,
    ).toStrictEqual({ localities: ['en-GB', 'de-DE'] });
  });

  it('unverifies a changed e-mail address or mobile phone, not a re-sent one', () => {
    expect(
      applyUpdate(CURRENT, { emailAddress: 'c@x.example' }).changes,
    ).toStrictEqual({
      emailAddress: 'c@x.example',
      emailAddresses: ['c@x.example', 'a@x.example', 'b@x.example'],
      emailAddressVerified: false,
    });
    expect(applyUpdate(CURRENT, { mobilePhone: null }).changes).toStrictEqual({
      mobilePhone: null,
      mobilePhoneVerified: false,
    });
    expect(
      applyUpdate(CURRENT, { emailAddress: 'a@x.example', mobilePhone: '+1' }),
    ).toStrictEqual({ changes: {}, fields: [] });
  });
});
