import { Readable } from 'node:stream';

/**
 * `pieces` as a stream that asks for the next piece only when its reader
 * wants one: a response that waits for a slow client holds no piece read
 * ahead for it (Readable.from reads on until its reader has paused, one
 * piece more per connection), and the rest stays where it is read from.
 * An error of `pieces` destroys the stream with it; the stream destroyed
 * (a client gone, an error) leaves the iteration, which lets go of what
 * `pieces` holds.
 */
export function onDemand(
  pieces: AsyncGenerator<string, void, undefined>,
): Readable {
  return new Readable({
    objectMode: true,
    highWaterMark: 0,
    read() {
      pieces.next().then(
        ({ value, done }) => this.push(done ? null : value),
        (error: Error) => this.destroy(error),
      );
    },
    destroy(error, done) {
      pieces.return().then(
        () => done(error),
        (failure: Error) => done(error ?? failure),
      );
    },
  });
}
