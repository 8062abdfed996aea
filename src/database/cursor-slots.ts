import { NoCursorSlot } from './database-errors';

/**
 * How many of the pool's connections may hold a cursor open at once. A
 * cursor stays open while its reader reads, as slowly as a client
 * downloads, so only some of the pool may be held that way: the rest stays
 * free for every other statement. A cursor waits its turn, first come first
 * served, at most `waitMs` (the pool's own wait for a connection), and then
 * fails as an exhausted pool does (503).
 */
export class CursorSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    size: number,
    private readonly waitMs: number,
    /** How long a cursor may be held, in all (DATABASE_QUERY_TIMEOUT_MS). */
    readonly holdMs: number,
  ) {
    this.free = size;
  }

  /** A slot, once one is free; given back with `give`. */
  take(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        reject(new NoCursorSlot(this.waitMs));
      }, this.waitMs);
      this.waiting.push(turn);
    });
  }

  /** Gives a slot back: to the first cursor waiting, if any. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}
