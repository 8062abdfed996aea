import { ConnectionFailed } from '../database/database-errors';
import { MigrationError } from '../database/migrator';
import { explainStartupError } from './startup';

const URL = 'postgresql://ada:s3cret@db.internal:5433/identity';
const pgError = (code: string) =>
  Object.assign(new Error(`error ${code}`), { code });

describe('explainStartupError', () => {
  it.each([
    [
      'a missing database',
      pgError('3D000'),
      'PostgreSQL at db.internal:5433 has no database "identity": create it (createdb -h db.internal -p 5433 identity) or point DATABASE_URL at an existing one.',
    ],
    [
      'a refused login',
      pgError('28P01'),
      'PostgreSQL at db.internal:5433 refused the login of user "ada": check the user and password in DATABASE_URL.',
    ],
    [
      'a server that is not running (one error per address tried)',
      new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]),
      'Cannot reach PostgreSQL at db.internal:5433: is it running there? Check DATABASE_URL.',
    ],
    [
      'a connection timeout',
      new Error('timeout expired'),
      'Cannot reach PostgreSQL at db.internal:5433: is it running there? Check DATABASE_URL.',
    ],
    [
      'the primary behind DATABASE_DIRECT_URL, not reachable',
      new ConnectionFailed(
        'DATABASE_DIRECT_URL',
        'postgresql://ada:s3cret@primary.internal:6543/identity',
        new AggregateError([pgError('ECONNREFUSED')]),
      ),
      'Cannot reach PostgreSQL at primary.internal:6543: is it running there? Check DATABASE_DIRECT_URL.',
    ],
    [
      'a refused login at DATABASE_DIRECT_URL',
      new ConnectionFailed(
        'DATABASE_DIRECT_URL',
        'postgresql://ops%20user:s3cret@primary.internal/identity',
        pgError('28P01'),
      ),
      'PostgreSQL at primary.internal:5432 refused the login of user "ops user": check the user and password in DATABASE_DIRECT_URL.',
    ],
    [
      'a port in use',
      pgError('EADDRINUSE'),
      'Port 3000 is already in use by another process: set PORT to a free one.',
    ],
    [
      'a failed migration, in its own words',
      new MigrationError('Migration x failed and was rolled back: boom'),
      'Migration x failed and was rolled back: boom',
    ],
    [
      'anything else, by its message only',
      new Error('something odd'),
      'Unexpected failure: something odd',
    ],
  ])('says %s in one line, without credentials', (_what, error, line) => {
    const message = explainStartupError(error, {
      databaseUrl: URL,
      port: 3000,
    });
    expect(message).toBe(line);
    expect(message).not.toContain('s3cret');
  });
});
