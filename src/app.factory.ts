import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { OpenApiService } from './openapi/openapi.service.js';

/**
 * Builds and initializes the application for a configuration. Production (main.ts) and every e2e
 * test go through this one function, so tests run exactly what production runs.
 */
export async function createApp(
  config: AppConfig,
  options: { logger?: false | LogLevel[] } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new ExpressAdapter(expressInstance()), {
    // Only /mcp reads a body, with its own parser; nothing else parses one.
    bodyParser: false,
    abortOnError: false,
    logger: options.logger ?? ['error', 'warn', 'log'],
  });
  await app.get(OpenApiService).initialize(app);
  await app.init();
  return app;
}

/** Express, configured before its router exists (the router reads these settings once, when created). */
function expressInstance(): express.Express {
  const instance = express();
  instance.disable('x-powered-by');
  // Bodies carry precomputed strong ETags; Express must not hash every body for a weak one.
  instance.set('etag', false);
  // Ids are lowercase and paths exact: /api/Providers.json and /api/providers.json/ are not the API.
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  return instance;
}
