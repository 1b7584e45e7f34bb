import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NestApplicationOptions } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { createLogger } from './observability/logger.js';
import { type BeforeExpress, installRequestPipeline, routableTarget } from './request-pipeline.js';
import { OpenApiService } from './openapi/openapi.service.js';

export interface AppOptions {
  /** Where log lines go: `silent` for none, a stream to capture them; stdout by default. */
  log?: 'silent' | DestinationStream;
}

/**
 * Builds and initializes the application for a configuration. Production (main.ts) and every e2e
 * test go through this one function, so tests run exactly what production runs.
 */
export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  const logger = loggerFor(config, options);
  const adapter = new TimedExpressAdapter(expressInstance(config), serverOptions(config));
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logger), adapter, {
    // Only /mcp reads a body, with its own parser; nothing else parses one.
    bodyParser: false,
    abortOnError: false,
    bufferLogs: true,
    httpsOptions: config.tls && { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) },
  });
  app.useLogger(app.get(NestPinoLogger));
  // Every step a request passes, in order, is set in request-pipeline.ts.
  installRequestPipeline(app, logger, (listener) => (adapter.beforeExpress = listener));
  await app.get(OpenApiService).initialize(app);
  await app.init();
  return app;
}

function loggerFor(config: AppConfig, options: AppOptions): Logger {
  if (options.log === 'silent') return pino({ level: 'silent' });
  if (options.log) return pino({ level: config.log.level, base: { service: 'vpsapi' } }, options.log);
  return createLogger(config);
}

/**
 * Idle keep-alive connections outlive a load balancer's own idle timeout (so the balancer, not the
 * service, closes them and never sends into a closing socket); clients that trickle their headers or
 * body are cut off, checked every second rather than Node's default thirty.
 */
function serverOptions(config: AppConfig): ServerOptions {
  return {
    keepAliveTimeout: config.server.keepAliveTimeoutMs,
    headersTimeout: config.server.headersTimeoutMs,
    requestTimeout: config.server.requestTimeoutMs,
    connectionsCheckingInterval: 1000,
  };
}

/** Nest's Express adapter, creating its server with our options (these can only be given at creation). */
class TimedExpressAdapter extends ExpressAdapter {
  /** The listener in front of Express, once the application exists (request-pipeline.ts, step 2). */
  beforeExpress?: BeforeExpress;

  constructor(
    instance: express.Express,
    private readonly serverOptions: ServerOptions,
  ) {
    super(instance);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    const express = this.getInstance<RequestListener>();
    const app = routableTarget((req, res) => (this.beforeExpress ? this.beforeExpress(req, res, () => express(req, res)) : express(req, res)));
    this.httpServer = options?.httpsOptions ? createHttpsServer({ ...options.httpsOptions, ...this.serverOptions }, app) : createServer(this.serverOptions, app);
  }
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
