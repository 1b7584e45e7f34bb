import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Options } from 'pino-http';
import { clientAddressOf, contextOf } from '../request/request-context.js';
import { truncatedAddress } from './client-address.js';
import { routeTemplate } from './route-template.js';

/** A well-formed incoming X-Request-Id: short and printable, so it is safe to log and echo. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The id of a request: a well-formed client-sent X-Request-Id, or a new one (echoed by CommonHeaders). */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  contextOf(req).id = id;
  return id;
}

/** The path of a request target, without its query (never logged: it may carry anything). */
const pathOnly = (url: string) => {
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)).slice(0, 200);
};

/**
 * pino-http's options for the access log (nestjs-pino applies it as Nest middleware): one line per
 * request when its answer is finished, at info level, or error from status 500 on, carrying the
 * request id (`reqId`), method, path, route template, status, bytes and duration (`durationMs`).
 * What is logged of the request is chosen, not filtered: the serializers keep the method, the path
 * without its query and the client's network (truncatedAddress), never the full address, the query,
 * headers, cookies or bodies.
 */
export function httpLoggingOptions(logger: Logger): Options {
  // Consecutive requests mostly come from the same client: its network is kept for the next line.
  let last: { address?: string; network?: string } = {};
  const clientNetwork = (address: string | undefined) => {
    if (address !== last.address) last = { address, network: truncatedAddress(address) };
    return last.network;
  };
  return {
    logger,
    genReqId: (req) => requestIdOf(req),
    // The id goes on the finished line (customSuccessObject), not into a child logger of its own: a
    // second child per request (quietReqLogger) makes each request's first child the prototype of the
    // second, which V8 turns into a prototype object; measured, that was about half of the access
    // log's cost per request (docs/performance.md).
    quietReqLogger: false,
    wrapSerializers: false,
    customAttributeKeys: { responseTime: 'durationMs' },
    serializers: {
      req: (req: Request) => ({
        method: req.method,
        path: pathOnly(req.originalUrl ?? req.url),
        client: clientNetwork(clientAddressOf(req)),
      }),
      res: (res: Response) => ({ status: res.statusCode, bytes: Number(res.getHeader('content-length') ?? 0) }),
      // pino-http attaches an error made up from the status to every 5xx line; the error filter has
      // already logged the real one (with the same reqId), so the access line carries none.
      err: () => undefined,
    },
    // By status alone: a client that went away before its answer is not a server error.
    customLogLevel: (_req, res: ServerResponse) => (res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${routeTemplate(req)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeTemplate(req)} ${res.statusCode}`,
    // The route is known once the router ran, so it goes on the finished line (customProps would also
    // bind it when the request arrives, before routing, and the line would carry it twice).
    customSuccessObject: (req, _res, line) => ({ reqId: req.id, ...line, route: routeTemplate(req) }),
    customErrorObject: (req, _res, _error, line) => ({ reqId: req.id, ...line, route: routeTemplate(req) }),
  };
}
