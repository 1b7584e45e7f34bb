import { Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { problemFromHttpStatus, rateLimited, serviceUnavailable } from '../errors/problems.js';
import { HttpProblem } from '../errors/http-problem.js';
import { toEnvelope } from '../errors/envelope.js';
import { type IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyaddr from 'proxy-addr';
import { CLIENT_ADDRESS, type Observe } from '../../observability/request-observer.js';
import { ContentEncodings } from './content-encoding.js';
import type { Duplex } from 'node:stream';
import type { RateLimitState } from '../rate-limit/rate-limiter.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { CommonHeaders, MCP_PREFLIGHT_HEADERS, PREFLIGHT_HEADERS } from './common-headers.js';
import { DocumentResponder } from './document-responder.js';
import { EXEMPT_PATHS, pathOf } from './exempt-paths.js';
import { FastPaths } from './fast-paths.js';
import { isMcpPath } from './json-rpc-error.js';

const HSTS = 'max-age=31536000; includeSubDomains';

/** Set on a request whose target Express could not turn into a path (the original target is kept). */
export const MALFORMED_TARGET = Symbol('malformedTarget');
/** The count of a request the front door counted before Express, passed on with it (over its limit). */
const COUNTED = Symbol('counted');
/** An error raised while the front door handled a request before Express, for the error filter. */
const DOOR_ERROR = Symbol('doorError');

/** Express's compiled `trust proxy` setting: whether the hop at index `i` with address `addr` is trusted. */
export type TrustFn = (addr: string, i: number) => boolean;

type DoorRequest = IncomingMessage & { fastRoute?: string; [CLIENT_ADDRESS]?: string; [COUNTED]?: RateLimitState; [DOOR_ERROR]?: unknown };

/** Whether a request came over HTTPS: what Express's req.secure computes (X-Forwarded-Proto only from a trusted hop). */
function isSecure(req: IncomingMessage, trust: TrustFn): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trust(req.socket.remoteAddress ?? '', 0)) return false;
  const header = req.headers['x-forwarded-proto'];
  const value = typeof header === 'string' ? header : 'http';
  const comma = value.indexOf(',');
  return (comma === -1 ? value : value.slice(0, comma)).trim() === 'https';
}

/** The canonical spelling of a header name (getHeaders() gives lowercase ones). */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/**
 * The first step of every request, mounted in front of Express's router and Nest's pipeline so that
 * nothing escapes it (unmatched paths, malformed URLs, preflight, redirects): stamps the common
 * headers, counts the request exactly once and writes the rate-limit headers, refuses over-limit
 * clients (429), redirects plain HTTP (301) when HTTPS is required, refuses requests while the
 * service cannot serve (503), answers CORS preflight (204), and answers a GET for a path whose
 * document it already knows (see FastPaths). Errors go on to the envelope filter.
 */
@Injectable()
export class FrontDoor {
  private readonly httpsOrigin: string;

  constructor(
    private readonly config: AppConfig,
    private readonly headers: CommonHeaders,
    private readonly limiter: RateLimiter,
    private readonly availability: AvailabilityService,
    private readonly fastPaths: FastPaths,
    private readonly responder: DocumentResponder,
    private readonly encodings: ContentEncodings,
  ) {
    this.httpsOrigin = `https://${new URL(config.publicBaseUrl).host}`;
  }

  /**
   * The front door in front of Express, as a request listener: a GET or HEAD of a path whose document
   * is remembered (FastPaths), in the plain case (service available, HTTPS satisfied when required, a
   * content coding the client accepts), is observed, counted and answered right here with one
   * writeHead, without Express's per-request setup, router and middleware. Every other request is
   * passed on untouched and uncounted to `handle`, in front of Express's router; a request counted
   * here and found over its limit is passed on with its count, so `handle` and the error filter write
   * the 429 as for any other. Same checks, same headers, one count per request on either path.
   */
  doorway(observe: Observe, trust: TrustFn) {
    return (request: IncomingMessage, res: ServerResponse, pass: () => void): void => {
      const req = request as DoorRequest;
      const method = req.method;
      if ((method !== 'GET' && method !== 'HEAD') || MALFORMED_TARGET in req) return pass();
      const url = req.url!;
      const known = this.fastPaths.lookup(url);
      if (!known || EXEMPT_PATHS.has(pathOf(url)) || this.availability.unavailableReason()) return pass();
      if (this.config.requireHttps && !isSecure(req, trust)) return pass();
      const doc = known.pick(req);
      const variant = this.encodings.choose(req.headers['accept-encoding'], doc);
      if (variant === null) return pass();

      const client = proxyaddr(req, trust);
      req[CLIENT_ADDRESS] = client;
      req.fastRoute = known.route;
      const id = observe(req, res);
      const answer = (state: RateLimitState) => {
        if (state.limited) {
          req[COUNTED] = state;
          res.setHeader('X-Request-Id', id);
          return pass();
        }
        const dynamic = ['X-Request-Id', id];
        this.limiter.pushHeaders(dynamic, state);
        if (this.config.requireHttps) dynamic.push('Strict-Transport-Security', HSTS);
        this.responder.writeHeadOnce(req, res, { doc, variant, cacheControl: known.cacheControl }, this.headers.flat(), dynamic);
      };
      const fail = (error: unknown) => {
        req[DOOR_ERROR] = error;
        if (!res.headersSent) pass();
      };
      try {
        const state = this.limiter.hit(normalizeIp(client));
        if (state instanceof Promise) state.then(answer).catch(fail);
        else answer(state);
      } catch (error) {
        fail(error);
      }
    };
  }

  /** Express middleware. */
  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    try {
      this.headers.apply(res);
      const door = req as Request & DoorRequest;
      if (DOOR_ERROR in door) return next(door[DOOR_ERROR]);
      if (EXEMPT_PATHS.has(pathOf(req.url))) return next();
      // The client is the connecting address, or the one a trusted proxy reports (TRUST_PROXY);
      // IPv6 clients are counted per /64, the block one subscriber usually holds.
      const state = door[COUNTED] ?? this.limiter.hit(normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
      if (state instanceof Promise) state.then((s) => this.admit(req, res, next, s)).catch(next);
      else this.admit(req, res, next, state);
    } catch (error) {
      next(error);
    }
  };

  private admit(req: Request, res: Response, next: NextFunction, state: RateLimitState): void {
    this.limiter.writeHeaders(res, state);
    if (state.limited) return next(rateLimited(state.limit, this.config.rateLimit.windowSeconds, state.resetSeconds));
    if (MALFORMED_TARGET in req) return next(problemFromHttpStatus(400, this.config));
    if (this.config.requireHttps) {
      // req.secure is the socket's TLS, or X-Forwarded-Proto only from a trusted proxy.
      if (!req.secure) return this.redirectToHttps(req, res);
      res.setHeader('Strict-Transport-Security', HSTS);
    }
    const reason = this.availability.unavailableReason();
    if (reason) {
      // A draining instance tells keep-alive clients to reconnect elsewhere.
      if (reason === 'draining') res.setHeader('Connection', 'close');
      return next(serviceUnavailable(reason, this.config.retryAfterSeconds));
    }
    // Remembered documents were answered by the doorway; what it passed on goes to the router.
    if (req.method === 'OPTIONS') {
      for (const [name, value] of isMcpPath(pathOf(req.url)) ? MCP_PREFLIGHT_HEADERS : PREFLIGHT_HEADERS) res.setHeader(name, value);
      res.statusCode = 204;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    next();
  }

  /**
   * A request Node's HTTP parser refused before any middleware (unknown method, malformed request
   * line or headers, headers too large, headers or body too slow): counted against the client like
   * any request and answered 400 (431 for oversized headers, 408 when too slow) with the envelope, the common and rate-limit headers, and
   * Connection: close.
   */
  readonly rejectMalformed = (error: NodeJS.ErrnoException, socket: Duplex & { remoteAddress?: string }): void => {
    if (!socket.writable) return void socket.destroy();
    const problem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new HttpProblem(431, 'bad_request', 'The request headers are too large.', 'Send fewer or shorter headers (cookies, If-None-Match lists).')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new HttpProblem(408, 'bad_request', 'The request took too long to arrive.', 'Send the whole request promptly; the connection was closed.')
          : problemFromHttpStatus(400, this.config);
    const answer = (state: RateLimitState) => {
      const headers = new ServerResponse({ method: 'GET' } as never);
      this.headers.apply(headers);
      this.limiter.writeHeaders(headers, state);
      const body = JSON.stringify(toEnvelope(problem, this.config));
      const lines = Object.entries(headers.getHeaders()).map(([name, value]) => `${headerName(name)}: ${String(value)}`);
      socket.end(
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${lines.join('\r\n')}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    try {
      const state = this.limiter.hit(normalizeIp(socket.remoteAddress ?? 'unknown'));
      if (state instanceof Promise) state.then(answer, () => socket.destroy());
      else answer(state);
    } catch {
      socket.destroy();
    }
  };

  /** 301 to the same path and query on the configured public host, never on the request's Host header. */
  private redirectToHttps(req: Request, res: Response): void {
    res.statusCode = 301;
    res.setHeader('Location', this.httpsOrigin + (req.originalUrl.startsWith('/') ? req.originalUrl : '/'));
    res.setHeader('Content-Length', '0');
    res.end();
  }
}
