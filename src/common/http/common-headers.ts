import { Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { DatasetService } from '../../dataset/dataset.service.js';
import { ALLOW_READ } from './api-paths.js';
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
  ['Access-Control-Allow-Headers', 'Accept, Content-Type, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, X-Request-Id'],
  ['Access-Control-Max-Age', '86400'],
  ['Allow', 'POST, OPTIONS'],
];

/**
 * The headers every response carries, whoever writes it: CORS for any origin (the data is public),
 * helmet's security headers and the dataset version. Set by the header interceptor, by the error
 * filter (some errors, such as a malformed percent-encoding, are raised before any route runs) and by
 * the parser-level refusals; written in one list by the replay cache and DocumentResponder (`flat`).
 */
@Injectable()
export class CommonHeaders {
  private readonly security = securityHeaders();

  constructor(private readonly dataset: DatasetService) {}

  private flatOf?: { version: string; headers: readonly string[] };

  /** Sets the common headers on a response that has not started. */
  apply(res: ServerResponse): void {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    for (const [name, value] of this.security) res.setHeader(name, value);
    if (this.dataset.isLoaded) res.setHeader('X-API-Version', this.dataset.current.version);
  }

  /**
   * The same headers as a flat name, value, ... list for one writeHead, once the dataset is loaded
   * (the replay cache serves nothing before). Built once per dataset version.
   */
  flat(): readonly string[] {
    const version = this.dataset.current.version;
    if (this.flatOf?.version !== version) {
      const headers = ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', EXPOSED_HEADERS];
      for (const [name, value] of this.security) headers.push(name, value);
      headers.push('X-API-Version', version);
      this.flatOf = { version, headers };
    }
    return this.flatOf.headers;
  }
}
