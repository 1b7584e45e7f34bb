import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { OpenApiService } from './openapi/openapi.service.js';
import { FrontDoor } from './common/http/front-door.js';
import { readFileSync } from 'node:fs';

/**
 * Builds and initializes the application for a configuration. Production (main.ts) and every e2e
 * test go through this one function, so tests run exactly what production runs.
 */
export async function createApp(
  config: AppConfig,
  options: { logger?: false | LogLevel[] } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new ExpressAdapter(expressInstance(config)), {
    // Only /mcp reads a body, with its own parser; nothing else parses one.
    bodyParser: false,
    abortOnError: false,
    logger: options.logger ?? ['error', 'warn', 'log'],
    httpsOptions: config.tls && { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) },
  });
  // Mounted before Nest registers anything, so every request passes it first (see FrontDoor).
  app.use(app.get(FrontDoor).handle);
  await app.get(OpenApiService).initialize(app);
  await app.init();
  return app;
}

/** Express, configured before its router exists (the router reads these settings once, when created). */
function expressInstance(config: AppConfig): express.Express {
  const instance = express();
  // Which proxies may report the client address (X-Forwarded-For) and scheme (X-Forwarded-Proto).
  // Express walks X-Forwarded-For from the right, past trusted proxies only: a client cannot pick its address.
  instance.set('trust proxy', config.trustProxy);
  instance.disable('x-powered-by');
  // Bodies carry precomputed strong ETags; Express must not hash every body for a weak one.
  instance.set('etag', false);
  // Ids are lowercase and paths exact: /api/Providers.json and /api/providers.json/ are not the API.
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  return instance;
}
