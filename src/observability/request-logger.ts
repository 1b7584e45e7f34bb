import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { AppConfig } from '../config/app-config.js';
import { truncatedAddress } from './client-address.js';
import { routeTemplate } from './route-template.js';

/** A well-formed incoming X-Request-Id: short and printable, so it is safe to log and echo. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The process's pino logger: JSON lines, or pretty lines in a terminal when pino-pretty is installed. */
export function createLogger(config: AppConfig): Logger {
  const options = { level: config.log.level, base: { service: 'vpsapi' } };
  if (config.log.pretty) {
    try {
      return pino(options, pino.transport({ target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }));
    } catch {
      // pino-pretty is a development dependency; production images log JSON.
    }
  }
  return pino(options);
}

/**
 * One log line per request: request id, method, route template, status, duration and bytes. No
 * bodies, no headers, no query strings, and the client address cut to its network. The request id
 * comes from a well-formed `X-Request-Id` or is generated, and is echoed on the response.
 */
export function requestLogger(logger: Logger): HttpLogger<IncomingMessage, ServerResponse> {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    quietReqLogger: true,
    customAttributeKeys: { responseTime: 'durationMs' },
    serializers: {
      req: (req: { id: string; method: string; url: string; raw: IncomingMessage }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0].slice(0, 200),
        client: truncatedAddress((req.raw as Request).ip ?? req.raw.socket?.remoteAddress),
      }),
      res: (res: { statusCode: number; headers?: Record<string, unknown> }) => ({
        status: res.statusCode,
        bytes: Number(res.headers?.['content-length'] ?? 0),
      }),
    },
    // The route is known only once the response is done, so it goes in the final line's object.
    customSuccessObject: (req, _res, value) => ({ ...value, route: routeTemplate(req as Request) }),
    customErrorObject: (req, _res, _error, value) => ({ ...value, route: routeTemplate(req as Request) }),
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${routeTemplate(req as Request)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeTemplate(req as Request)} ${res.statusCode}`,
  });
}

export type { Request, Response };
