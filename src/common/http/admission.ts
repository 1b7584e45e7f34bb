import { Injectable } from '@nestjs/common';
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { AppConfig } from '../../config/app-config.js';
import type { TrustProxy } from '../../config/is-trust-proxy.js';
import type { RateLimitState } from '../../request/request-context.js';
import type { UnavailableReason } from '../availability/availability.service.js';
import type { HttpProblem } from '../errors/http-problem.js';
import { problemFromHttpStatus, rateLimited, serviceUnavailable } from '../errors/problems.js';
import { MCP_PREFLIGHT_HEADERS, PREFLIGHT_HEADERS } from './common-headers.js';
import { isMcpPath } from './mcp-path.js';

/**
 * Probes of the orchestrator: never counted, redirected or refused, so that a busy or draining
 * instance still reports its own health.
 */
const EXEMPT_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The path of a request URL, without its query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Whether a request to `path` is counted against the rate limit and admitted by `decide` at all. */
export const isAdmissionExempt = (path: string) => EXEMPT_PATHS.has(path);

/** Whether the hop at index `i` (0: the connecting peer) with address `addr` is a trusted proxy. */
export type TrustFn = (addr: string, i: number) => boolean;

/**
 * TRUST_PROXY as a function, with the meaning Express documents for its `trust proxy` setting (which
 * gets the same value): a number trusts the first n hops, addresses and subnets (proxy-addr's names such
 * as `loopback` included) those hops, false none.
 */
export function trustFunction(setting: TrustProxy): TrustFn {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_addr, i) => i < setting;
  return proxyaddr.compile(setting);
}

/**
 * Whether a request came over HTTPS: its own TLS socket, or `X-Forwarded-Proto: https` from a trusted
 * proxy (the first value, as Express's `req.protocol` reads it). Both entry points use this one
 * reading, before and inside Express.
 */
export function isSecure(req: IncomingMessage, trust: TrustFn): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trust(req.socket.remoteAddress ?? '', 0)) return false;
  const header = req.headers['x-forwarded-proto'];
  const value = typeof header === 'string' ? header : 'http';
  const comma = value.indexOf(',');
  return (comma === -1 ? value : value.slice(0, comma)).trim() === 'https';
}

/** What the admission decision reads about a request, after it was counted. */
export interface RequestFacts {
  method: string;
  /** The request target as received (path and query), for a redirect. */
  url: string;
  secure: boolean;
  /** Express could not turn the target into a path. */
  malformed: boolean;
  limit: RateLimitState;
  /** Why the service cannot serve now, if it cannot. */
  unavailable: UnavailableReason | undefined;
}

/** What to do with a request. */
export type Admission =
  /** Go on to the document or the router; `hsts` says whether to send Strict-Transport-Security. */
  | { kind: 'serve'; hsts: boolean }
  /** Answer the problem (through the error filter); `closeConnection` asks keep-alive clients to reconnect elsewhere. */
  | { kind: 'refuse'; problem: HttpProblem; closeConnection: boolean; hsts: boolean }
  /** 301 to `location`, with no body. */
  | { kind: 'redirect'; location: string }
  /** 204 with the CORS preflight headers. */
  | { kind: 'preflight'; headers: readonly (readonly [string, string])[]; hsts: boolean };

export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The admission rules, once, in order: over the limit → 429; an unroutable target → 400; plain HTTP
 * when HTTPS is required → 301 to the configured public host (never the request's Host header);
 * starting, draining or maintenance → 503; OPTIONS → CORS preflight; anything else is served. A pure
 * function of the facts and the configuration: the replay cache and the header interceptor call it and
 * only write differently.
 */
@Injectable()
export class AdmissionPolicy {
  private readonly httpsOrigin: string;
  /** TRUST_PROXY, compiled once: whose X-Forwarded-Proto to believe. */
  readonly trust: TrustFn;

  constructor(private readonly config: AppConfig) {
    this.httpsOrigin = `https://${new URL(config.publicBaseUrl).host}`;
    this.trust = trustFunction(config.trustProxy);
  }

  /**
   * The client's address as Express's `req.ip` gives it with the same TRUST_PROXY (proxy-addr): the
   * connecting peer when no proxy is trusted, without reading X-Forwarded-For at all.
   */
  clientAddress(req: IncomingMessage): string {
    return this.config.trustProxy === false ? (req.socket.remoteAddress ?? '') : proxyaddr(req, this.trust);
  }

  /** Whether a request came over HTTPS (isSecure, with TRUST_PROXY). */
  secure(req: IncomingMessage): boolean {
    return isSecure(req, this.trust);
  }

  decide(facts: RequestFacts): Admission {
    const { config } = this;
    if (facts.limit.limited) {
      return { kind: 'refuse', problem: rateLimited(facts.limit.limit, config.rateLimit.windowSeconds, facts.limit.resetSeconds), closeConnection: false, hsts: false };
    }
    if (facts.malformed) return { kind: 'refuse', problem: problemFromHttpStatus(400, config), closeConnection: false, hsts: false };
    if (config.requireHttps && !facts.secure) {
      return { kind: 'redirect', location: this.httpsOrigin + (facts.url.startsWith('/') ? facts.url : '/') };
    }
    const hsts = config.requireHttps;
    if (facts.unavailable) {
      return { kind: 'refuse', problem: serviceUnavailable(facts.unavailable, config.retryAfterSeconds), closeConnection: facts.unavailable === 'draining', hsts };
    }
    if (facts.method === 'OPTIONS') return { kind: 'preflight', headers: isMcpPath(pathOf(facts.url)) ? MCP_PREFLIGHT_HEADERS : PREFLIGHT_HEADERS, hsts };
    return { kind: 'serve', hsts };
  }
}
