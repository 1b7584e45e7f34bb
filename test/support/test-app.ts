import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp, type AppOptions } from '../../src/app.factory';
import { loadConfig } from '../../src/config/load-config';

/** Public base URL the e2e apps build absolute URLs from; deliberately not the address they listen on. */
export const TEST_BASE_URL = 'https://vpsapi.test';

export interface TestApp {
  app: NestExpressApplication;
  /** Where the app listens, e.g. http://127.0.0.1:40123. */
  baseUrl: string;
  http: ReturnType<typeof request.agent>;
  close(): Promise<void>;
}

/** Boots the real application (the same factory as production) with test settings over real HTTP. */
/** `env` overrides the test settings; a key set to undefined removes one (to see the service's own default). */
export async function startTestApp(env: Record<string, string | undefined> = {}, port = 0, options: AppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ PUBLIC_BASE_URL: TEST_BASE_URL, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', DATA_WATCH: 'false', ...env });
  const app = await createApp(config, { log: options.log ?? 'silent' });
  await app.listen(port, '127.0.0.1');
  // Identity by default, so tests read plain bodies; content coding has tests of its own.
  const http = request.agent(app.getHttpServer()).set('Accept-Encoding', 'identity');
  const address = app.getHttpServer().address() as AddressInfo;
  // A connection a client keeps open (an HTTP agent's pooled socket) must not hold the suite at close:
  // production drains through GracefulShutdown, which has its own deadline; tests only need it gone.
  const close = async () => {
    const force = setTimeout(() => app.getHttpServer().closeAllConnections(), 1000);
    try {
      await app.close();
    } finally {
      clearTimeout(force);
    }
  };
  return { app, http, baseUrl: `http://127.0.0.1:${address.port}`, close };
}
