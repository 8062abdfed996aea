/**
 * The trace a change belongs to, kept with its event so that the event's
 * webhook deliveries continue it (docs/operations.md, tracing). With
 * tracing off (the default) a change has none and a delivery starts no
 * trace: `current` gives null and `within` only runs. The tracing SDK,
 * when on, puts its own in place before the application loads
 * (src/ops/tracing-sdk.ts); nothing here loads OpenTelemetry.
 */
export interface TraceContext {
  /** The active span as a W3C `traceparent`, or null. */
  current(): string | null;
  /** Runs `work` as part of the trace `traceParent` names (when not null). */
  within<T>(traceParent: string | null, work: () => T): T;
}

const untraced: TraceContext = {
  current: () => null,
  within: (_traceParent, work) => work(),
};

/** The service's trace context: untraced unless tracing replaced it. */
export const traceContext: TraceContext = { ...untraced };

/** Puts tracing's trace context in place of the untraced one. */
export function useTraceContext(traced: TraceContext): void {
  Object.assign(traceContext, traced);
}
