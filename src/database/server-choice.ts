import { Logger } from '@nestjs/common';
import { Client, type ClientConfig } from 'pg';
import type {
  ConnectionString,
  ServerAddress,
  TargetSessionAttrs,
} from './connection-string';

/** A server chosen for the pool's connections, and which choice it was. */
export interface ChosenServer {
  readonly server: ServerAddress;
  readonly config: ClientConfig;
  /** Counts choices: a connection made under an earlier one is dropped. */
  readonly generation: number;
}

/** What a session is, as target_session_attrs asks (libpq's two checks). */
interface Session {
  standby: boolean;
  readOnly: boolean;
}

const SESSION_CHECK =
  "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') = 'on' AS read_only";

/**
 * Whether a session is what `attrs` asks for; `strict` is prefer-standby's
 * first pass, in which only a standby will do.
 */
function fits(attrs: TargetSessionAttrs, s: Session, strict: boolean) {
  switch (attrs) {
    case 'any':
      return true;
    case 'read-write':
      return !s.readOnly;
    case 'read-only':
      return s.readOnly;
    case 'primary':
      return !s.standby;
    case 'standby':
      return s.standby;
    case 'prefer-standby':
      return !strict || s.standby;
  }
}

/**
 * A connection that found its server no longer what target_session_attrs
 * asks for (a primary demoted, a standby promoted): SQLSTATE 08000, so that
 * the service answers as when the database cannot be reached.
 */
export class ServerMismatch extends Error {
  readonly code = '08000';
  constructor(
    readonly server: string,
    attrs: TargetSessionAttrs,
  ) {
    super(`${server} is not ${attrs}`);
  }
}

/**
 * No server of the string answered as target_session_attrs asks; `errors`
 * holds why each that could not be reached failed (the driver's errors,
 * with their codes).
 */
export class NoServerFits extends Error {
  readonly code = '08001';
  constructor(
    message: string,
    readonly errors: unknown[],
  ) {
    super(message);
  }
}

const address = (s: ServerAddress) =>
  s.host.startsWith('/')
    ? `${s.host}/.s.PGSQL.${s.port}`
    : `${s.host}:${s.port}`;

/**
 * Which server of a connection string the pool connects to, as libpq picks
 * one for a connection: the servers in order (shuffled with
 * load_balance_hosts=random), the first that accepts a connection and is
 * what target_session_attrs asks for (prefer-standby: a standby, else any
 * server); with sslmode prefer, TLS first and plain text when TLS is
 * refused (allow: the other way round). The choice is kept until a
 * connection to it fails or finds it changed; the next connection then
 * chooses again, so that the pool follows a failover to the new primary.
 */
export class ServerChoice {
  private readonly logger = new Logger('Database');
  private chosen?: ChosenServer;
  private last?: ChosenServer;
  private choosing?: Promise<ChosenServer>;
  private generation = 0;
  /** Times the choice moved to another server after the first. */
  changes = 0;

  constructor(
    readonly target: ConnectionString,
    private readonly connectTimeoutMs: number,
  ) {}

  /** Whether a connection must be checked after it is made (anything but `any`). */
  get checks(): boolean {
    return this.target.targetSessionAttrs !== 'any';
  }

  /** The choice in place, if any. */
  get settled(): ChosenServer | undefined {
    return this.chosen;
  }

  /** The current choice, or the last one while none is made: for a new connection's address. */
  get current(): ChosenServer | undefined {
    return this.chosen ?? this.last;
  }

  /** Whether connections made under `generation` are still the choice's. */
  holds(generation: number): boolean {
    return this.chosen?.generation === generation;
  }

  /** The server to connect to: the one chosen, or the first that fits, found now. */
  choose(): Promise<ChosenServer> {
    if (this.chosen) return Promise.resolve(this.chosen);
    // One search at a time: the connections asked for meanwhile share it.
    return (this.choosing ??= this.find().finally(
      () => (this.choosing = undefined),
    ));
  }

  /** A connection under `generation` failed or found its server changed: choose again next time. */
  forget(generation: number): void {
    if (this.chosen?.generation !== generation) return;
    const attrs = this.target.targetSessionAttrs;
    this.logger.warn(
      `${address(this.chosen.server)} failed${attrs === 'any' ? '' : ` or is no longer ${attrs}`}; choosing again among ${this.target.description}`,
    );
    this.chosen = undefined;
  }

  /** The current choice answered as it should not (read-only to a write): choose again. */
  forgetCurrent(): void {
    if (this.chosen) this.forget(this.chosen.generation);
  }

  /** Checks a new connection's session; throws ServerMismatch (and forgets the choice) when it does not fit. */
  async verify(
    client: { query(sql: string): Promise<{ rows: unknown[] }> },
    generation: number,
  ): Promise<void> {
    if (!this.checks) return;
    const session = await sessionOf(client);
    if (fits(this.target.targetSessionAttrs, session, false)) return;
    const server = this.current?.server;
    this.forget(generation);
    throw new ServerMismatch(
      server ? address(server) : this.target.description,
      this.target.targetSessionAttrs,
    );
  }

  private async find(): Promise<ChosenServer> {
    const attrs = this.target.targetSessionAttrs;
    const order = [...this.target.servers];
    if (this.target.loadBalanceHosts === 'random') shuffle(order);
    const problems: string[] = [];
    const errors: unknown[] = [];
    const passes = attrs === 'prefer-standby' ? [true, false] : [false];
    for (const strict of passes)
      for (const server of order) {
        const found = await this.tryServer(server, strict, problems, errors);
        if (found) return this.settle(server, found);
      }
    throw new NoServerFits(
      `No server of ${this.target.description} is ${attrs}: ${problems.join('; ')}`,
      errors,
    );
  }

  private settle(server: ServerAddress, config: ClientConfig): ChosenServer {
    const moved =
      this.last !== undefined && address(this.last.server) !== address(server);
    this.chosen = this.last = {
      server,
      config,
      generation: ++this.generation,
    };
    if (moved) {
      this.changes++;
      this.logger.warn(`Connecting to ${address(server)} now`);
    }
    return this.chosen;
  }

  /** The server's configuration when it accepts a connection and fits; undefined otherwise. */
  private async tryServer(
    server: ServerAddress,
    strict: boolean,
    problems: string[],
    errors: unknown[],
  ): Promise<ClientConfig | undefined> {
    for (const tls of tlsAttempts(this.target.sslmode)) {
      const config = this.target.configFor(server, tls);
      const client = new Client({
        ...config,
        connectionTimeoutMillis: this.connectTimeoutMs,
        // A server that accepts the connection and then stalls is passed over.
        query_timeout: this.connectTimeoutMs,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        if (!this.checks) return config;
        const session = await sessionOf(client);
        if (fits(this.target.targetSessionAttrs, session, strict))
          return config;
        problems.push(`${address(server)} is ${describe(session)}`);
        return undefined;
      } catch (error) {
        problems.push(`${address(server)}: ${(error as Error).message}`);
        errors.push(error);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    return undefined;
  }
}

async function sessionOf(client: {
  query(sql: string): Promise<{ rows: unknown[] }>;
}): Promise<Session> {
  const { rows } = await client.query(SESSION_CHECK);
  const row = rows[0] as { standby: boolean; read_only: boolean };
  return { standby: row.standby, readOnly: row.read_only };
}

const describe = (s: Session) =>
  s.standby ? 'a standby' : s.readOnly ? 'read-only' : 'read-write';

/** The TLS attempts libpq makes for an sslmode: prefer tries TLS first, allow last. */
function tlsAttempts(sslmode: ConnectionString['sslmode']): boolean[] {
  switch (sslmode) {
    case undefined:
    case 'disable':
      return [false];
    case 'allow':
      return [false, true];
    case 'prefer':
      return [true, false];
    default:
      return [true];
  }
}

function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}
