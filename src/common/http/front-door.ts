import { Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { rateLimited, serviceUnavailable } from '../errors/problems.js';
import type { RateLimitState } from '../rate-limit/rate-limiter.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { CommonHeaders, MCP_PREFLIGHT_HEADERS, PREFLIGHT_HEADERS } from './common-headers.js';
import { DocumentResponder } from './document-responder.js';
import { EXEMPT_PATHS, pathOf } from './exempt-paths.js';
import { FastPaths } from './fast-paths.js';
import { isMcpPath } from './json-rpc-error.js';

const HSTS = 'max-age=31536000; includeSubDomains';

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

  /** 301 to the same path and query on the configured public host, never on the request's Host header. */
  private redirectToHttps(req: Request, res: Response): void {
    res.statusCode = 301;
    res.setHeader('Location', this.httpsOrigin + (req.originalUrl.startsWith('/') ? req.originalUrl : '/'));
    res.setHeader('Content-Length', '0');
    res.end();
  }
}
