import { resolve } from 'node:path';
import type { TrustProxy } from './is-trust-proxy.js';

export type AppConfigValues = Omit<AppConfig, 'url' | 'sitePath' | 'sameOrigin'>;

/** The validated, typed configuration. Built once by `loadConfig`; injected as a class token. */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  /** Origin for absolute URLs, without a trailing slash. */
  readonly publicBaseUrl: string;
  readonly dataDir: string;
  readonly rateLimit: {
    readonly requests: number;
    readonly windowSeconds: number;
    readonly store: 'memory' | 'redis';
    readonly redisUrl?: string;
    /** REDIS_PASSWORD: sent with AUTH; undefined leaves it to REDIS_URL. */
    readonly redisPassword?: string;
  };
  /** Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed. */
  readonly trustProxy: TrustProxy;
  readonly requireHttps: boolean;
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  readonly retryAfterSeconds: number;
  readonly mcp: {
    /** Lowercase host names (no port) /mcp answers for. */
    readonly allowedHosts: readonly string[];
    /** `*`, or the exact origins allowed. */
    readonly allowedOrigins: '*' | readonly string[];
    /** Byte budget of the remembered MCP answers (McpAnswers); 0 turns it off. */
    readonly answerCacheBytes: number;
  };
  readonly maintenanceMode: boolean;
  readonly metrics: { readonly port: number; readonly host: string };
  /** `bufferBytes`: JSON lines gathered before one write to standard output (0: each line at once); `maxPendingBytes`: log bytes that may wait for a stalled reader. */
  readonly log: {
    readonly level: string;
    readonly pretty: boolean;
    readonly bufferBytes: number;
    readonly maxPendingBytes: number;
  };
  readonly shutdown: { readonly delayMs: number; readonly timeoutMs: number };
  readonly server: {
    readonly keepAliveTimeoutMs: number;
    readonly headersTimeoutMs: number;
    readonly requestTimeoutMs: number;
  };
  /** Reload on changes under dataDir. */
  readonly dataWatch: boolean;
  /** Build every derived view at start (a reload always does); otherwise each on its first use. */
  readonly precomputeViews: boolean;

  constructor(values: AppConfigValues) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  /** The absolute URL of a path on this deployment. */
  url(path: string): string {
    return this.publicBaseUrl + path;
  }

  /**
   * A path on this deployment as a same-origin link: PUBLIC_BASE_URL's path prefix and `path`, without
   * scheme, host or port. Pages link to their own assets and pages this way, so they work whatever host
   * and port the browser reached them on.
   */
  sitePath(path: string): string {
    return new URL(this.publicBaseUrl).pathname.replace(/\/+$/, '') + path;
  }

  /** One of this deployment's absolute URLs as a same-origin link (see sitePath); any other URL unchanged. */
  sameOrigin(url: string): string {
    const base = this.publicBaseUrl;
    if (url !== base && !url.startsWith(`${base}/`) && !url.startsWith(`${base}?`) && !url.startsWith(`${base}#`))
      return url;
    const { pathname, search, hash } = new URL(url);
    return pathname + search + hash;
  }
}

/** The embedded dataset shipped in the repository, relative to the working directory. */
export const EMBEDDED_DATA_DIR = resolve('data');
