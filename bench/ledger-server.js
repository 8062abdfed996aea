#!/usr/bin/env node
// The production build (dist/) started as main.ts starts it, with the
// layers named in LEDGER_OFF (comma-separated) switched off or replaced by
// their cheapest correct form, for the cost ledger (bench/ledger.js). The
// switches are made here, on the built modules and the application's
// instances before the HTTP layers are installed: nothing in src/ reads
// LEDGER_OFF, so no setting of the service turns a layer off.
//
// Every replacement answers GET of the current identity exactly as the
// service does (the ledger compares the status, ETag, content type and
// body before it measures); a layer's cost is what the service's CPU per request loses
// with it gone. A layer marked `added` is one the service does not have,
// put in to price it (what adopting it would cost).
const { existsSync } = require('node:fs');
const { join, resolve, sep } = require('node:path');

// The build measured: dist/, or another version's build (`--before`).
const DIST = resolve(process.env.LEDGER_DIST ?? join(__dirname, '..', 'dist'));
const dist = (path) => require(join(DIST, path));
const pass = (_req, _res, next) => next();

/**
 * Replaces a built module's exports for every module that requires it
 * afterwards: its exports are getters, so they are swapped in the module
 * cache rather than assigned.
 */
function replaceModule(path, change) {
  const file = require.resolve(join(DIST, path));
  const exports = { ...require(file), ...change };
  require.cache[file].exports = exports;
}

/** The bearer token's validation without passport: the request's caller, or the error the guard would throw. */
function authenticator(app) {
  const auth = app.get(dist('auth/auth.service').AuthService);
  const { bearerToken } = dist('common/http/credentials');
  const { pathParam } = dist('common/http/request-context');
  const { AuthenticationRequired } = dist('common/errors');
  return async (req) => {
    const token = bearerToken(req);
    if (!token) throw new AuthenticationRequired(false);
    return auth.authenticate(pathParam(req, 'tenant'), token);
  };
}

/** Each layer: its row in the ledger, and how to switch it off. */
const LAYERS = {
  'tracing-switch': {
    what: "main.ts's tracing switch with tracing off (src/tracing.ts: the OTEL_ variables read once at start, nothing loaded), not required: the code path before tracing",
    // Read by main() below.
  },
  'heap-growth': {
    what: "main.ts's bound on the heap's growth (--heap-growing-percent=20), V8's default instead",
    // Read by main() below.
  },
  headers: {
    what: "helmet's security headers",
    // Before the application exists: configureApp calls it at start.
    early: () => replaceModule('common/http/security-headers', { securityHeaders: () => pass }),
  },
  policy: {
    what: 'HTTP policy: request id, Cache-Control, 405/406 from the route table',
    // What the later layers need of it: the request is an API request.
    early: () => {
      const { requestState } = dist('common/http/request-context');
      replaceModule('common/http/http-policy', {
        httpPolicy: () => (req, _res, next) => {
          requestState(req).limited = true;
          next();
        },
        requireJsonBody: pass,
      });
    },
  },
  log: {
    what: 'the request log line (pino)',
    late: (app) => (app.get(dist('ops/logging').PINO).level = 'warn'),
  },
  metrics: {
    what: "the request's metrics (counter and histogram)",
    late: (app) => (app.get(dist('ops/metrics').Metrics).record = () => undefined),
  },
  observer: {
    what: 'the request observer whole: finish listener, timer, log line, metrics',
    late: (app) => (app.get(dist('ops/request-observer').RequestObserver).middleware = pass),
  },
  'rate-limit': {
    what: 'the rate limiter (in memory): token key digest, counter, three headers',
    late: (app) => {
      const limiter = app.get(dist('ops/rate-limit/rate-limiter').RateLimiter);
      limiter.middleware = pass;
      limiter.refuseWhileFailuresSpent = () => undefined;
      limiter.rememberValid = () => undefined;
    },
  },
  passport: {
    what: "passport: the strategy's authenticate, replaced by a direct call of the same validation",
    late: (app) => {
      const callerOf = authenticator(app);
      const { BearerStrategy } = dist('auth/bearer.strategy');
      if (BearerStrategy.prototype.principalOf) {
        // The strategy's run for one request, which the guard calls.
        BearerStrategy.prototype.principalOf = (req) => callerOf(req);
        return;
      }
      // Earlier builds: the guard's parent, the class @nestjs/passport made for 'bearer'.
      const { BearerAuthGuard } = dist('auth/bearer-auth.guard');
      Object.getPrototypeOf(BearerAuthGuard.prototype).canActivate = async function (context) {
        const req = context.switchToHttp().getRequest();
        req.user = await callerOf(req);
        return true;
      };
    },
  },
  nest: {
    what: "Nest's route: router context, both guards, passport, pipes, parameter decorators and reply, replaced by a plain Express route doing the same work",
    // Registered after the middleware and before Nest's routes (at listen).
    route: (app) => {
      const { IdentityService } = dist('identity/identity.service');
      const { conditional } = dist('common/http/conditional');
      const { Forbidden } = dist('common/errors');
      const callerOf = authenticator(app);
      const identities = app.get(IdentityService);
      app.getHttpAdapter().getInstance().get('/:tenant/api/identity/v1', async (req, res, next) => {
        if (Object.keys(req.query).length) return next();
        try {
          const caller = await callerOf(req);
          if (caller.kind !== 'access') throw new Forbidden('An app token has no current identity; name the identity in the path.');
          const { body, etag } = await identities.currentIdentity(caller, undefined);
          const answer = conditional(req, res, etag, body);
          if (answer === undefined) res.end();
          else res.json(answer);
        } catch {
          // Anything but the answer measured is Nest's route's to give.
          next();
        }
      });
    },
  },
  interceptor: {
    what: 'one global interceptor that passes the answer on (a cost added: what an ETag interceptor would cost before its own work)',
    added: true,
    late: (app) => app.useGlobalInterceptors({ intercept: (_context, next) => next.handle() }),
  },
  'access-query': {
    what: "the access query (the token with its caller's identity: SQL, pg, decoding), replaced by a per-process cache of its result",
    late: (app) => {
      const access = app.get(dist('auth/access.repository').AccessRepository);
      const find = access.findTokenCaller.bind(access);
      const cache = new Map();
      access.findTokenCaller = async (hash) => {
        if (!cache.has(hash)) cache.set(hash, await find(hash));
        return cache.get(hash);
      };
    },
  },
  json: {
    what: "the body's JSON.stringify, replaced by a per-process cache by ETag",
    late: () => {
      const { response } = require(require.resolve('express', { paths: [DIST] }));
      const json = response.json;
      const cache = new Map();
      response.json = function (body) {
        const etag = this.getHeader('ETag');
        if (typeof etag !== 'string' || this.statusCode !== 200) return json.call(this, body);
        let text = cache.get(etag);
        if (text === undefined) cache.set(etag, (text = JSON.stringify(body)));
        if (!this.get('Content-Type')) this.set('Content-Type', 'application/json; charset=utf-8');
        return this.send(text);
      };
    },
  },
};

async function main() {
  const off = (process.env.LEDGER_OFF ?? '').split(',').filter(Boolean);
  const unknown = off.filter((name) => !LAYERS[name]);
  if (unknown.length) throw new Error(`Unknown layer ${unknown.join(', ')}; known: ${Object.keys(LAYERS).join(', ')}`);
  const layers = off.map((name) => LAYERS[name]);
  // As src/main.ts starts the service: the tracing switch before anything it
  // may trace loads (a build older than tracing has none).
  const tracingSwitch = join(DIST, 'tracing.js');
  if (!off.includes('tracing-switch') && existsSync(tracingSwitch)) require(tracingSwitch);
  for (const layer of layers) layer.early?.();
  // As src/main.ts starts the service, after the early switches (which
  // replace functions configureApp calls).
  if (!off.includes('heap-growth')) require('node:v8').setFlagsFromString('--heap-growing-percent=20');
  const { NestFactory } = require(require.resolve('@nestjs/core', { paths: [DIST] }));
  const { AppModule } = dist('app.module');
  const { configureApp, httpAdapter } = dist('app.setup');
  const { loadConfig } = dist('config/app-config');
  const config = loadConfig(process.env);
  const app = await NestFactory.create(AppModule.forRoot(config), httpAdapter(), {
    bodyParser: false,
    bufferLogs: true,
    autoFlushLogs: false,
    abortOnError: false,
  });
  // Tracing off loads nothing of OpenTelemetry's SDK: the service row stands
  // for that. (prom-client loads the API, a no-op with no SDK, for its exemplars.)
  const sdk = `${sep}@opentelemetry${sep}`;
  const loaded = Object.keys(require.cache).filter((file) => file.includes(sdk) && !file.includes(`${sdk}api${sep}`));
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT && loaded.length) throw new Error(`Tracing is off, yet OpenTelemetry's SDK is loaded: ${loaded[0]}`);
  for (const layer of layers) layer.late?.(app);
  configureApp(app);
  app.flushLogs();
  for (const layer of layers) layer.route?.(app);
  await app.listen(config.port, config.host ?? '127.0.0.1');
}

module.exports = { LAYERS };
if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
