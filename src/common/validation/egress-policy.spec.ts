import {
  addressClassOf,
  EgressPolicy,
  egressFieldErrors,
  egressUrlProblem,
} from './egress-policy';

describe('addressClassOf', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.10.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['localhost', 'loopback'],
    ['issuer.localhost.', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:c0a8:101', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::10.0.0.1', 'private'],
    ['2002:a00:1::', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00:ec2::254', 'link-local'],
    ['100.100.100.200', 'link-local'],
    ['168.63.129.16', 'link-local'],
    ['64:ff9b:1::a9fe:a9fe', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['::ffff:0:a00:1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['metadata.google.internal.', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['::ffff:0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['login.example.org', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(addressClassOf(address)).toBe(expected);
  });
});

describe('egressUrlProblem', () => {
  it.each([
    ['http://127.0.0.1:4000/', 'must not name a loopback address', undefined],
    ['http://localhost:4000/', 'must not name a loopback address', undefined],
    ['http://[::1]:4000/', 'must not name a loopback address', undefined],
    ['https://10.0.0.1/', 'must not name a private network address', undefined],
    [
      'https://[::ffff:10.0.0.1]/',
      'must not name a private network address',
      undefined,
    ],
    [
      'https://100.64.0.1/',
      'must not name a private network address',
      undefined,
    ],
    [
      'https://[fc00::1]/',
      'must not name a private network address',
      undefined,
    ],
    [
      'http://10.0.0.1/',
      'must not name a private network address',
      'must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)',
    ],
    [
      'https://0.0.0.0/',
      'must not name an unspecified, multicast or reserved address',
      'must not name an unspecified, multicast or reserved address',
    ],
    [
      'https://[::]/',
      'must not name an unspecified, multicast or reserved address',
      'must not name an unspecified, multicast or reserved address',
    ],
    [
      'https://169.254.169.254/',
      'must not name a link-local address or a cloud metadata service',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'https://user:pass@login.example.org/',
      'must not carry a user name or password',
      'must not carry a user name or password',
    ],
    ['https://login.example.org/', undefined, undefined],
  ])(
    '%s: %s for a tenant not listed, %s for a listed one',
    (url, unlisted, listed) => {
      expect(egressUrlProblem(url, false)).toBe(unlisted);
      expect(egressUrlProblem(url, true)).toBe(listed);
    },
  );
});

describe('EgressPolicy', () => {
  it('lets only the listed tenants reach private networks', () => {
    const policy = new EgressPolicy({ egressPrivateNetworkTenants: ['demo'] });
    expect([
      policy.allowsPrivate('demo'),
      policy.allowsPrivate('acme'),
    ]).toStrictEqual([true, false]);
    expect(policy.allowsPrivate(undefined)).toBe(false);
  });
});

describe('egressFieldErrors', () => {
  const urls = {
    'link.tokenEndpoint': 'https://login.example.org/token',
    'link.userInfoEndpoint': 'http://127.0.0.1:8080/internal',
    'link.issuer': undefined,
  };

  it('names the fields the policy refuses for a tenant not listed', () => {
    expect(egressFieldErrors(false, urls)).toStrictEqual([
      {
        field: 'link.userInfoEndpoint',
        message: 'must not name a loopback address',
      },
    ]);
  });

  it('names none for a listed tenant', () => {
    expect(egressFieldErrors(true, urls)).toStrictEqual([]);
  });
});
