/**
 * One costly reading shared by everyone who asks: callers while it runs
 * wait for it, and callers within `maxAgeMs` of its end get its result. So
 * however often it is asked for, at most one runs at a time, and at most
 * one starts per `maxAgeMs` after the last one ended.
 */
export class SharedReading<T> {
  private latest?: { value: Promise<T>; endedAt?: number };

  constructor(
    private readonly read: () => Promise<T>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get(): Promise<T> {
    if (this.latest && !this.stale(this.latest)) return this.latest.value;
    const reading: { value: Promise<T>; endedAt?: number } = {
      value: this.read(),
    };
    const ended = () => void (reading.endedAt = this.now());
    reading.value.then(ended, ended);
    this.latest = reading;
    return reading.value;
  }

  private stale({ endedAt }: { endedAt?: number }): boolean {
    return endedAt !== undefined && this.now() - endedAt >= this.maxAgeMs;
  }
}
