import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { contextOf } from '../request/request-context.js';
import { accessMessage, accessObject } from './access-line.js';
import { truncatedAddress } from './client-address.js';
import { accessLogWriter } from './logger.js';
import type { MetricsService } from './metrics.service.js';
import { routeTemplate } from './route-template.js';

/** A well-formed incoming X-Request-Id: short and printable, so it is safe to log and echo. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

type Observed = IncomingMessage & { ip?: string };

/** The last request observed on each connection, with its response. */
const lastOnConnection = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();

/**
 * The last request observed on a connection and its response: what a parser error on that
 * connection follows (MalformedRequestAnswer tells an error in that request's body from a new one).
 */
export function lastObservedOn(socket: Socket): { req: IncomingMessage; res: ServerResponse } | undefined {
  return lastOnConnection.get(socket);
}

/** Starts observing a request and returns its id; the caller sends the id as X-Request-Id. */
export type Observe = (req: IncomingMessage, res: ServerResponse) => string;

/** What is known of a request Node's HTTP parser refused: no IncomingMessage exists for it. */
export interface RefusedRequest {
  /** The request line's method and target, when the parser read them. */
  method?: string;
  url?: string;
  remoteAddress?: string;
  status: number;
  bytes: number;
}

/**
 * Observes every request once, wherever it is answered (the front door before Express, or the
 * middleware in front of Express's router): assigns the request id (a well-formed X-Request-Id, or a
 * new one, echoed on the response), and when the response is done records its metrics and writes one
 * JSON access line through the logger: request id, method, path (no query), route template, status,
 * duration, bytes and the client's network (never the full address, bodies or headers). One listener
 * and one line per request: pino-http's per-request child loggers cost a fifth of the CPU on the hot
 * path.
 */
export function requestObserver(logger: Logger, metrics: MetricsService) {
  const record = recorder(logger, metrics);
  const observe: Observe = (request, response) => {
    const req = request as Observed;
    const res = response;
    const context = contextOf(req);
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    context.id = id;
    lastOnConnection.set(req.socket, { req, res });
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.statusCode;
      record(id, req.method!, req.url!, routeTemplate(req), status, seconds, context.clientAddress ?? req.ip ?? req.socket.remoteAddress, context.sentBytes ?? Number(res.getHeader('content-length') ?? 0));
    });
    return id;
  };
  /** Express middleware, for requests the front door passed on without observing them. */
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (contextOf(req).id === undefined) res.setHeader('X-Request-Id', observe(req, res));
    next();
  };
  return { observe, middleware };
}

/** Records one answered request: its metrics sample, and its access line (an error line from 500 on). */
function recorder(logger: Logger, metrics: MetricsService) {
  const logs = logger.isLevelEnabled('info');
  const access = accessLogWriter(logger);
  return (id: string, method: string, url: string, route: string, status: number, seconds: number, address: string | undefined, bytes: number): void => {
    metrics.observeRequest(method, route, status, seconds);
    if (!logs && status < 500) return;
    const q = url.indexOf('?');
    const entry = {
      reqId: id,
      method,
      path: (q === -1 ? url : url.slice(0, q)).slice(0, 200),
      client: truncatedAddress(address),
      status,
      bytes,
      durationMs: Math.round(seconds * 10000) / 10,
      route,
    };
    if (status < 500) access(entry);
    else logger.error(accessObject(entry), accessMessage(entry));
  };
}

/**
 * Observes a request Node's HTTP parser refused (MalformedRequestAnswer) like any other: a new request
 * id (returned, for X-Request-Id), one metrics sample and one access line. It was answered before any
 * routing, so its route is `unmatched`; its method and path are the request line's when the parser read
 * one, `-` otherwise; its duration is not known (Node gives no start time) and is recorded as 0.
 */
export function observeRefusedRequest(logger: Logger, metrics: MetricsService, refused: RefusedRequest): string {
  const id = randomUUID();
  recorder(logger, metrics)(id, refused.method ?? '-', refused.url ?? '-', 'unmatched', refused.status, 0, refused.remoteAddress, refused.bytes);
  return id;
}
