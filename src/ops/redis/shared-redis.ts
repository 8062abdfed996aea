import { Logger } from '@nestjs/common';
import Redis from 'ioredis';

/** How often a Redis that stopped answering is tried again. */
const PROBE_INTERVAL_MS = 250;

/**
 * The instance's one connection to the Redis that instances share (rate-limit
 * counts, the positions of recent writes), behind a breaker. Every command is
 * bounded by `timeoutMs`. When Redis fails or is slow (refusing connections,
 * or paused with the connection open) the breaker opens: one warning is
 * logged, the users fall back meanwhile (counting in this instance, reading
 * from the primary), and Redis is tried again in the background until it
 * answers. Redis must never take the service down or hold a request.
 */
export class SharedRedis {
  private readonly logger = new Logger('Redis');
  readonly client: Redis;
  private probe?: NodeJS.Timeout;
  private started = false;
  private recoveredAt = -Infinity;

  private constructor(
    url: string,
    timeoutMs: number,
    private readonly fallbacks: string[],
  ) {
    this.client = new Redis(url, {
      commandTimeout: timeoutMs,
      connectTimeout: Math.max(timeoutMs, 1000),
      maxRetriesPerRequest: 0,
      // Fail at once while disconnected, and never send a timed-out command
      // again later (a count would be counted twice).
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
    });
    // Before the first connection, connect() judges whether Redis is there.
    this.client.on('error', (error: Error) => {
      if (this.started) this.fail(error);
    });
    this.client.once('ready', () => (this.started = true));
  }

  /**
   * Waits for the first connection, at most `timeoutMs` (and a second at
   * least); past it the breaker opens and the service starts without Redis.
   * `fallbacks` say what the users do meanwhile, for the warning.
   */
  static async connect(
    url: string,
    timeoutMs: number,
    fallbacks: string[],
  ): Promise<SharedRedis> {
    const redis = new SharedRedis(url, timeoutMs, fallbacks);
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.max(timeoutMs, 1000));
      redis.client.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) redis.fail(new Error('no connection at start'));
    return redis;
  }

  /** Whether Redis is in use (false while the breaker is open). */
  get available(): boolean {
    return this.probe === undefined;
  }

  /** Milliseconds since Redis last failed this instance: 0 while it is away, Infinity if it never failed. */
  get msSinceFailure(): number {
    return this.available ? Date.now() - this.recoveredAt : 0;
  }

  /**
   * Runs commands while Redis is available; undefined when it is not or the
   * commands fail (which opens the breaker).
   */
  async run<T>(
    commands: (client: Redis) => Promise<T>,
  ): Promise<T | undefined> {
    if (!this.available) return undefined;
    try {
      return await commands(this.client);
    } catch (error) {
      this.fail(error as Error);
      return undefined;
    }
  }

  private fail(error: Error) {
    if (!this.available) return;
    this.logger.warn(
      `Redis does not answer (${error.message}); ${this.fallbacks.join(' and ')} until it does`,
    );
    this.probe = setInterval(() => {
      this.client.ping().then(
        () => {
          clearInterval(this.probe);
          this.probe = undefined;
          this.recoveredAt = Date.now();
          this.logger.log('Redis answers again');
        },
        () => undefined,
      );
    }, PROBE_INTERVAL_MS).unref();
  }

  close(): void {
    clearInterval(this.probe);
    this.client.disconnect();
  }
}
