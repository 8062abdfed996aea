import { toAccountProviders } from './accounts.mapper';
import { ProviderAccountRecord } from './accounts.repository';

const provider = (
  id: string,
  allowsMultipleAccounts: boolean,
  account?: Partial<ProviderAccountRecord>,
): ProviderAccountRecord => ({
  accountProviderId: id,
  providerDisplayName: null,
  providerImageUrl: null,
  signInUrl: `https://login.example/${id}`,
  allowsMultipleAccounts,
  linkable: false,
  lastLinkStart: '0',
  accountId: null,
  issuedUserId: null,
  accountPrivatePersonalIdentifier: null,
  displayName: null,
  emailAddress: null,
  accountProfileUrl: null,
  pictureUrl: null,
  ...account,
});

describe('toAccountProviders', () => {
  it('gives a provider without accounts an empty list and lets one be added', () => {
    expect(toAccountProviders([provider('p', false)], null)).toStrictEqual([
      {
        accountProviderId: 'p',
        accounts: [],
        canAddAnotherAccount: true,
        signInUrl: 'https://login.example/p',
      },
    ]);
  });

  it('allows another account only where the provider allows several', () => {
    const rows = [
      provider('single', false, { accountId: 'a1', issuedUserId: 'i1' }),
      provider('multi', true, { accountId: 'a2', issuedUserId: 'i2' }),
    ];
    expect(
      toAccountProviders(rows, null).map((p) => p.canAddAnotherAccount),
    ).toStrictEqual([false, true]);
  });

  it('groups consecutive rows of one provider, marks the current account, and maps every field', () => {
    // An account with a value in every field: each comes out as it went in.
    const everyField = {
      accountId: 'a1',
      issuedUserId: 'i1',
      accountPrivatePersonalIdentifier: 'pp',
      displayName: 'A',
      emailAddress: 'a@x.example',
      accountProfileUrl: 'https://profile.example/1',
      pictureUrl: 'https://pic.example/1',
    };
    const rows = [
      provider('g', true, {
        providerDisplayName: 'Google',
        providerImageUrl: 'https://img.example/g.png',
        ...everyField,
      }),
      provider('g', true, {
        providerDisplayName: 'Google',
        providerImageUrl: 'https://img.example/g.png',
        accountId: 'a2',
        issuedUserId: 'i2',
      }),
    ];
    expect(toAccountProviders(rows, 'a2')).toStrictEqual([
      {
        accountProviderId: 'g',
        displayName: 'Google',
        providerImageUrl: 'https://img.example/g.png',
        signInUrl: 'https://login.example/g',
        canAddAnotherAccount: true,
        accounts: [
          { ...everyField, isCurrent: false },
          { accountId: 'a2', issuedUserId: 'i2', isCurrent: true },
        ],
      },
    ]);
  });
});
