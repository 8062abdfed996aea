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
