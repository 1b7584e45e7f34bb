import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import pino, { type DestinationStream, type Logger } from 'pino';
import { BytesReplyAdapter } from './common/http/bytes-reply.adapter.js';
import { AppModule } from './app.module.js';
import { MalformedRequestAnswer } from './common/http/malformed-request.js';
import type { AppConfig } from './config/app-config.js';
import { BASE, createLogger, type LogOutput } from './observability/logger.js';
import { OpenApiService } from './openapi/openapi.service.js';
import { routableTarget } from './request-pipeline.js';

export interface AppOptions {
  /** Where log lines go: `silent` for none, a stream to capture them; stdout by default. */
  log?: 'silent' | DestinationStream;
}

/** The initialized application and the HTTP(S) server that serves it (not yet listening). */
export interface ServedApp {
  app: NestExpressApplication;
  server: Server;
}

/**
 * Builds and initializes the application for a configuration, and the server in front of it. Nest's
 * documented pattern for owning the server: Express is created here and handed to Nest through
 * `new ExpressAdapter(instance)` (BytesReplyAdapter: Nest's, sending precomputed bytes as they are); after `app.init()`, our own `http.createServer` (or https) serves
 * it, with the server options that can only be given at creation and the one step before Express
 * (request-pipeline.ts). AppModule lists every step of the request path. Production (main.ts) and every e2e test go through this function.
 */
export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<ServedApp> {
  const { logger, output } = loggerFor(config, options);
  const instance = expressInstance(config);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, logger, output),
    new BytesReplyAdapter(instance),
    {
      // Only /mcp reads a body, with its own parser; nothing else parses one.
      bodyParser: false,
      abortOnError: false,
      bufferLogs: true,
    },
  );
  app.useLogger(app.get(NestPinoLogger));
  await app.get(OpenApiService).initialize(app);
  await app.init();

  const served = routableTarget(instance);
  const server = config.tls
    ? createHttpsServer(
        { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile), ...serverOptions(config) },
        served,
      )
    : createServer(serverOptions(config), served);
  const refusals = app.get(MalformedRequestAnswer);
  server.on('clientError', refusals.listener);
  // Node hands CONNECT to this event, never to the application (and closes the socket if nobody listens).
  server.on('connect', refusals.connectListener);
  return { app, server };
}

function loggerFor(config: AppConfig, options: AppOptions): { logger: Logger; output?: LogOutput } {
  if (options.log === 'silent') return { logger: pino({ level: 'silent' }) };
  if (options.log) return { logger: pino({ level: config.log.level, base: BASE }, options.log) };
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
