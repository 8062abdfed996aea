import { Logger } from '@nestjs/common';
import { lsnKey, parseLsn, Replica, ReplicaSet } from './replica-set';

/** A replica whose replay position the test sets; `null` is a server that is not a standby. */
function replica(name: string) {
  const r = {
    name,
    statements: {} as Replica['statements'],
    position: 0n as bigint | null | Error,
    async replayPosition() {
      if (r.position instanceof Error) throw r.position;
      return r.position;
    },
    close: async () => undefined,
  };
  return r;
}

describe('ReplicaSet', () => {
  let clock: number;
  let primary: bigint;
  const setOf = (replicas: Replica[], maxLagMs = 1000) =>
    new ReplicaSet(
      replicas,
      async () => primary,
      maxLagMs,
      100,
      () => clock,
    );

  beforeEach(() => {
    clock = 0;
    primary = 100n;
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('reads WAL positions as numbers that order, and keys them as text that orders the same', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(0x100000000n);
    expect(lsnKey(parseLsn('0/FFFFFFFF')) < lsnKey(parseLsn('1/0'))).toBe(true);
  });

  it('bounds staleness by the newest primary position the replica had replayed', async () => {
    const r = replica('r');
    const set = setOf([r]);
    expect(set.stalenessMs(r)).toBe(Infinity);
    r.position = 100n;
    await set.poll(); // the primary at 100 at time 0
    clock = 50;
    expect(set.stalenessMs(r)).toBe(50);
    primary = 200n;
    clock = 100;
    await set.poll(); // the primary at 200; the replica still at 100
    clock = 400;
    expect(set.stalenessMs(r)).toBe(400);
    r.position = 200n;
    clock = 500;
    await set.poll();
    clock = 510;
    expect(set.stalenessMs(r)).toBe(10);
  });

  it('chooses replicas within the bound in turn, and only those past a given write', async () => {
    const [a, b] = [replica('a'), replica('b')];
    const set = setOf([a, b]);
    a.position = 100n;
    b.position = 100n;
    await set.poll();
    expect([set.choose(), set.choose(), set.choose()]).toStrictEqual([a, b, a]);
    expect(set.choose(101n)).toBeUndefined();
    primary = 150n;
    b.position = 150n;
    await set.poll();
    expect([set.choose(150n), set.choose(150n)]).toStrictEqual([b, b]);
    clock = 1001;
    expect(set.anyWithinBound()).toBe(false);
    expect(set.choose()).toBeUndefined();
  });

  it('stops reading a replica that fails or is not a standby, until a poll reaches it again', async () => {
    const [down, primaryNotStandby] = [replica('down'), replica('promoted')];
    const set = setOf([down, primaryNotStandby]);
    down.position = 100n;
    primaryNotStandby.position = null;
    await set.poll();
    expect(set.choose()).toBe(down);
    set.failed(down, new Error('Connection terminated'));
    expect(set.choose()).toBeUndefined();
    down.position = new Error('connect ECONNREFUSED');
    await set.poll();
    expect(set.stalenessMs(down)).toBe(Infinity);
    down.position = 100n;
    await set.poll();
    expect(set.choose()).toBe(down);
    expect(set.stalenessMs(primaryNotStandby)).toBe(Infinity);
  });

  it("lets staleness grow while the primary's position cannot be read", async () => {
    const r = replica('r');
    let primaryAnswers = true;
    const set = new ReplicaSet(
      [r],
      async () => {
        if (!primaryAnswers) throw new Error('primary away');
        return primary;
      },
      1000,
      100,
      () => clock,
    );
    r.position = 100n;
    await set.poll();
    primaryAnswers = false;
    clock = 600;
    await set.poll();
    expect(set.stalenessMs(r)).toBe(600);
    clock = 1200;
    await set.poll();
    expect(set.choose()).toBeUndefined();
  });
});
