import { Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { SqlExecutor } from '../pool-statements';

/** A WAL position (`0/16B3748`) as a number that orders. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** A WAL position as fixed-width hex, which orders as text as it does as a number. */
export function lsnKey(lsn: bigint): string {
  return lsn.toString(16).padStart(16, '0');
}

/** One streaming replica: where to query it, and how far it has replayed. */
export interface Replica {
  readonly name: string;
  readonly statements: SqlExecutor;
  /** Its replay position, read by a query; null when it is not a standby. */
  replayPosition(): Promise<bigint | null>;
  close(): Promise<void>;
}

interface ReplicaState {
  replica: Replica;
  /** How far it had replayed at the last poll; undefined while it is not read. */
  replayed?: bigint;
  /** When the newest position of the primary it had replayed was taken. */
  caughtUpAt?: number;
  /** Why it is not read, once said in the log. */
  reason?: string;
}

/** How far back a replica's staleness is measured, at least. */
const HORIZON_MS = 60_000;

/**
 * How long replicas are read after the primary stopped answering, with the
 * staleness they had then: nothing commits without a primary, so they fall
 * no further behind until one answers again (or another instance can still
 * reach it: hence the limit).
 */
export const PRIMARY_LOST_READS_MS = 30_000;

/** A position of the primary and when (a monotonic clock) it was taken. */
interface Sample {
  at: number;
  lsn: bigint;
}

/**
 * The replicas of the primary, and how stale each is. Every poll first
 * notes the primary's WAL position and the time, then asks each replica how
 * far it has replayed. A replica that has replayed the position of a sample
 * has everything committed before that sample was taken, so its staleness
 * is at most the time since the newest such sample: a bound that holds
 * whether the primary is busy or idle, and that grows on its own while a
 * replica stops answering. Reads go only to replicas within `maxLagMs`.
 */
export class ReplicaSet {
  private readonly logger = new Logger('Replicas');
  private readonly states: ReplicaState[];
  private readonly samples: Sample[] = [];
  private timer?: NodeJS.Timeout;
  private polling = false;
  private next = 0;
  /** When the primary stopped answering the polls; undefined while it answers. */
  private primaryLostAt?: number;

  constructor(
    replicas: Replica[],
    /**
     * The primary's current WAL position; it rejects with `lost` true when
     * no primary can be reached (rather than a slow or failed query).
     */
    private readonly primaryPosition: () => Promise<bigint>,
    readonly maxLagMs: number,
    readonly pollMs = Math.max(5, Math.min(100, Math.floor(maxLagMs / 5))),
    private readonly now: () => number = () => performance.now(),
  ) {
    this.states = replicas.map((replica) => ({
      replica,
      reason: 'not polled yet',
    }));
  }

  start(): this {
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.pollMs).unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async close(): Promise<void> {
    this.stop();
    await Promise.all(this.states.map((s) => s.replica.close()));
  }

  get replicas(): Replica[] {
    return this.states.map((s) => s.replica);
  }

  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const at = this.now();
      try {
        this.samples.push({ at, lsn: await this.primaryPosition() });
        this.primaryLostAt = undefined;
      } catch (error) {
        // Without the primary's position nothing new is known; the
        // replicas' staleness grows until it answers again, unless no
        // primary can be reached at all (a failover under way).
        if ((error as { lost?: boolean }).lost) this.primaryLostAt ??= at;
      }
      this.prune(at);
      await Promise.all(this.states.map((state) => this.pollReplica(state)));
    } finally {
      this.polling = false;
    }
  }

  private async pollReplica(state: ReplicaState) {
    try {
      const replayed = await state.replica.replayPosition();
      if (replayed === null) this.unusable(state, 'it is not a standby');
      else {
        if (state.replayed === undefined && state.reason !== 'not polled yet')
          this.logger.log(`${state.replica.name} is read again`);
        state.replayed = replayed;
        state.caughtUpAt = this.takenBefore(replayed);
        state.reason = undefined;
      }
    } catch (error) {
      this.unusable(state, (error as Error).message);
    }
  }

  /** Takes a replica out of reading until a poll reaches it again. */
  failed(replica: Replica, error: Error): void {
    const state = this.states.find((s) => s.replica === replica);
    if (state) this.unusable(state, error.message);
  }

  private unusable(state: ReplicaState, reason: string) {
    const wasRead = state.replayed !== undefined;
    state.replayed = undefined;
    state.caughtUpAt = undefined;
    if (wasRead || state.reason === 'not polled yet')
      this.logger.warn(
        `${state.replica.name} is not read (${reason}); reads go to the primary or another replica`,
      );
    state.reason = reason;
  }

  /**
   * Keeps the samples a staleness can be measured from: a minute's, or
   * twice the bound's if longer. A replica further behind shows as Infinity.
   */
  private prune(now: number) {
    const oldest = now - Math.max(HORIZON_MS, 2 * this.maxLagMs);
    let drop = 0;
    while (drop < this.samples.length - 1 && this.samples[drop].at < oldest)
      drop++;
    this.samples.splice(0, drop);
  }

  /** When the newest sample at or before `lsn` was taken (samples only grow). */
  private takenBefore(lsn: bigint): number | undefined {
    let [low, high] = [0, this.samples.length - 1];
    let found: number | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (this.samples[middle].lsn <= lsn) {
        found = this.samples[middle].at;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  }

  /** At most how many milliseconds of commits the replica may lack now; Infinity when unknown. */
  stalenessMs(replica: Replica): number {
    const state = this.states.find((s) => s.replica === replica);
    return state ? this.staleness(state) : Infinity;
  }

  private staleness({ caughtUpAt }: ReplicaState): number {
    if (caughtUpAt === undefined) return Infinity;
    const lost = this.primaryLostAt;
    if (lost === undefined) return this.now() - caughtUpAt;
    return this.now() - lost > PRIMARY_LOST_READS_MS
      ? Infinity
      : Math.max(0, lost - caughtUpAt);
  }

  /** Whether the primary stopped answering the polls because it cannot be reached. */
  get primaryLost(): boolean {
    return this.primaryLostAt !== undefined;
  }

  /** Whether any replica is within the lag bound now. */
  anyWithinBound(): boolean {
    return this.states.some((s) => this.staleness(s) <= this.maxLagMs);
  }

  /**
   * A replica to read from, taking turns: within the lag bound and, when
   * `after` is given, past that position (a recent write the read must
   * see). Undefined when no replica qualifies: the primary then serves.
   */
  choose(after?: bigint): Replica | undefined {
    const count = this.states.length;
    for (let k = 0; k < count; k++) {
      const state = this.states[(this.next + k) % count];
      if (state.replayed === undefined) continue;
      if (after !== undefined && state.replayed < after) continue;
      if (this.staleness(state) > this.maxLagMs) continue;
      this.next = (this.next + k + 1) % count;
      return state.replica;
    }
    return undefined;
  }
}
