import { isOnIssuerHost, outboundUrlProblem } from './outbound-url';

describe('outboundUrlProblem', () => {
  it.each([
    'https://login.example.org/realms/acme',
    'http://localhost:8080/realms/acme',
    'http://127.0.0.1:9000/x',
    'http://127.10.0.1/x',
    'http://[::1]:9000/x',
    'http://auth.localhost/x',
  ])('lets the service fetch from %s', (url) => {
    expect(outboundUrlProblem(url)).toBeUndefined();
  });

  it.each([
    [
      'http://login.example.org/x',
      'must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)',
    ],
    [
      'ftp://localhost/x',
      'must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)',
    ],
    [
      'https://169.254.169.254/latest/meta-data',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'http://2852039166/',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'https://[fe80::1]/x',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'https://metadata.google.internal/computeMetadata/v1',
      'must not name a link-local address or a cloud metadata service',
    ],
    // The same addresses and names, spelled otherwise.
    ...[
      'https://[::ffff:169.254.169.254]/x',
      'https://[::ffff:a9fe:a9fe]/x',
      'https://[64:ff9b::169.254.169.254]/x',
      'https://[64:ff9b::a9fe:a9fe]/x',
      'https://[::169.254.169.254]/x',
      'https://metadata.google.internal./x',
      'https://METADATA.Google.Internal../x',
      'https://instance-data./x',
      'https://[fd00:ec2:0::254]/x',
      'https://[::ffff:100.100.100.200]/x',
    ].map((url) => [
      url,
      'must not name a link-local address or a cloud metadata service',
    ]),
    [
      'https://METADATA/x',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'http://[fd00:ec2::254]/x',
      'must not name a link-local address or a cloud metadata service',
    ],
    ['not a url', 'must be an absolute URL'],
    [
      'https://user:secret@login.example.org/x',
      'must not carry a user name or password',
    ],
    ['http://user@localhost:9000/x', 'must not carry a user name or password'],
    ...[
      'https://0.0.0.0/x',
      'http://0.0.0.0:9000/x',
      'https://[::]/x',
      'https://[::ffff:0.0.0.0]/x',
      'https://224.0.0.1/x',
      'https://[ff02::1]/x',
      'https://255.255.255.255/x',
    ].map((url) => [
      url,
      'must not name an unspecified, multicast or reserved address',
    ]),
  ])('refuses %s: %s', (url, problem) => {
    expect(outboundUrlProblem(url)).toBe(problem);
  });
});

describe('isOnIssuerHost', () => {
  it.each([
    [
      'https://login.example.org/keys',
      'https://login.example.org/realms/a',
      true,
    ],
    [
      'https://login.example.org:8443/keys',
      'https://login.example.org/realms/a',
      false,
    ],
    [
      'https://keys.example.org/keys',
      'https://login.example.org/realms/a',
      false,
    ],
    [
      'http://login.example.org/keys',
      'https://login.example.org/realms/a',
      false,
    ],
    ['http://127.0.0.1:9/keys', 'http://127.0.0.1:8/realms/a', true],
    // A remote issuer's document does not choose a port of the host.
    ['http://127.0.0.1:9/keys', 'https://login.example.org/realms/a', false],
    ['https://169.254.169.254/keys', 'https://login.example.org/', false],
  ])('%s for issuer %s → %s', (jwks, issuer, expected) => {
    expect(isOnIssuerHost(jwks, issuer, true)).toBe(expected);
  });
});
