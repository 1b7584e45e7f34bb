import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.factory.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import { warnIfPublicUrlElsewhere } from './config/public-url-check.js';
import { InvalidDatasetError } from './dataset/dataset-loader.js';
import { GracefulShutdown } from './lifecycle/graceful-shutdown.js';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const { app, server } = await createApp(config);
  const shutdown = app.get(GracefulShutdown);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutdown.shutdown(app, server, signal).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('vpsapi failed to shut down cleanly:', error);
          process.exit(1);
        },
      );
    });
  }
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(config.port, config.host, () => resolve()),
  );
  const { port } = server.address() as AddressInfo;
  console.log(`vpsapi listening on http://${config.host}:${port} (public URL ${config.publicBaseUrl})`);
  warnIfPublicUrlElsewhere(config, port);
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof InvalidDatasetError) {
    console.error(error.message);
  } else {
    console.error('vpsapi failed to start:', error);
  }
  process.exit(1);
});
