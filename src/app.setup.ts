import {
  ArgumentMetadata,
  PipeTransform,
  ValidationPipe,
  ValidationPipeOptions,
} from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import {
  ExpressAdapter,
  NestExpressApplication,
} from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import { InvalidRequest } from './common/errors';
import { chain } from './common/http/chain';
import { answerClientErrors } from './common/http/client-errors';
import {
  httpPolicy,
  requireJsonBody,
  SCIM_MEDIA_TYPES,
} from './common/http/http-policy';
import { securityHeaders } from './common/http/security-headers';
import { RouteTable, SCIM_PATH } from './common/http/route-table';
import { ProblemFilter } from './common/http/problem.filter';
import { toFieldErrors } from './common/validation/field-errors';
import { AppConfig } from './config/app-config';
import { ReadRouting } from './ops/read-routing/read-routing';
import { AppLogger } from './ops/logging';
import { RequestObserver } from './ops/request-observer';
import { Metrics } from './ops/metrics';
import { setupConsole } from './ops/console';
import { setupOpenApi } from './ops/openapi';
import { RateLimiter } from './ops/rate-limit/rate-limiter';

/** The largest request body (JSON), and the largest on SCIM paths. */
export const API_BODY_LIMIT = 64 * 1024;
export const SCIM_BODY_LIMIT = 1024 * 1024;

/**
 * The Express application the service runs on, set up before any route is
 * registered: paths are case-sensitive (RFC 3986), so `…/v1/Accounts` names
 * an identity and is not the accounts list.
 */
export function httpAdapter(): ExpressAdapter {
  const server = express();
  server.set('case sensitive routing', true);
  return new ExpressAdapter(server);
}

/**
 * HTTP behaviour shared by the server and the end-to-end tests. The app must
 * be created with `bodyParser: false` (JSON is the only body this API takes)
 * and `bufferLogs: true` (logs go through pino once it is set up).
 */
export function configureApp(
  app: NestExpressApplication,
): NestExpressApplication {
  const config = app.get(AppConfig);
  app.useLogger(app.get(AppLogger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  // ETags are set deliberately on identity responses only.
  app.set('etag', false);
  app.use(
    securityHeaders({
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
  app.use(requestLayers(app, config));
  app.useBodyParser('json', { limit: API_BODY_LIMIT, type: SCIM_MEDIA_TYPES });
  const metrics = app.get(Metrics);
  app.useGlobalFilters(
    new ProblemFilter((req) => metrics.recordUnavailable(req.method)),
  );
  app.useGlobalPipes(
    new QueryAwareValidationPipe({
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
  setupConsole(app);
  app.enableShutdownHooks();
  return app;
}

/**
 * What every request passes before the routes, in this order, as one
 * middleware (chain.ts: Express's work per middleware is paid once).
 */
function requestLayers(app: NestExpressApplication, config: AppConfig) {
  // A directory replaces a whole Group's members in one body: SCIM's
  // requests may be larger than the API's own.
  const scimJson = express.json({
    limit: SCIM_BODY_LIMIT,
    type: SCIM_MEDIA_TYPES,
  });
  return chain(
    app.get(RequestObserver).middleware,
    httpPolicy(app.get(RouteTable)),
    // Charged before the body is read, so that 413, 415 and malformed
    // JSON answers carry the rate-limit headers too.
    app.get(RateLimiter).middleware,
    // Past the rate limit, so that a refused request costs no lookup.
    ...(config.databaseReplicaUrls.length
      ? [app.get(ReadRouting).middleware]
      : []),
    requireJsonBody,
    (req: Request, res: Response, next: NextFunction) =>
      SCIM_PATH.test(req.path) ? scimJson(req, res, next) : next(),
  );
}

/**
 * The validation pipe, which leaves alone a query with no parameters: every
 * query parameter is optional, so there is nothing to check, and most reads
 * send none. What it does not check is handed on at once, without a
 * promise: a custom parameter (the caller, the exchange; the pipe does not
 * validate custom decorators, and hands them on unchanged) and that query.
 */
class QueryAwareValidationPipe implements PipeTransform {
  private readonly pipe: ValidationPipe;

  constructor(options: ValidationPipeOptions) {
    this.pipe = new ValidationPipe(options);
  }

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    if (metadata.type === 'query' && metadata.metatype && isEmptyObject(value))
      return new (metadata.metatype as new () => object)();
    // The whole query only: @Query('name') hands over one value.
    if (
      metadata.type === 'query' &&
      metadata.metatype &&
      metadata.data === undefined &&
      typeof value === 'object' &&
      value !== null
    )
      refuseBracketed(value as Record<string, unknown>, metadata.metatype);
    return this.pipe.transform(value, metadata);
  }
}

/**
 * A known parameter spelled with brackets (`fields[]=…`, `fields[a]=…`) is
 * not read as the parameter: 400 naming it, rather than an answer that
 * silently ignores it.
 */
function refuseBracketed(query: Record<string, unknown>, metatype: Function) {
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(metatype, '', true, false)
      .map((m) => m.propertyName),
  );
  for (const key of Object.keys(query)) {
    const base = /^([^[]+)\[/.exec(key)?.[1];
    if (base !== undefined && known.has(base))
      throw new InvalidRequest(
        `${base} is given once, as ${base}=…, not with brackets.`,
        [{ field: base, message: 'must be given once, without brackets' }],
      );
  }
}

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 0;
