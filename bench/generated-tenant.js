// A deterministic tenant of `count` identities in the import format: two
// providers, an account per identity, a ring of friendships, two roles. The
// import benchmark (bench/import.js) and the tests' large import use it.
'use strict';

/** @param {string} id @param {number} count */
function generatedTenant(id, count) {
  const pad = (i) => String(i).padStart(6, '0');
  return {
    tenant: { id, name: `Generated ${count}`, adminRoles: ['admin'] },
    accountProviders: [
      { accountProviderId: 'password', signInUrl: 'https://login.example.org/p' },
      { accountProviderId: 'google', signInUrl: 'https://login.example.org/g', allowsMultipleAccounts: true },
    ],
    identities: Array.from({ length: count }, (_, i) => ({
      identityId: `user-${pad(i)}`,
      displayName: `User ${pad(i)}`,
      emailAddress: `user-${pad(i)}@example.org`,
      givenName: 'User',
      surname: pad(i),
      locality: 'en-GB',
      lastLogin: '2026-11-20T08:15:30.250',
      properties: { index: String(i) },
      roles: i % 100 === 0 ? ['admin', 'member'] : ['member'],
      friends: count > 1 ? [`user-${pad((i + 1) % count)}`] : [],
      accounts: [{ accountProviderId: i % 2 ? 'google' : 'password', issuedUserId: `issued-${pad(i)}` }],
    })),
    tokens: [{ token: `${id}-reader-app-token-0001`, type: 'app', appId: 'reader', scopes: ['identities:read'] }],
  };
}

module.exports = { generatedTenant };
