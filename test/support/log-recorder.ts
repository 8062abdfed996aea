import { LoggerService } from '@nestjs/common';

export interface LogLine {
  level: 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  message: string;
}

/**
 * A logger that keeps the service's log lines instead of printing them: for
 * tests that provoke errors on purpose and check what was logged.
 */
export function logRecorder(lines: LogLine[]): LoggerService {
  const keep = (level: LogLine['level']) => (message: unknown) =>
    void lines.push({ level, message: String(message) });
  return {
    fatal: keep('fatal'),
    error: keep('error'),
    warn: keep('warn'),
    log: keep('log'),
    debug: keep('debug'),
    verbose: keep('verbose'),
  };
}
