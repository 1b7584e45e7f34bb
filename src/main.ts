import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.factory.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import { InvalidDatasetError } from './dataset/dataset-loader.js';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  console.log(`vpsapi listening on http://${config.host}:${port} (public URL ${config.publicBaseUrl})`);
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof InvalidDatasetError) {
    console.error(error.message);
  } else {
    console.error('vpsapi failed to start:', error);
  }
  process.exit(1);
});
