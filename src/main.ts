import './ops/supported-node';
// Before anything it may trace loads (src/tracing.ts); nothing when off.
import './tracing';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp, httpAdapter } from './app.setup';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import {
  assertPortFree,
  explainStartupError,
  reportFatal,
} from './ops/startup';
import { DemoBanner, DemoSeeder } from './tenants/demo-seeder';
import { TenantsService } from './tenants/tenants.service';
import { setFlagsFromString } from 'node:v8';

// Under load most garbage of a request outlives a scavenge or two and lands
// in the old generation, which V8 lets grow to several times the live heap
// (about 45 MB here) before collecting it. Growing it by at most a fifth
// took the benchmark's peak resident memory from 358 MB to 271 MB, at no
// measurable cost in throughput (docs/benchmark.md).
setFlagsFromString('--heap-growing-percent=20');

async function bootstrap(config: AppConfig) {
  await assertPortFree(config.port, config.host);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config),
    httpAdapter(),
    // Start-up failures reach the catch below, which says them in one line
    // instead of Nest's own logs of them.
    {
      bodyParser: false,
      bufferLogs: true,
      autoFlushLogs: false,
      abortOnError: false,
    },
  );
  configureApp(app);
  app.flushLogs();
  const seeder = app.get(DemoSeeder);
  const loaded = config.seedDemo && (await seeder.seedIfEmpty());
  if (config.host) await app.listen(config.port, config.host);
  else await app.listen(config.port);
  const base = `http://localhost:${config.port}`;
  new Logger('Server').log(
    `Listening on ${base} (bound to ${boundAddress(app)})`,
  );
  if (config.seedDemo) {
    const banner = await seeder.banner();
    if (banner) printDemo(base, banner, loaded);
  }
  // A database with no tenant serves nothing yet: say how to make one.
  if (!(await app.get(TenantsService).hasTenants()))
    new Logger('Tenants').warn(
      'No tenant yet: create one with `npm run cli -- import <tenant file>` (docs/import-format.md; README, "Your own tenant").',
    );
}

/** The address the server really listens on, as host:port. */
function boundAddress(app: { getHttpServer(): Server }): string {
  const address = app.getHttpServer().address() as AddressInfo;
  const host =
    address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${host}:${address.port}`;
}

function printDemo(base: string, banner: DemoBanner, loaded: boolean) {
  const api = `${base}/${banner.tenantId}/api/identity/v1`;
  const lines = [
    '',
    loaded
      ? `Demo tenant "${banner.tenantId}" loaded.`
      : `Using the demo tenant "${banner.tenantId}".`,
    `  Base URL:          ${api}`,
    `  API docs:          ${base}/docs`,
    `  Console:           ${base}/console/`,
    `  Readiness:         ${base}/health/ready`,
  ];
  if (banner.accessToken)
    lines.push(`  Demo access token: ${banner.accessToken}`);
  if (banner.appToken) lines.push(`  Demo app token:    ${banner.appToken}`);
  if (banner.consoleToken)
    lines.push(`  Console token:     ${banner.consoleToken}`);
  if (banner.accessToken)
    lines.push(
      `  Try:  curl -H "Authorization: Bearer ${banner.accessToken}" ${api}`,
    );
  console.log([...lines, ''].join('\n'));
}

let config: AppConfig;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  reportFatal(error.message);
  process.exit(2);
}
bootstrap(config).catch((error: unknown) => {
  reportFatal(`Start failed: ${explainStartupError(error, config)}`);
  process.exit(1);
});
