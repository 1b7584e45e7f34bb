import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config.js';

/** Strict-Transport-Security on HTTPS answers when HTTPS is required. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * HTTPS, in one place: with REQUIRE_HTTPS, a plain-HTTP request is redirected (301) to the configured
 * public host, never the request's Host header, and every answer over HTTPS carries
 * Strict-Transport-Security. Whether a request came over HTTPS is Express's `req.secure` (its own TLS
 * socket, or `X-Forwarded-Proto: https` from a proxy TRUST_PROXY trusts).
 */
@Injectable()
export class HttpsPolicy {
  private readonly httpsOrigin: string;

  constructor(private readonly config: AppConfig) {
    this.httpsOrigin = `https://${new URL(config.publicBaseUrl).host}`;
  }

  /** Where to send a request that must come over HTTPS, or undefined when it may be answered. */
  redirectOf(req: Request): string | undefined {
    if (!this.config.requireHttps || req.secure) return undefined;
    const target = req.originalUrl;
    return this.httpsOrigin + (target.startsWith('/') ? target : '/');
  }

  /** Whether an answer to `req` carries Strict-Transport-Security. */
  hsts(req: Request): boolean {
    return this.config.requireHttps && req.secure;
  }
}
