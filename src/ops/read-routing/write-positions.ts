import type { SharedRedis } from '../redis/shared-redis';
import { lsnKey } from '../../database/replicas/replica-set';
import { ENTRY_BYTES, stringBytes } from '../../common/cache-budget';

/**
 * The WAL position of each tenant's latest write, so that a read anywhere
 * can tell whether a replica has it. A position is kept for `ttlMs`: past
 * that, any replica within the lag bound has replayed it.
 */
export interface WritePositions {
  record(tenantId: string, lsn: bigint): Promise<void>;
  /**
   * The tenant's latest write position; undefined when none is recent;
   * 'unknown' when it cannot be told (Redis away), so the read must go to
   * the primary.
   */
  latest(tenantId: string): Promise<bigint | undefined | 'unknown'>;
}

/** The most tenants an instance remembers, and their bytes; the oldest goes first. */
export const MAX_TENANTS = 100_000;
export const MAX_POSITION_BYTES = 16 * 1024 * 1024;

/** A position's bytes: the tenant's id, the Map's entry, the object and its bigint. */
export const positionBytes = (tenantId: string) =>
  ENTRY_BYTES + 32 + stringBytes(tenantId);

/** Positions in this process: read-your-writes holds within one instance. */
export class MemoryWritePositions implements WritePositions {
  private readonly positions = new Map<string, { lsn: bigint; ends: number }>();
  private held = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes = MAX_POSITION_BYTES,
  ) {}

  async record(tenantId: string, lsn: bigint): Promise<void> {
    const known = this.positions.get(tenantId);
    this.forget(tenantId);
    const bytes = positionBytes(tenantId);
    while (
      this.positions.size > 0 &&
      (this.positions.size >= MAX_TENANTS || this.held + bytes > this.maxBytes)
    )
      this.forget(this.positions.keys().next().value!);
    this.positions.set(tenantId, {
      lsn: known && known.lsn > lsn ? known.lsn : lsn,
      ends: Date.now() + this.ttlMs,
    });
    this.held += bytes;
  }

  async latest(tenantId: string): Promise<bigint | undefined> {
    const known = this.positions.get(tenantId);
    if (!known) return undefined;
    if (known.ends > Date.now()) return known.lsn;
    this.forget(tenantId);
    return undefined;
  }

  /** The bytes the positions take, as positionBytes counts them. */
  get bytes(): number {
    return this.held;
  }

  private forget(tenantId: string) {
    if (this.positions.delete(tenantId)) this.held -= positionBytes(tenantId);
  }
}

// Keeps the greater position (fixed-width hex orders as text) and renews
// its expiry: two writers racing can never move it back.
const RECORD = `
local known = redis.call('GET', KEYS[1])
if not known or known < ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

/** Positions in Redis, shared by every instance: read-your-writes across them. */
export class RedisWritePositions implements WritePositions {
  constructor(
    private readonly redis: SharedRedis,
    private readonly ttlMs: number,
  ) {}

  private key = (tenantId: string) => `identity:written:${tenantId}`;

  async record(tenantId: string, lsn: bigint): Promise<void> {
    await this.redis.run((client) =>
      client.eval(RECORD, 1, this.key(tenantId), lsnKey(lsn), this.ttlMs),
    );
  }

  async latest(tenantId: string): Promise<bigint | undefined | 'unknown'> {
    // Positions this instance could not record while Redis was away would
    // be missing for as long as they matter.
    if (this.redis.msSinceFailure < this.ttlMs) return 'unknown';
    const answer = await this.redis.run(async (client) => ({
      known: await client.get(this.key(tenantId)),
    }));
    if (!answer) return 'unknown';
    return answer.known === null ? undefined : BigInt(`0x${answer.known}`);
  }
}
