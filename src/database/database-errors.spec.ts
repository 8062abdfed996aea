import { isDatabaseUnavailable, isUnstorableText } from './database-errors';

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      }),
    ],
    [
      'Prisma: server unreachable',
      { name: 'PrismaClientKnownRequestError', code: 'P1001' },
    ],
    [
      'a terminated connection, wrapped by Prisma',
      {
        code: 'P2010',
        meta: { driverAdapterError: { cause: { code: '57P01' } } },
      },
    ],
    [
      'a database not accepting connections',
      {
        code: 'P2039',
        meta: { driverAdapterError: { cause: { originalCode: '55000' } } },
      },
    ],
    [
      'a refused connection, as the driver adapter reports it',
      Object.assign(new Error('DriverAdapterError'), {
        name: 'DriverAdapterError',
        cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 },
      }),
    ],
    [
      'Prisma: a transaction that could not start in time',
      Object.assign(
        new Error(
          'Transaction API error: Unable to start a transaction in the given time.',
        ),
        { name: 'PrismaClientKnownRequestError', code: 'P2028' },
      ),
    ],
    ['a pg connection loss', new Error('Connection terminated unexpectedly')],
    ['an initialization error', { name: 'PrismaClientInitializationError' }],
  ])('recognises %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: 'P2002' }],
    [
      'a syntax error',
      {
        code: 'P2010',
        meta: { driverAdapterError: { cause: { code: '42601' } } },
      },
    ],
    [
      'a unique violation, as the driver adapter reports it',
      {
        name: 'DriverAdapterError',
        cause: { kind: 'UniqueConstraintViolation', originalCode: '23505' },
      },
    ],
    ['a plain error', new Error('boom')],
    ['nothing', undefined],
  ])('does not mistake %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isUnstorableText', () => {
  it('recognises a NUL byte refused by PostgreSQL, however wrapped', () => {
    expect(
      isUnstorableText({
        code: 'P2010',
        meta: { driverAdapterError: { cause: { code: '22021' } } },
      }),
    ).toBe(true);
    expect(isUnstorableText({ code: 'P2002' })).toBe(false);
  });
});
