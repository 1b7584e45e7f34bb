import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp, type AppOptions } from '../../src/app.factory';
import { loadConfig } from '../../src/config/load-config';

/** Public base URL the e2e apps build absolute URLs from; deliberately not the address they listen on. */
export const TEST_BASE_URL = 'https://vpsapi.test';

export interface TestApp {
  app: NestExpressApplication;
  /** The server in front of the app (createApp's). */
  server: Server;
  /** Where the app listens, e.g. http://127.0.0.1:40123. */
  baseUrl: string;
  http: ReturnType<typeof request.agent>;
  close(): Promise<void>;
}

/** Boots the real application (the same factory as production) with test settings over real HTTP. */
/** `env` overrides the test settings; a key set to undefined removes one (to see the service's own default). */
export async function startTestApp(
  env: Record<string, string | undefined> = {},
  port = 0,
  options: AppOptions = {},
): Promise<TestApp> {
  // Views are built on first use (PRECOMPUTE_VIEWS=false): a boot takes about half as long, and a suite
  // builds only what it asks for. The built service (startup, cluster, browser suites) precomputes, as
  // production does; test/reload.e2e-spec.ts checks both settings.
  const config = loadConfig({
    PUBLIC_BASE_URL: TEST_BASE_URL,
    METRICS_PORT: '0',
    METRICS_HOST: '127.0.0.1',
    DATA_WATCH: 'false',
    PRECOMPUTE_VIEWS: 'false',
    ...env,
  });
  const { app, server } = await createApp(config, { log: options.log ?? 'silent' });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  // Identity by default, so tests read plain bodies; content coding has tests of its own.
  const http = request.agent(server).set('Accept-Encoding', 'identity');
  const address = server.address() as AddressInfo;
  // A connection a client keeps open (an HTTP agent's pooled socket) must not hold the suite at close:
  // production drains through GracefulShutdown, which has its own deadline; tests only need it gone.
  const close = async () => {
    const force = setTimeout(() => server.closeAllConnections(), 1000);
    try {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    } finally {
      clearTimeout(force);
    }
  };
  return { app, server, http, baseUrl: `http://127.0.0.1:${address.port}`, close };
}
