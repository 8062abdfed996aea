/**
 * Whether the service traces (docs/operations.md, tracing), from the
 * OpenTelemetry SDK's standard variables: on when they say where spans go,
 * an exporter in OTEL_TRACES_EXPORTER or an OTLP endpoint in
 * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; off
 * otherwise, and whenever OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER
 * is `none`. The SDK itself would export to localhost:4318 with nothing set:
 * the service asks for a word from the operator first. As the
 * specification says, an empty variable is one not set.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  const value = (name: string) => env[name]?.trim() || undefined;
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return false;
  const exporters = value('OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((name) => name.trim());
  if (exporters?.includes('none')) return false;
  return (
    !!exporters?.some(Boolean) ||
    !!value('OTEL_EXPORTER_OTLP_ENDPOINT') ||
    !!value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')
  );
}
