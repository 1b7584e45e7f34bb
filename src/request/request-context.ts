import type { IncomingMessage } from 'node:http';

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
 * than in ad-hoc fields and symbols: set by the entry points (replay cache, guard, observer), read by the
 * access log, metrics, the document writer and the error filter. It lives on the request object
 * under one private symbol, so it goes away with the request.
 */
export interface RequestContext {
  /** The request id: a well-formed client-sent X-Request-Id, or a new one. Echoed as X-Request-Id, logged. */
  id?: string;
  /** The client address the rate limit counted (before Express sets `req.ip`). */
  clientAddress?: string;
  /** The route template of an answer the replay cache gave (the router did not run). */
  rememberedRoute?: string;
  /**
   * The request's count against the rate limit, once it was counted (by the replay cache, the guard,
   * the error filter, or with a batch's further calls): never counted twice, read for the headers.
   */
  counted?: RateLimitState;
  /** The original target of a request Express could not route (answered 400). */
  malformedTarget?: string;
  /** A POST body read by the replay cache (or the MCP controller), and the parser's error if it failed: read once. */
  bodyRead?: { error?: unknown };
  /** Body bytes of a response whose headers went out in one writeHead. */
  sentBytes?: number;
}

const CONTEXT = Symbol('vpsapi.requestContext');
type WithContext = IncomingMessage & { [CONTEXT]?: RequestContext };

/** The context of a request, created on first use. */
export function contextOf(req: IncomingMessage): RequestContext {
  const holder = req as WithContext;
  return (holder[CONTEXT] ??= {});
}
