import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { ServerResponse } from 'node:http';
import { AppConfig } from '../../config/app-config.js';
import { DatasetService } from '../../dataset/dataset.service.js';
import { contextOf, type RateLimitState } from '../../request/request-context.js';
import { rateLimitHeaders } from '../rate-limit/rate-limit-headers.js';
import { ALLOW_READ } from './api-paths.js';
import { HSTS, HttpsPolicy } from './https-policy.js';
import { securityHeaders } from './security-headers.js';

/** Response headers a browser script may read. */
export const EXPOSED_HEADERS = [
  'ETag',
  'Last-Modified',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
  'X-API-Version',
  'X-Request-Id',
  'Deprecation',
  'Sunset',
  'Link',
].join(', ');

/** Headers a preflight answer carries (besides the common ones), for the read-only API and pages. */
export const PREFLIGHT_HEADERS: readonly [string, string][] = [
  ['Access-Control-Allow-Methods', ALLOW_READ],
  ['Access-Control-Allow-Headers', 'Accept, Accept-Encoding, If-None-Match, Cache-Control, Content-Type, X-Request-Id'],
  ['Access-Control-Max-Age', '86400'],
  ['Allow', ALLOW_READ],
];

/** Preflight headers for the MCP endpoint, which takes POST with the MCP headers. */
export const MCP_PREFLIGHT_HEADERS: readonly [string, string][] = [
  ['Access-Control-Allow-Methods', 'POST, OPTIONS'],
  // Mcp-Method and Mcp-Name: the standard headers of protocol revision 2026-07-28.
  [
    'Access-Control-Allow-Headers',
    'Accept, Content-Type, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, X-Request-Id',
  ],
  ['Access-Control-Max-Age', '86400'],
  ['Allow', 'POST, OPTIONS'],
];

/** What the common headers of one answer depend on. */
interface CommonHeadersOf {
  id?: string;
  counted?: RateLimitState;
  hsts: boolean;
}

/**
 * The headers every response carries, in one function: CORS for any origin (the data is public),
 * helmet's security headers, the dataset version, a default cache policy (`no-store`: a document sets
 * its own), the request id, the `RateLimit-*` headers of the request's count, and
 * Strict-Transport-Security where HTTPS is required. The header interceptor applies them to every
 * answer a route gives, the error filter to every error, and the parser-level refusals take the same
 * list (`list`) for the answer they write to the socket.
 */
@Injectable()
export class CommonHeaders {
  private readonly security = securityHeaders();
  private readonly windowSeconds: number;
  /** The headers that change only with the dataset version, built once per version. */
  private fixedOf?: { version: string | undefined; headers: readonly (readonly [string, string])[] };

  constructor(
    private readonly dataset: DatasetService,
    private readonly https: HttpsPolicy,
    config: AppConfig,
  ) {
    this.windowSeconds = config.rateLimit.windowSeconds;
  }

  /** Sets the common headers on the response to `req`, which has not started. */
  apply(req: Request, res: ServerResponse): void {
    const context = contextOf(req);
    const request = { id: context.id, counted: context.counted, hsts: this.https.hsts(req) };
    // How many were set, so the error filter can tell a response that carries nothing else.
    context.commonHeaders = this.each(request, (name, value) => res.setHeader(name, value));
  }

  /**
   * The common headers of an answer as a list: `id` is the request id, `counted` the request's count
   * against the rate limit (none for a request exempt from it), `hsts` whether it came over HTTPS.
   */
  list(request: CommonHeadersOf): (readonly [string, string])[] {
    const headers: (readonly [string, string])[] = [];
    this.each(request, (name, value) => headers.push([name, value]));
    return headers;
  }

  /** Hands every common header of an answer to `write`, in order; returns how many (each name once). */
  private each(request: CommonHeadersOf, write: (name: string, value: string) => void): number {
    const fixed = this.fixed();
    for (const [name, value] of fixed) write(name, value);
    let count = fixed.length;
    if (request.id !== undefined) {
      write('X-Request-Id', request.id);
      count++;
    }
    if (request.counted) {
      const limits = rateLimitHeaders(request.counted, this.windowSeconds);
      for (const [name, value] of limits) write(name, value);
      count += limits.length;
    }
    if (request.hsts) {
      write('Strict-Transport-Security', HSTS);
      count++;
    }
    return count;
  }

  private fixed(): readonly (readonly [string, string])[] {
    const version = this.dataset.isLoaded ? this.dataset.current.version : undefined;
    if (this.fixedOf?.version !== version || !this.fixedOf) {
      const headers: [string, string][] = [
        ['Access-Control-Allow-Origin', '*'],
        ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
        ...this.security,
        ['Cache-Control', 'no-store'],
      ];
      if (version !== undefined) headers.push(['X-API-Version', version]);
      this.fixedOf = { version, headers };
    }
    return this.fixedOf.headers;
  }
}
