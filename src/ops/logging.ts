import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { LoggerModule } from 'nestjs-pino';
import { destination } from 'pino';
import { AppConfig, LogLevel } from '../config/app-config';
import { pathParam, requestState } from '../common/http/request-context';

const PINO_LEVELS: Record<LogLevel, string> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** A URL as it may be logged: the value of `access_token` replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1[REDACTED]');
}

/**
 * Structured JSON logs through pino: one line per request with its id,
 * method, route template, tenant, status and duration. Headers are never
 * logged, and a token in the URL is redacted. Lines are written to stdout
 * asynchronously (what piles up during a write goes out with the next one),
 * so a slow log reader never holds up a request; pino flushes them on exit.
 */
export const LoggingModule = LoggerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig) => ({
    pinoHttp: [
      {
        level: PINO_LEVELS[config.logLevel],
        genReqId: (req: IncomingMessage) => requestState(req as Request).id,
        // Called when the request starts and when it ends; the route is known
        // only at the end.
        customProps: (req: IncomingMessage, res: ServerResponse) => {
          if (!res.writableEnded) return {};
          const request = req as Request;
          return {
            tenant: pathParam(request, 'tenant') || undefined,
            route: request.route?.path,
          };
        },
        serializers: {
          req: (req: { id: string; method: string; url: string }) => ({
            id: req.id,
            method: req.method,
            url: redactUrl(req.url),
          }),
          res: (res: { statusCode: number }) => ({
            statusCode: res.statusCode,
          }),
        },
        redact: ['req.headers', 'res.headers'],
      },
      destination({ dest: 1, sync: false }),
    ],
  }),
});
