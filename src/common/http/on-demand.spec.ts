import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { onDemand } from './on-demand';

/** Pieces 'a', 'b', …, counting how many were asked for and whether the iteration was left. */
function counted(count: number, failAt?: number) {
  const state = { asked: 0, left: false };
  async function* pieces(): AsyncGenerator<string, void, undefined> {
    try {
      for (let n = 0; n < count; n++) {
        state.asked++;
        if (n === failAt) throw new Error('the read failed');
        yield String.fromCharCode(97 + n);
      }
    } finally {
      state.left = true;
    }
  }
  return { pieces: pieces(), state };
}

/** A reader that takes a piece only when `release` is called: a client reading slowly. */
function slowReader() {
  const taken: string[] = [];
  const waiting: (() => void)[] = [];
  const writable = new Writable({
    objectMode: true,
    highWaterMark: 1,
    write(piece: string, _encoding, done) {
      taken.push(piece);
      waiting.push(done);
    },
  });
  const release = () => waiting.shift()?.();
  return { writable, taken, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('onDemand', () => {
  it('asks for a piece only when the reader has taken the last', async () => {
    const { pieces, state } = counted(4);
    const { writable, taken, release } = slowReader();
    const piped = pipeline(onDemand(pieces), writable);
    await settle();
    // The reader is busy with 'a': nothing more is asked for meanwhile.
    expect(taken).toStrictEqual(['a']);
    expect(state.asked).toBe(1);
    await settle();
    expect(state.asked).toBe(1);
    for (let n = 1; n < 4; n++) {
      release();
      await settle();
      expect([taken.length, state.asked]).toStrictEqual([n + 1, n + 1]);
    }
    release();
    await piped;
    expect(taken).toStrictEqual(['a', 'b', 'c', 'd']);
    expect(state).toStrictEqual({ asked: 4, left: true });
  });

  it('fails with the error of a piece, and leaves the iteration', async () => {
    const { pieces, state } = counted(4, 1);
    const { writable, taken, release } = slowReader();
    const piped = pipeline(onDemand(pieces), writable);
    await settle();
    release();
    await expect(piped).rejects.toThrow('the read failed');
    expect(taken).toStrictEqual(['a']);
    expect(state.left).toBe(true);
  });

  it('leaves the iteration when the stream is destroyed before its end', async () => {
    const { pieces, state } = counted(4);
    const stream = onDemand(pieces);
    const first: unknown = await new Promise((resolve) =>
      stream.once('data', resolve),
    );
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(first).toBe('a');
    expect(state.left).toBe(true);
    expect(state.asked).toBeLessThan(4);
  });
});
