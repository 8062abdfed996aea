import type { PGlite } from '@electric-sql/pglite';

/** ReadyForQuery: the backend has answered a whole exchange and waits for the next. */
const READY_FOR_QUERY = 0x5a;
/** Terminate: a client's last message, which the backend answers with nothing. */
const TERMINATE = 0x58;
/** A Sync message: ends an extended-protocol exchange, whatever state it is in. */
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/**
 * The database as the socket server should see it, so that each client's
 * exchange with the one PGlite session stays whole.
 *
 * The server runs its clients' messages one at a time, in arrival order,
 * and keeps to one client only while the session is in a transaction block.
 * An extended-protocol exchange (Parse, Bind, Describe, Execute up to Sync)
 * is not in one, yet the unnamed statement and portal it builds live until
 * the backend says ReadyForQuery: when one client's messages arrive in two
 * reads, or while another message runs, a second client's Parse could
 * replace the first's statement before its Bind (08P01 "bind message
 * supplies 4 parameters, but prepared statement "" requires 5"), or give it
 * another statement's rows. Here the session also counts as in a
 * transaction from a client's message (any but Terminate) until the
 * backend's next ReadyForQuery, so the server keeps to that client until its
 * exchange ends; the Sync sent for a client that leaves mid-way ends it.
 */
export function wholeExchanges(db: PGlite): PGlite {
  const backend = backendMessages();
  const execProtocolRawStream: PGlite['execProtocolRawStream'] = (
    message,
    options,
  ) => {
    // Whatever a client sends opens an exchange, even a message the backend
    // answers nothing to yet (Parse, then Flush): it ends at ReadyForQuery.
    if (message[0] !== TERMINATE) backend.begin();
    return db.execProtocolRawStream(message, {
      ...options,
      onRawData: (data) => {
        backend.read(data);
        options.onRawData(data);
      },
    });
  };
  // The server runs `exec` only to roll back a client that left: a Sync
  // first ends whatever exchange that client left open.
  const exec: PGlite['exec'] = async (query, options) => {
    if (!backend.ready())
      await db.runExclusive(() =>
        execProtocolRawStream(SYNC, { onRawData: () => undefined }),
      );
    return db.exec(query, options);
  };
  const isInTransaction = () => db.isInTransaction() || !backend.ready();
  const own: Partial<PGlite> = { execProtocolRawStream, exec, isInTransaction };
  return new Proxy(db, {
    get(target, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof PGlite];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Follows the frames of the backend's output (a type byte, then a length
 * that counts itself), which may split anywhere, and tells whether the last
 * message was ReadyForQuery.
 */
function backendMessages() {
  let lastType = READY_FOR_QUERY;
  /** Bytes of the current message, after its type and length, still to come. */
  let remaining = 0;
  const header: number[] = [];
  return {
    begin() {
      lastType = 0;
    },
    ready: () =>
      lastType === READY_FOR_QUERY && remaining === 0 && header.length === 0,
    read(data: Uint8Array) {
      let at = 0;
      while (at < data.length) {
        if (remaining > 0) {
          const skip = Math.min(remaining, data.length - at);
          remaining -= skip;
          at += skip;
          continue;
        }
        header.push(data[at++]);
        if (header.length < 5) continue;
        lastType = header[0];
        remaining =
          ((header[1] << 24) |
            (header[2] << 16) |
            (header[3] << 8) |
            header[4]) -
          4;
        header.length = 0;
      }
    },
  };
}
