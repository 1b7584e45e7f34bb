import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { IsTrustProxy } from './is-trust-proxy.js';

/** Reads the usual spellings of a boolean; anything else stays a string and fails validation. */
const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off', ''].includes(v)) return false;
  return value;
};

/** A whole number from the environment, within bounds, with one message for every way it can be wrong. */
function IntegerSetting(min: number, max: number, message: string): PropertyDecorator {
  return applyDecorators(
    Type(() => Number),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}

/** A boolean from the environment, in any of the usual spellings. */
function BooleanSetting(): PropertyDecorator {
  return applyDecorators(Transform(toBoolean), IsBoolean({ message: 'must be true or false' }));
}

/**
 * A whole-number setting that may not exceed another one. Node's HTTP server refuses to start with a
 * headers timeout above its request timeout (ERR_OUT_OF_RANGE), so the pair is checked here, where
 * the message can name both settings. Values that are not whole numbers are left to their own checks.
 */
function NotAbove(other: keyof EnvironmentVariables): PropertyDecorator {
  return ValidateBy({
    name: 'notAbove',
    validator: {
      validate: (value, args) => {
        const limit = (args?.object as EnvironmentVariables)[other];
        return !Number.isInteger(value) || !Number.isInteger(limit) || (value as number) <= (limit as number);
      },
      defaultMessage: (args) =>
        `must not be greater than ${other}, which is ${String((args?.object as EnvironmentVariables)[other])} ` +
        `(a client is given no more time for its headers than for its whole request)`,
    },
  });
}

/**
 * Every setting the service reads from its environment, with its default.
 * Validated once at start by `loadConfig`; nothing else reads `process.env`.
 * Optional settings are initialized to undefined so that `Object.keys` lists them all.
 */
export class EnvironmentVariables {
  /** TCP port of the public HTTP server. */
  @IntegerSetting(0, 65535, 'must be an integer from 0 to 65535')
  PORT = 3000;

  /** Interface the HTTP server binds to. */
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  HOST = '0.0.0.0';

  /** Origin that absolute URLs in responses are built from (scheme, host, optional port and path prefix); default http://localhost:PORT. */
  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'must be an absolute http(s) URL such as https://api.example.com' },
  )
  PUBLIC_BASE_URL: string | undefined = undefined;

  /** Directory of the dataset to serve; defaults to the embedded `data/`. */
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  DATA_DIR: string | undefined = undefined;

  /** Requests each client may make per window. */
  @IntegerSetting(1, 1_000_000, 'must be a whole number from 1 to 1000000')
  RATE_LIMIT_REQUESTS = 600;

  /** Length of the rate-limit window in seconds. */
  @IntegerSetting(1, 86_400, 'must be a whole number of seconds from 1 to 86400')
  RATE_LIMIT_WINDOW_SECONDS = 60;

  /** Where the rate-limit counters live: in this process, or in Redis shared by every replica. */
  @IsIn(['memory', 'redis'], { message: 'must be memory or redis' })
  RATE_LIMIT_STORE: 'memory' | 'redis' = 'memory';

  /** Redis connection URL; required when RATE_LIMIT_STORE=redis. */
  @ValidateIf((env: EnvironmentVariables) => env.RATE_LIMIT_STORE === 'redis' || env.REDIS_URL !== undefined)
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] },
    { message: 'must be a redis:// or rediss:// URL (required when RATE_LIMIT_STORE=redis)' },
  )
  REDIS_URL: string | undefined = undefined;

  /** Password for Redis's AUTH, kept apart from REDIS_URL so that it can come from a Secret; a password in REDIS_URL works too. */
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  REDIS_PASSWORD: string | undefined = undefined;

  /** Which proxies to believe about the client address and scheme: off, a hop count, or addresses/CIDRs. */
  @IsTrustProxy()
  TRUST_PROXY = 'false';

  /** Redirect plain HTTP to HTTPS (301) and send Strict-Transport-Security. */
  @BooleanSetting()
  REQUIRE_HTTPS = false;

  /** PEM certificate chain: set with TLS_KEY_FILE to terminate TLS in the service itself. */
  @ValidateIf((env: EnvironmentVariables) => env.TLS_CERT_FILE !== undefined || env.TLS_KEY_FILE !== undefined)
  @IsString({ message: 'must be set together with TLS_KEY_FILE' })
  @IsNotEmpty({ message: 'must be set together with TLS_KEY_FILE' })
  TLS_CERT_FILE: string | undefined = undefined;

  /** PEM private key for TLS_CERT_FILE. */
  @ValidateIf((env: EnvironmentVariables) => env.TLS_CERT_FILE !== undefined || env.TLS_KEY_FILE !== undefined)
  @IsString({ message: 'must be set together with TLS_CERT_FILE' })
  @IsNotEmpty({ message: 'must be set together with TLS_CERT_FILE' })
  TLS_KEY_FILE: string | undefined = undefined;

  /** Seconds clients are told to wait in Retry-After on 503. */
  @IntegerSetting(1, 3600, 'must be a whole number of seconds from 1 to 3600')
  RETRY_AFTER_SECONDS = 30;

  /** Host names /mcp answers for (DNS-rebinding protection); default: PUBLIC_BASE_URL's host and loopback names. */
  @IsOptional()
  @Matches(/^\s*(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(\s*,\s*(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+))*\s*$/, {
    message: 'must be a comma-separated list of host names without ports, e.g. api.example.com, localhost',
  })
  MCP_ALLOWED_HOSTS: string | undefined = undefined;

  /** Origins allowed to call /mcp from a browser: `*` (default; the data is public) or a comma-separated list. */
  @Matches(/^\s*(\*|https?:\/\/[^\s,]+(\s*,\s*https?:\/\/[^\s,]+)*)\s*$/, {
    message: 'must be * or a comma-separated list of origins such as https://app.example.com',
  })
  MCP_ALLOWED_ORIGINS = '*';

  /** Memory for remembered MCP answers (McpAnswers, an LRU emptied with each dataset version), in bytes; 0 turns it off. */
  @IntegerSetting(0, 1_073_741_824, 'must be a whole number of bytes from 0 to 1073741824')
  MCP_ANSWER_CACHE_BYTES = 8_388_608;

  /** Port of the Prometheus metrics server (not public); 0 picks a free port. */
  @IntegerSetting(0, 65535, 'must be an integer from 0 to 65535')
  METRICS_PORT = 9464;

  /** Interface the metrics server binds to; defaults to HOST, so narrowing HOST narrows both servers. */
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  METRICS_HOST: string | undefined = undefined;

  /** Lowest level written to the log. */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL = 'info';

  /** Human-readable log lines: `auto` (in a terminal, outside production), `true` or `false` (JSON). */
  @IsIn(['auto', 'true', 'false'], { message: 'must be auto, true or false' })
  LOG_PRETTY = 'auto';

  /**
   * JSON log lines are gathered up to this many bytes (and for at most a second) before one write to
   * standard output; 0 writes every line as it is logged.
   */
  @IntegerSetting(0, 65_536, 'must be a whole number of bytes from 0 to 65536')
  LOG_BUFFER_BYTES = 8192;

  /** Log bytes that may wait for a reader of standard output that stalls; lines beyond are dropped (and counted). */
  @IntegerSetting(65_536, 1_073_741_824, 'must be a whole number of bytes from 65536 to 1073741824')
  LOG_MAX_PENDING_BYTES = 16_777_216;

  /** After SIGTERM, how long to keep serving while the load balancer notices the instance is not ready. */
  @IntegerSetting(0, 120_000, 'must be a whole number of milliseconds from 0 to 120000')
  SHUTDOWN_DELAY_MS = 5000;

  /** After the delay, the longest in-flight requests may take before connections are cut. */
  @IntegerSetting(100, 120_000, 'must be a whole number of milliseconds from 100 to 120000')
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /** Idle keep-alive time; above common load-balancer idle timeouts (60 s) so the balancer closes first. */
  @IntegerSetting(1000, 600_000, 'must be a whole number of milliseconds from 1000 to 600000')
  KEEP_ALIVE_TIMEOUT_MS = 65_000;

  /** Longest time a client may take to send its request headers. */
  @IntegerSetting(1000, 600_000, 'must be a whole number of milliseconds from 1000 to 600000')
  @NotAbove('REQUEST_TIMEOUT_MS')
  HEADERS_TIMEOUT_MS = 10_000;

  /** Longest time a client may take to send a whole request. */
  @IntegerSetting(1000, 600_000, 'must be a whole number of milliseconds from 1000 to 600000')
  REQUEST_TIMEOUT_MS = 30_000;

  /** Reload the dataset when files under DATA_DIR change (SIGHUP always reloads). */
  @BooleanSetting()
  DATA_WATCH = true;

  /**
   * Build every view derived from the dataset (pages, search index, documents) before the first
   * request; false builds each on its first use. Reloads always build them all first.
   */
  @BooleanSetting()
  PRECOMPUTE_VIEWS = true;

  /** Answer every API request with 503 (planned maintenance). */
  @BooleanSetting()
  MAINTENANCE_MODE = false;
}
