import { ValidationPipe } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import { Logger } from 'nestjs-pino';
import { InvalidRequest } from './common/errors';
import { answerClientErrors } from './common/http/client-errors';
import { httpPolicy } from './common/http/http-policy';
import { ProblemFilter } from './common/http/problem.filter';
import { toFieldErrors } from './common/validation/field-errors';
import { AppConfig } from './config/app-config';
import { Metrics } from './ops/metrics';
import { setupOpenApi } from './ops/openapi';

/**
 * HTTP behaviour shared by the server and the end-to-end tests. The app must
 * be created with `bodyParser: false` (JSON is the only body this API takes)
 * and `bufferLogs: true` (logs go through pino once it is set up).
 */
export function configureApp(
  app: NestExpressApplication,
): NestExpressApplication {
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  // ETags are set deliberately on identity responses only.
  app.set('etag', false);
  app.use(
    helmet({
      crossOriginResourcePolicy: { policy: 'same-site' },
      // TLS ends at the gateway; the service itself may be reached over http.
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    }),
  );
  if (config.corsOrigins.length)
    app.enableCors({
      origin: config.corsOrigins,
      exposedHeaders: [
        'ETag',
        'Link',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
        'X-Request-Id',
      ],
    });
  app.use(app.get(Metrics).middleware);
  app.use(httpPolicy(app.getHttpAdapter().getInstance()));
  app.useBodyParser('json', { limit: '64kb' });
  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(
    new ValidationPipe({
      transform: true,
      whitelist: true,
      exceptionFactory: (errors) => {
        const fieldErrors = toFieldErrors(errors);
        return new InvalidRequest(
          fieldErrors.map((e) => `${e.field} ${e.message}`).join('; '),
          fieldErrors,
        );
      },
    }),
  );
  const server = app.getHttpServer() as Server;
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = config.headersTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  // How often Node looks for requests past those timeouts (default 30 s).
  (
    server as Server & { connectionsCheckingInterval: number }
  ).connectionsCheckingInterval = 1000;
  answerClientErrors(server);
  setupOpenApi(app);
  app.enableShutdownHooks();
  return app;
}
