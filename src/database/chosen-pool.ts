import {
  Client,
  type ClientBase,
  type ClientConfig,
  Pool,
  type PoolClient,
  type PoolConfig,
} from 'pg';
import type { ServerChoice } from './server-choice';

/** A connection, with the choice of server it was made under. */
type Tagged = PoolClient & { serverGeneration: number };

type Done = (release?: boolean | Error) => void;
type Callback = (
  error: Error | undefined,
  client: PoolClient | undefined,
  done: Done,
) => void;

/** The pool's own wait for a free connection ran out: the server is not at fault. */
const POOL_WAIT = /timeout exceeded when trying to connect/;

/**
 * A pool on the server `choice` picks of a connection string's servers: a
 * new connection goes to the current choice (chosen first when there is
 * none) and is checked against target_session_attrs; a connection that
 * fails, or an open one whose socket breaks, makes the next connection
 * choose again, and every connection made under an earlier choice is
 * dropped when it is next taken from the pool instead of being used. A
 * connection that cannot be made is tried once more after choosing again,
 * so a failover costs a request nothing once the new primary answers.
 */
export class ChosenPool extends Pool {
  constructor(
    private readonly choice: ServerChoice,
    options: PoolConfig,
  ) {
    // pg-pool makes each connection with `new Client(options)`: this one
    // takes the chosen server's address, TLS and credentials.
    function ChosenClient(config: ClientConfig): Tagged {
      const chosen = choice.current!;
      const client = new Client({ ...config, ...chosen.config }) as Tagged;
      client.serverGeneration = chosen.generation;
      // A socket that breaks (a server stopped, killed, demoted): the
      // next connection chooses again. Also keeps the event from ending
      // the process while the connection is lent out.
      client.on('error', () => choice.forget(chosen.generation));
      return client;
    }
    const onConnect = options.onConnect as
      ((client: ClientBase) => Promise<void>) | undefined;
    super({
      ...options,
      Client: ChosenClient as unknown as typeof Client,
      onConnect: async (client: ClientBase) => {
        await choice.verify(client, (client as Tagged).serverGeneration);
        await onConnect?.(client);
      },
    } as PoolConfig);
  }

  override connect(): Promise<PoolClient>;
  override connect(callback: Callback): void;
  override connect(callback?: Callback): Promise<PoolClient> | void {
    if (callback) return this.connectChosen(callback, false);
    return new Promise((resolve, reject) =>
      this.connectChosen(
        (error, client) => (error ? reject(error) : resolve(client!)),
        false,
      ),
    );
  }

  /**
   * pg-pool's own connect once a server is chosen (callbacks throughout:
   * every query of the pool comes this way, and a choice in place costs it
   * nothing but the check of the connection's generation).
   */
  private connectChosen(callback: Callback, retried: boolean): void {
    const chosen = this.choice.settled;
    if (!chosen) {
      this.choice.choose().then(
        () => this.connectChosen(callback, retried),
        (error: Error) => callback(error, undefined, NO_RELEASE),
      );
      return;
    }
    super.connect((error, client, done) => {
      if (error) {
        if (POOL_WAIT.test(error.message))
          return callback(error, undefined, NO_RELEASE);
        this.choice.forget(chosen.generation);
        if (retried) return callback(error, undefined, NO_RELEASE);
        return this.connectChosen(callback, true);
      }
      if (this.choice.holds((client as Tagged).serverGeneration))
        return callback(undefined, client, done);
      // Made under an earlier choice: closed, not used.
      client!.release(true);
      this.connectChosen(callback, retried);
    });
  }
}

const NO_RELEASE: Done = () => undefined;
