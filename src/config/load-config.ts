import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { resolve } from 'node:path';
import { isatty } from 'node:tty';
import { AppConfig, EMBEDDED_DATA_DIR } from './app-config.js';
import { EnvironmentVariables } from './environment-variables.js';
import { parseTrustProxy, type TrustProxy } from './is-trust-proxy.js';

/** Thrown when the environment holds invalid settings; lists every bad key. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads, validates and types the settings; throws ConfigError naming every bad key. */
export function loadConfig(env: Env = process.env): AppConfig {
  // Every setting has an initializer (undefined for optional ones), so the keys list them all.
  const known = Object.keys(new EnvironmentVariables());
  const present: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined) present[key] = value;
  }
  const vars = plainToInstance(EnvironmentVariables, present, { exposeDefaultValues: true });
  const errors = validateSync(vars, { forbidUnknownValues: true });
  if (errors.length > 0) throw new ConfigError(errors.map((e) => describe(e, present)));

  // Unset, it follows PORT: a local start on any port links to itself.
  const publicBaseUrl = (vars.PUBLIC_BASE_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, '');
  return new AppConfig({
    port: vars.PORT,
    host: vars.HOST,
    publicBaseUrl,
    dataDir: vars.DATA_DIR ? resolve(vars.DATA_DIR) : EMBEDDED_DATA_DIR,
    rateLimit: {
      requests: vars.RATE_LIMIT_REQUESTS,
      windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS,
      store: vars.RATE_LIMIT_STORE,
      redisUrl: vars.REDIS_URL,
      redisPassword: vars.REDIS_PASSWORD,
    },
    trustProxy: parseTrustProxy(vars.TRUST_PROXY) as TrustProxy,
    requireHttps: vars.REQUIRE_HTTPS,
    tls:
      vars.TLS_CERT_FILE && vars.TLS_KEY_FILE
        ? { certFile: vars.TLS_CERT_FILE, keyFile: vars.TLS_KEY_FILE }
        : undefined,
    retryAfterSeconds: vars.RETRY_AFTER_SECONDS,
    mcp: {
      allowedHosts: vars.MCP_ALLOWED_HOSTS
        ? splitList(vars.MCP_ALLOWED_HOSTS).map((h) => h.toLowerCase())
        : [...new Set([new URL(publicBaseUrl).hostname.toLowerCase(), 'localhost', '127.0.0.1', '[::1]'])],
      allowedOrigins:
        vars.MCP_ALLOWED_ORIGINS.trim() === '*'
          ? '*'
          : splitList(vars.MCP_ALLOWED_ORIGINS).map((o) => o.replace(/\/+$/, '')),
      answerCacheBytes: vars.MCP_ANSWER_CACHE_BYTES,
    },
    maintenanceMode: vars.MAINTENANCE_MODE,
    metrics: { port: vars.METRICS_PORT, host: vars.METRICS_HOST ?? vars.HOST },
    log: {
      level: vars.LOG_LEVEL,
      // isatty(1), not process.stdout.isTTY: creating process.stdout sets fd 1 non-blocking.
      pretty: vars.LOG_PRETTY === 'auto' ? isatty(1) && env.NODE_ENV !== 'production' : vars.LOG_PRETTY === 'true',
      bufferBytes: vars.LOG_BUFFER_BYTES,
      maxPendingBytes: vars.LOG_MAX_PENDING_BYTES,
    },
    shutdown: { delayMs: vars.SHUTDOWN_DELAY_MS, timeoutMs: vars.SHUTDOWN_TIMEOUT_MS },
    server: {
      keepAliveTimeoutMs: vars.KEEP_ALIVE_TIMEOUT_MS,
      headersTimeoutMs: vars.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: vars.REQUEST_TIMEOUT_MS,
    },
    dataWatch: vars.DATA_WATCH,
    precomputeViews: vars.PRECOMPUTE_VIEWS,
  });
}

const splitList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function describe(error: ValidationError, raw: Record<string, string>): string {
  const reasons = [...new Set(Object.values(error.constraints ?? {}))].join('; ');
  const got = raw[error.property] === undefined ? '' : ` (got ${JSON.stringify(raw[error.property])})`;
  return `${error.property}: ${reasons}${got}`;
}
