import { Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { rateLimited, serviceUnavailable } from '../errors/problems.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { CommonHeaders, MCP_PREFLIGHT_HEADERS, PREFLIGHT_HEADERS } from './common-headers.js';
import { isMcpPath } from './json-rpc-error.js';
import { EXEMPT_PATHS, pathOf } from './exempt-paths.js';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The first step of every request, mounted in front of Express's router and Nest's pipeline so that
 * nothing escapes it (unmatched paths, malformed URLs, preflight, redirects): stamps the common
 * headers, counts the request exactly once and writes the rate-limit headers, refuses over-limit
 * clients (429), redirects plain HTTP (301) when HTTPS is required, refuses requests while the
 * service cannot serve (503), and answers CORS preflight (204). Errors go on to the envelope filter.
 */
@Injectable()
export class FrontDoor {
  private readonly httpsOrigin: string;

  constructor(
    private readonly config: AppConfig,
    private readonly headers: CommonHeaders,
    private readonly limiter: RateLimiter,
    private readonly availability: AvailabilityService,
  ) {
    this.httpsOrigin = `https://${new URL(config.publicBaseUrl).host}`;
  }

  /** Express middleware. */
  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    this.admit(req, res).then((proceed) => proceed && next(), next);
  };

  /** Resolves true when the request goes on to the router, false when it has been answered here. */
  private async admit(req: Request, res: Response): Promise<boolean> {
    this.headers.apply(res);
    const exempt = EXEMPT_PATHS.has(pathOf(req.url));
    if (!exempt) {
      // The client is the connecting address, or the one a trusted proxy reports (TRUST_PROXY);
      // IPv6 clients are counted per /64, the block one subscriber usually holds.
      const state = await this.limiter.hit(normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
      this.limiter.writeHeaders(res, state);
      if (state.limited) throw rateLimited(state.limit, this.config.rateLimit.windowSeconds, state.resetSeconds);
    }
    if (this.config.requireHttps && !exempt) {
      // req.secure is the socket's TLS, or X-Forwarded-Proto only from a trusted proxy.
      if (!req.secure) {
        this.redirectToHttps(req, res);
        return false;
      }
      res.setHeader('Strict-Transport-Security', HSTS);
    }
    const reason = exempt ? undefined : this.availability.unavailableReason();
    if (reason) {
      // A draining instance tells keep-alive clients to reconnect elsewhere.
      if (reason === 'draining') res.setHeader('Connection', 'close');
      throw serviceUnavailable(reason, this.config.retryAfterSeconds);
    }
    if (req.method === 'OPTIONS') {
      for (const [name, value] of isMcpPath(pathOf(req.url)) ? MCP_PREFLIGHT_HEADERS : PREFLIGHT_HEADERS) res.setHeader(name, value);
      res.statusCode = 204;
      res.setHeader('Content-Length', '0');
      res.end();
      return false;
    }
    return true;
  }

  /** 301 to the same path and query on the configured public host, never on the request's Host header. */
  private redirectToHttps(req: Request, res: Response): void {
    res.statusCode = 301;
    res.setHeader('Location', this.httpsOrigin + (req.originalUrl.startsWith('/') ? req.originalUrl : '/'));
    res.setHeader('Content-Length', '0');
    res.end();
  }
}
