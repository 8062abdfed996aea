// OpenTelemetry tracing, loaded by src/tracing.ts only when tracing is on
// (tracing-switch.ts), before any module it instruments: nothing here may
// import pino, pg, ioredis, undici or the application, but for the trace
// context of changes (a module with no imports).
import type { IncomingMessage } from 'node:http';
import {
  context,
  isSpanContextValid,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { useTraceContext } from '../common/trace-context';
import { redactUrl } from './url-redaction';

/** How long the spans still buffered may take to leave when the process is stopped. */
const FLUSH_ON_EXIT_MS = 2000;

/** Probes and scrapes, traced by nobody: they would bury the requests. */
const UNTRACED = /^\/(health\/(live|ready)|metrics)\/?(\?|$)/;

/** The service's name, unless the operator's variables give one. */
function serviceName(env: NodeJS.ProcessEnv): string | undefined {
  const named =
    !!env.OTEL_SERVICE_NAME?.trim() ||
    /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  return named ? undefined : 'identity-service';
}

/**
 * The request's span: named by its route template once routed (never a raw
 * path), its query as the log line writes it (secrets redacted).
 */
const httpInstrumentation = () =>
  new HttpInstrumentation({
    // Every call the service makes goes through undici (below).
    disableOutgoingRequestInstrumentation: true,
    ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? ''),
    startIncomingSpanHook: (req) => {
      const url = req.url ?? '';
      const at = url.indexOf('?');
      return at < 0 ? {} : { 'url.query': redactUrl(url).slice(at + 1) };
    },
    applyCustomAttributesOnSpan: (span, req) => {
      const route = (req as { route?: { path?: unknown } }).route?.path;
      if (typeof route !== 'string') return;
      span.setAttribute('http.route', route);
      span.updateName(`${(req as IncomingMessage).method} ${route}`);
    },
  });

/**
 * A call to an issuer, a provider or a webhook receiver, with `traceparent`
 * sent along; its query left out of the span, since a tenant's webhook URL
 * may carry a secret there.
 */
const undiciInstrumentation = () =>
  new UndiciInstrumentation({
    startSpanHook: (request) => {
      const at = request.path.indexOf('?');
      if (at < 0) return {};
      return {
        'url.full': `${request.origin}${request.path.slice(0, at)}?REDACTED`,
        'url.query': 'REDACTED',
      };
    },
  });

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The trace context of changes: the active span as a W3C `traceparent`
 * (whatever propagators the operator chose for requests), kept with each
 * change's event; a webhook delivery of the event runs as its child, so
 * the delivery's call is a span of the change's trace, and its receiver
 * gets that trace's `traceparent`.
 */
function changesTraced(): void {
  useTraceContext({
    current: () => {
      const span = trace.getSpanContext(context.active());
      if (!span || !isSpanContextValid(span)) return null;
      const flags = (span.traceFlags & 0xff).toString(16).padStart(2, '0');
      return `00-${span.traceId}-${span.spanId}-${flags}`;
    },
    within: (traceParent, work) => {
      const [, traceId, spanId, flags] =
        TRACE_PARENT.exec(traceParent ?? '') ?? [];
      if (!traceId) return work();
      const parent = trace.setSpanContext(ROOT_CONTEXT, {
        traceId,
        spanId,
        traceFlags: parseInt(flags, 16) & TraceFlags.SAMPLED,
        isRemote: true,
      });
      return context.with(parent, work);
    },
  });
}

/**
 * Exports the spans still buffered when the process is stopped. Nest
 * answers SIGTERM and SIGINT (the server closes, requests finish, the
 * database closes), then removes its listener and raises the signal again.
 * This listener lets a signal pass while another listener handles it; when
 * it is the last one, it exports, then raises the signal once more with no
 * listener left, so the process ends as it would without tracing.
 */
function flushOnSignals(sdk: NodeSDK): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const last = () => {
      if (process.listenerCount(signal) > 1) return;
      process.off(signal, last);
      let timer: NodeJS.Timeout | undefined;
      void Promise.race([
        sdk.shutdown(),
        new Promise((done) => (timer = setTimeout(done, FLUSH_ON_EXIT_MS))),
      ])
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(timer);
          process.kill(process.pid, signal);
        });
    };
    process.on(signal, last);
  }
}

/**
 * Starts the SDK as the OTEL_* variables configure it (exporter, protocol,
 * endpoint, headers, sampler, batching, resource, propagators; W3C
 * `traceparent` by default) with the service's instrumentations: the
 * request, its statements (pg) and Redis commands, its outbound calls
 * (undici), and the trace and span ids in every log line written within a
 * span (pino). Statements and commands outside a request (the webhook
 * poller's, say) are not traced; a webhook delivery's call is, in the
 * trace of the change it tells of. Traces only: no metrics, no logs
 * through OpenTelemetry.
 */
export function startTracing(env: NodeJS.ProcessEnv): void {
  const sdk = new NodeSDK({
    serviceName: serviceName(env),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      httpInstrumentation(),
      undiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({
        requireParentSpan: true,
        // The command alone: its keys hold token digests and tenant ids.
        dbStatementSerializer: (command) => command,
      }),
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  sdk.start();
  changesTraced();
  flushOnSignals(sdk);
}
