import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The outcome of counting one request against the rate limit. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSeconds: number;
  limited: boolean;
}

/**
 * Everything the service records about one request while answering it, in one typed place rather
 * than in ad-hoc fields and symbols: set by the access log (the id), the guard (the count) and the
 * request-target check, read by CommonHeaders, the interceptor and the error filter. It lives on the
 * request object under one private symbol, so it goes away with the request.
 */
export interface RequestContext {
  /** The request id: a well-formed client-sent X-Request-Id, or a new one. Echoed as X-Request-Id, logged. */
  id?: string;
  /** The request's count against the rate limit, once it was counted: read for the RateLimit-* headers. */
  counted?: RateLimitState;
  /** The original target of a request Express could not route (answered 400). */
  malformedTarget?: string;
  /** The client's address (clientAddressOf), read once: Express computes `req.ip` anew on every read. */
  clientAddress?: string;
  /** How many headers CommonHeaders set on the response (distinct names), once it has set them. */
  commonHeaders?: number;
}

const CONTEXT = Symbol('vpsapi.requestContext');
type WithContext = IncomingMessage & { [CONTEXT]?: RequestContext };

/** The context of a request, created on first use. */
export function contextOf(req: IncomingMessage): RequestContext {
  const holder = req as WithContext;
  return (holder[CONTEXT] ??= {});
}

/**
 * The client's address: Express's `req.ip` (the socket's peer, or the address a proxy TRUST_PROXY trusts
 * reported in X-Forwarded-For), else the socket's; read once per request, as the guard and the access log
 * both ask for it and Express parses the addresses again on every read.
 */
export function clientAddressOf(req: IncomingMessage & { ip?: string }): string | undefined {
  const context = contextOf(req);
  return (context.clientAddress ??= req.ip ?? req.socket?.remoteAddress);
}

/** The last request seen on each connection, with its response. */
const lastOnConnection = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();

/** Remembers `req` as the last request on its connection (every request, as it arrives). */
export function rememberOnConnection(req: IncomingMessage, res: ServerResponse): void {
  lastOnConnection.set(req.socket, { req, res });
}

/**
 * Forgets `req` as its connection's last request once it is complete and its answer `res` is finished.
 * From then on a parser error on the connection can only be a new request, which is what
 * MalformedRequestAnswer concludes when it finds no last request. Kept until the connection's next
 * request instead, every answered request (and all that hangs from it) would survive young-generation
 * collections and be promoted, for the old-space collector to take (measured: docs/performance.md).
 */
export function forgetOnConnection(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete && lastOnConnection.get(req.socket)?.res === res) lastOnConnection.delete(req.socket);
}

/**
 * The last request seen on a connection and its response: what a parser error on that connection
 * follows (MalformedRequestAnswer tells an error in that request's body from a new request).
 */
export function lastRequestOn(socket: Socket): { req: IncomingMessage; res: ServerResponse } | undefined {
  return lastOnConnection.get(socket);
}
