// Imported by main.ts before any other module of the service: tracing's
// instrumentations must be in place before the modules they patch load.
// With tracing off (the default) this reads a few variables and loads
// nothing more: none of the SDK's modules, none of its instrumentations.
import { tracingWanted } from './ops/tracing-switch';

type TracingSdk = typeof import('./ops/tracing-sdk');

if (tracingWanted(process.env)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk: TracingSdk = require('./ops/tracing-sdk');
  sdk.startTracing(process.env);
}
