import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, toClientConfig } from 'pg-connection-string';
import {
  ConnectionStringError,
  connectionStringProblem,
  parseConnectionString,
  splitConnectionStrings,
} from './connection-string';

/** What a parse gives apart from its function. */
const fieldsOf = (text: string) =>
  Object.fromEntries(
    Object.entries(parseConnectionString(text)).filter(
      ([key]) => key !== 'configFor',
    ),
  );
const firstConfig = (text: string, tls = false) => {
  const parsed = parseConnectionString(text);
  return parsed.configFor(parsed.servers[0], tls);
};

describe('parseConnectionString', () => {
  it("reads pg_auto_failover's multi-host URI", () => {
    const text =
      'postgresql://127.0.0.1:6001,127.0.0.1:6002/db?target_session_attrs=read-write&sslmode=prefer';
    const parsed = parseConnectionString(text);
    expect(fieldsOf(text)).toStrictEqual({
      servers: [
        { host: '127.0.0.1', port: 6001 },
        { host: '127.0.0.1', port: 6002 },
      ],
      targetSessionAttrs: 'read-write',
      sslmode: 'prefer',
      loadBalanceHosts: 'disable',
      description: '127.0.0.1:6001,127.0.0.1:6002/db',
    });
    expect(parsed.configFor(parsed.servers[1], true)).toStrictEqual({
      host: '127.0.0.1',
      port: 6002,
      database: 'db',
      user: '',
      password: '',
      sslmode: 'prefer',
      ssl: { rejectUnauthorized: false },
    });
    expect(parsed.configFor(parsed.servers[1], false)).toStrictEqual({
      host: '127.0.0.1',
      port: 6002,
      database: 'db',
      user: '',
      password: '',
      sslmode: 'prefer',
      ssl: false,
    });
  });

  // Today pg reads these through pg-connection-string; the service must read them the same way.
  it.each([
    'postgresql://postgres@127.0.0.1:5432/test',
    'postgres://ada:p%40ss@db.example:5433/identity?application_name=identity&connect_timeout=5&options=-c%20search_path%3Dpublic',
    'postgresql://ada:s3c@ret@db:5432/x?keepalives=1&statement_timeout=1000&client_encoding=UTF8',
    'postgresql://ada@db:5432/x?ssl=true&fallback_application_name=svc',
    'postgresql://%2Fvar%2Frun%2Fpostgresql:5432/db',
    'postgresql://db:5432/x?user=ada&password=s3cret',
  ])('gives for %s what pg reads from it today', (text) => {
    expect(firstConfig(text)).toEqual(toClientConfig(parse(text)));
  });

  it.each([
    'postgresql://ada:s3cret@db:5432/x?sslmode=disable',
    'postgresql://ada:s3cret@db:5432/x?sslmode=require&application_name=svc',
    'postgresql://ada:s3cret@db:5432/x?sslmode=verify-full',
  ])('gives for %s what pg reads with libpq semantics', (text) => {
    expect(firstConfig(text, true)).toEqual(
      toClientConfig(parse(text, { useLibpqCompat: true })),
    );
  });

  it("names the port that pg would otherwise take from PGPORT or its default, and pg's default host", () => {
    expect(firstConfig('postgresql://ada@db/x')).toStrictEqual({
      host: 'db',
      port: 5432,
      database: 'x',
      user: 'ada',
      password: '',
    });
    expect(fieldsOf('postgresql:///x').servers).toStrictEqual([
      { host: 'localhost', port: 5432 },
    ]);
  });

  it('reads IPv6 addresses in brackets, with their ports or the default', () => {
    const text = 'postgresql://ada@[::1]:6001,[fe80::1%25eth0]/db';
    expect(fieldsOf(text)).toStrictEqual({
      servers: [
        { host: '::1', port: 6001 },
        { host: 'fe80::1%eth0', port: 5432 },
      ],
      targetSessionAttrs: 'any',
      sslmode: undefined,
      loadBalanceHosts: 'disable',
      description: '[::1]:6001,[fe80::1%eth0]:5432/db',
    });
    expect(firstConfig(text)).toMatchObject({ host: '::1', port: 6001 });
  });

  it.each([
    [
      'postgresql://%2Fvar%2Frun%2Fpostgresql,%2Ftmp:6001/db',
      [
        ['/var/run/postgresql', 5432],
        ['/tmp', 6001],
      ],
    ],
    [
      'postgresql:///db?host=/var/run/postgresql,/tmp&port=6001',
      [
        ['/var/run/postgresql', 6001],
        ['/tmp', 6001],
      ],
    ],
    ['host=/var/run/postgresql dbname=db', [['/var/run/postgresql', 5432]]],
  ])('reads the Unix-socket directories of %s', (text, servers) => {
    const parsed = parseConnectionString(text);
    expect(parsed.servers).toStrictEqual(
      servers.map(([host, port]) => ({ host, port })),
    );
    expect(parsed.configFor(parsed.servers[0], false).host).toBe(
      '/var/run/postgresql',
    );
  });

  it('reads key=value pairs: quoted values, escapes, spaces around =', () => {
    const text =
      "host=h1,h2 port = 6001,6002 dbname=db user=u password='it\\'s a \\\\ secret' " +
      "target_session_attrs=read-write load_balance_hosts=random application_name='identity service' options=-c\\ x=1";
    const parsed = parseConnectionString(text);
    expect(fieldsOf(text)).toStrictEqual({
      servers: [
        { host: 'h1', port: 6001 },
        { host: 'h2', port: 6002 },
      ],
      targetSessionAttrs: 'read-write',
      sslmode: undefined,
      loadBalanceHosts: 'random',
      description: 'h1:6001,h2:6002/db',
    });
    expect(parsed.configFor(parsed.servers[1], false)).toStrictEqual({
      host: 'h2',
      port: 6002,
      database: 'db',
      user: 'u',
      password: "it's a \\ secret",
      application_name: 'identity service',
      options: '-c x=1',
    });
  });

  it('gives key=value pairs the configuration of the same URI', () => {
    expect(
      firstConfig(
        "host=db port=5433 dbname='my db' user=ada password=p@ss sslmode=require connect_timeout=5",
        true,
      ),
    ).toStrictEqual(
      firstConfig(
        'postgresql://ada:p%40ss@db:5433/my%20db?sslmode=require&connect_timeout=5',
        true,
      ),
    );
  });

  it.each([
    [
      'postgresql://a,b,c/db?port=6001',
      [
        ['a', 6001],
        ['b', 6001],
        ['c', 6001],
      ],
    ],
    [
      'postgresql://a,b/db?port=6001,6002',
      [
        ['a', 6001],
        ['b', 6002],
      ],
    ],
    [
      'postgresql://a:6001,b/db',
      [
        ['a', 6001],
        ['b', 5432],
      ],
    ],
    [
      'postgresql://x:1/db?host=a,b',
      [
        ['a', 1],
        ['b', 1],
      ],
    ],
    [
      'host=a,b port=6001,',
      [
        ['a', 6001],
        ['b', 5432],
      ],
    ],
  ])('pairs the hosts and ports of %s as libpq does', (text, servers) => {
    expect(fieldsOf(text).servers).toStrictEqual(
      servers.map(([host, port]) => ({ host, port })),
    );
  });

  describe('sslmode, with libpq meaning', () => {
    let dir: string;
    let ca: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'connection-string-'));
      ca = join(dir, 'root.crt');
      writeFileSync(ca, 'the CA certificate');
    });
    afterAll(() => rmSync(dir, { recursive: true }));

    const unverified = { rejectUnauthorized: false };
    const chainOnly = {
      ca: 'the CA certificate',
      checkServerIdentity: expect.any(Function) as unknown,
    };
    it.each([
      ['', undefined, undefined],
      ['&ssl=true', true, true],
      ['&sslmode=disable', false, false],
      ['&sslmode=allow', unverified, false],
      ['&sslmode=prefer', unverified, false],
      ['&sslmode=require', unverified, unverified],
      ['&sslmode=require&sslrootcert=CA', chainOnly, chainOnly],
      ['&sslmode=verify-ca&sslrootcert=CA', chainOnly, chainOnly],
      ['&sslmode=verify-full', {}, {}],
      [
        '&sslmode=verify-full&sslrootcert=CA',
        { ca: 'the CA certificate' },
        { ca: 'the CA certificate' },
      ],
    ])(
      '?x=1%s gives ssl %j with TLS and %j without',
      (query, withTls, without) => {
        const text = `postgresql://db/x?x=1${query.replace('CA', ca)}`;
        expect(firstConfig(text, true).ssl).toEqual(withTls);
        expect(firstConfig(text, false).ssl).toEqual(without);
      },
    );
  });

  it('never hands pg the parameters it does not know', () => {
    const config = firstConfig(
      'postgresql://db/x?target_session_attrs=primary&load_balance_hosts=random&uselibpqcompat=true&application_name=svc',
    );
    expect(config).toStrictEqual({
      host: 'db',
      port: 5432,
      database: 'x',
      user: '',
      password: '',
      application_name: 'svc',
    });
  });

  it('describes where a string points without user or password', () => {
    expect(fieldsOf('postgresql://ada:s3cret@db').description).toBe('db:5432');
    expect(
      fieldsOf('host=db user=ada password=s3cret dbname=my%20db').description,
    ).toBe('db:5432/my%20db');
  });
});

describe('connectionStringProblem', () => {
  // Every string the service took before multi-host strings.
  it.each([
    'postgresql://postgres@127.0.0.1:5432/test',
    'postgres://u:p%40ss@db/identity?sslmode=require',
    'postgresql://db/x?options=-c%20search_path%3Dpublic',
    'postgresql://u@db/identity',
    'postgresql://ada:s3c@ret@db/x',
    'postgresql://ada@db/x?password=s3cret&a=1',
    'postgresql://db',
    'postgresql:///x',
    'postgresql://db:/x',
    'postgresql://[::1]:5432/x',
  ])('accepts %s', (text) => {
    expect(connectionStringProblem(text)).toBeUndefined();
  });

  const escape =
    'has a malformed percent-escape in its user, password or database name (a % itself is written %25)';
  const notOne =
    'must be a postgresql:// connection string (or libpq key=value pairs)';
  const keyValue =
    "has a key=value pair libpq cannot read (a value with spaces goes in single quotes; a ' or \\ in it is written \\' or \\\\)";
  const port = 'has a port that is not a whole number from 1 to 65535';
  it.each([
    ['mysql://ada:hunter2@db/x', notOne],
    ['hunter2', notOne],
    ['postgresql://ada:hunter 2@db/x', notOne],
    ['postgresql://ada:hunter2@[::1/x', notOne],
    ['postgresql://ada:hunter2@db/identity%zz', escape],
    ['postgresql://ada%e9:hunter2@db/identity', escape],
    ['postgresql://ada:hunter2%@db/identity', escape],
    [
      'postgresql://ada:hunter2@d%zzb/x',
      'has a malformed percent-escape in a host (a % itself is written %25)',
    ],
    ["host=db password='hunter2", keyValue],
    ["host=db password='hunter''2'", keyValue],
    ['host=db password hunter2', keyValue],
    ['postgresql://ada:hunter2@db:0/x', port],
    ['postgresql://ada:hunter2@db:65536/x', port],
    ['postgresql://ada:hunter2/x@db/x', port],
    ['host=db port=5432x password=hunter2', port],
    [
      'postgresql://ada:hunter2@a,b/x?port=1,2,3',
      'has 2 hosts and 3 ports; libpq takes one port for all hosts or one per host',
    ],
    [
      'postgresql://ada:hunter2@db/x?target_session_attrs=primary-ish',
      'has target_session_attrs=primary-ish; libpq knows any, read-write, read-only, primary, standby, prefer-standby',
    ],
    [
      'postgresql://ada:hunter2@db/x?sslmode=no-verify',
      'has sslmode=no-verify; libpq knows disable, allow, prefer, require, verify-ca, verify-full',
    ],
    [
      'host=db password=hunter2 load_balance_hosts=yes',
      'has load_balance_hosts=yes; libpq knows disable, random',
    ],
    [
      'postgresql://ada:hunter2@db/x?sslmode=verify-ca',
      'has sslmode=verify-ca without sslrootcert, the CA certificate it verifies the server against',
    ],
  ])('refuses %s: %s', (text, message) => {
    expect(connectionStringProblem(text)).toBe(message);
    expect(() => parseConnectionString(text)).toThrow(ConnectionStringError);
    expect(message).not.toMatch(/hunter/);
  });
});

describe('splitConnectionStrings', () => {
  it.each([
    [
      'postgresql://a:6001,b:6002/db?target_session_attrs=read-only, postgres://c,d/db,postgresql://e/db',
      [
        'postgresql://a:6001,b:6002/db?target_session_attrs=read-only',
        'postgres://c,d/db',
        'postgresql://e/db',
      ],
    ],
    [
      'postgresql://u@replica-1/identity, postgresql://u@replica-2/identity',
      [
        'postgresql://u@replica-1/identity',
        'postgresql://u@replica-2/identity',
      ],
    ],
    [
      'host=a,b port=6001,6002 dbname=db',
      ['host=a,b port=6001,6002 dbname=db'],
    ],
  ])('splits %s', (list, texts) => {
    expect(splitConnectionStrings(list)).toStrictEqual(texts);
  });
});
