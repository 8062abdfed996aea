import { Pool } from 'pg';
import {
  QUERY_READ_TIMEOUT,
  watchQueries,
} from '../src/database/query-watchdog';
import { ADMIN_URL } from './support/postgres-admin';
import { TcpProxy } from './support/tcp-proxy';

// PostgreSQL only: the client side of DATABASE_QUERY_TIMEOUT_MS, on a pool
// of its own, bounded at 400 ms (looked at every 40 ms).
const LIMIT_MS = 400;

describe('the query watchdog', () => {
  const admin = new URL(ADMIN_URL);
  const proxy = new TcpProxy(admin.hostname, Number(admin.port || 5432));
  let pool: Pool;
  beforeAll(() => proxy.start());
  beforeEach(() => {
    proxy.restore();
    const url = new URL(ADMIN_URL);
    url.port = String(proxy.port);
    pool = new Pool({ connectionString: url.toString(), max: 2 });
    watchQueries(pool, LIMIT_MS);
  });
  afterEach(() => pool.end());
  afterAll(() => proxy.stop());

  const timed = async <T>(
    work: Promise<T>,
  ): Promise<{ value?: T; error?: Error; ms: number }> => {
    const started = Date.now();
    const outcome = await work.then(
      (value) => ({ value }),
      (error: Error) => ({ error }),
    );
    return { ...outcome, ms: Date.now() - started };
  };

  it('lets a query answered within the bound be', async () => {
    const { value } = await timed(pool.query('SELECT pg_sleep(0.1), 1 AS one'));
    expect(value?.rows).toEqual([{ pg_sleep: '', one: 1 }]);
    expect(pool.totalCount).toBe(1);
  });

  it('gives up on a query the server answers too late, and on its connection', async () => {
    await pool.query('SELECT 1');
    const { error, ms } = await timed(pool.query('SELECT pg_sleep(2)'));
    expect(error?.message).toBe(QUERY_READ_TIMEOUT);
    expect(ms).toBeGreaterThanOrEqual(LIMIT_MS - 40);
    expect(ms).toBeLessThan(LIMIT_MS + 300);
    expect(pool.totalCount).toBe(0);
    const { rows } = await pool.query('SELECT 2 AS two');
    expect(rows).toEqual([{ two: 2 }]);
  });

  it('gives up on a query to a server that no longer answers at all', async () => {
    await pool.query('SELECT 1');
    proxy.blackhole();
    const { error, ms } = await timed(pool.query('SELECT 1'));
    expect(error?.message).toBe(QUERY_READ_TIMEOUT);
    expect(ms).toBeLessThan(LIMIT_MS + 300);
    expect(pool.totalCount).toBe(0);
  });

  it('leaves a connection lent out with no query running alone, however long', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await new Promise((resolve) => setTimeout(resolve, 3 * LIMIT_MS));
      const { rows } = await client.query('SELECT 3 AS three');
      expect(rows).toEqual([{ three: 3 }]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(pool.totalCount).toBe(1);
  });
});
