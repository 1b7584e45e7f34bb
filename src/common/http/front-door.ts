import { Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { problemFromHttpStatus, rateLimited, serviceUnavailable } from '../errors/problems.js';
import { HttpProblem } from '../errors/http-problem.js';
import { toEnvelope } from '../errors/envelope.js';
import { ServerResponse, STATUS_CODES } from 'node:http';
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
  ) {
    this.httpsOrigin = `https://${new URL(config.publicBaseUrl).host}`;
  }

  /** Express middleware. */
  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    try {
      this.headers.apply(res);
      if (EXEMPT_PATHS.has(pathOf(req.url))) return next();
      // The client is the connecting address, or the one a trusted proxy reports (TRUST_PROXY);
      // IPv6 clients are counted per /64, the block one subscriber usually holds.
      const state = this.limiter.hit(normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
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
    if (req.method === 'GET' || req.method === 'HEAD') {
      const known = this.fastPaths.lookup(req.url);
      if (known) {
        (req as Request & { fastRoute?: string }).fastRoute = known.route;
        return this.responder.write(req, res, known.pick(req), known.cacheControl);
      }
    } else if (req.method === 'OPTIONS') {
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
