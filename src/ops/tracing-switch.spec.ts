import { tracingWanted } from './tracing-switch';

describe('tracingWanted', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'identity' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://c:4318/v1/m' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: ' otlp , console ' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [
      {
        OTEL_TRACES_EXPORTER: 'otlp,none',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      },
      false,
    ],
    [{ OTEL_TRACES_EXPORTER: '', OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, false],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SDK_DISABLED: 'TRUE',
      },
      false,
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SDK_DISABLED: 'false',
      },
      true,
    ],
  ])('%j: %s', (env, wanted) => {
    expect(tracingWanted(env)).toBe(wanted);
  });
});
