import {
  Global,
  Inject,
  Injectable,
  LoggerService,
  Module,
} from '@nestjs/common';
import { destination, pino } from 'pino';
import { AppConfig, LogLevel } from '../config/app-config';

const PINO_LEVELS: Record<LogLevel, pino.Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** A query parameter's name as a query parser would read it: percent- and plus-decoded. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The query parameters whose values open an account or a session: a bearer
 * token, a link URL's ticket, and a link callback's authorization code and
 * state. A parameter is one of them when its decoded name, or a bracketed
 * part of it (`ticket[]`, `a[code]`), is one of these names, whatever the
 * case; `access_token` counts anywhere in the name.
 */
const SECRET_PARAMETERS = new Set(['ticket', 'code', 'state']);

function isSecretParameter(name: string): boolean {
  const decoded = decodedName(name).toLowerCase();
  return (
    decoded.includes('access_token') ||
    decoded.split(/[[\]]/).some((part) => SECRET_PARAMETERS.has(part))
  );
}

/**
 * A URL as it may be logged: the value of every secret query parameter
 * (see isSecretParameter) replaced, with `&` and `;` both taken as
 * separators, so that no spelling a parser accepts logs a secret.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const [query, fragment = ''] = url.slice(at + 1).split(/(?=#)/);
  const redacted = query.replace(/[^&;]+/g, (pair) => {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    return isSecretParameter(name) ? `${name}=[REDACTED]` : pair;
  });
  return `${url.slice(0, at + 1)}${redacted}${fragment}`;
}

/** The service's one pino logger, for Nest's logs and the request lines. */
export const PINO = Symbol('PINO');

/**
 * Structured JSON logs through pino, one line per event, written to stdout
 * asynchronously (what piles up during a write goes out with the next one),
 * so a slow log reader never holds up a request; pino flushes on exit.
 */
export function createPino(config: AppConfig): pino.Logger {
  return pino(
    { level: PINO_LEVELS[config.logLevel] },
    destination({ dest: 1, sync: false }),
  );
}

/**
 * Nest's logger on pino: each message a JSON line with its `context`, and
 * an error's stack under `stack`.
 */
@Injectable()
export class AppLogger implements LoggerService {
  constructor(@Inject(PINO) private readonly pino: pino.Logger) {}

  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }

  /** Nest passes the context last, and an error's stack before it. */
  private write(level: pino.Level, message: unknown, params: unknown[]) {
    if (!this.pino.isLevelEnabled(level)) return;
    const strings = params.filter((p): p is string => typeof p === 'string');
    const context = strings.length ? strings[strings.length - 1] : undefined;
    const stack = strings.length > 1 ? strings[strings.length - 2] : undefined;
    this.pino[level](
      stack ? { context, stack } : { context },
      typeof message === 'string' ? message : String(message),
    );
  }
}

/** Logging for the service: the pino logger and Nest's logger on it. */
@Global()
@Module({
  providers: [
    { provide: PINO, inject: [AppConfig], useFactory: createPino },
    AppLogger,
  ],
  exports: [PINO, AppLogger],
})
export class LoggingModule {}
