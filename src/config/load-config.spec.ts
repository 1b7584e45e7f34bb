import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './load-config';

describe('loadConfig', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicBaseUrl: 'http://localhost:3000',
      dataDir: resolve('data'),
      rateLimit: { requests: 600, windowSeconds: 60 },
    });
  });

  it('builds absolute URLs on the port it listens on when PUBLIC_BASE_URL is not set', () => {
    expect(loadConfig({ PORT: '4106' }).publicBaseUrl).toBe('http://localhost:4106');
    expect(loadConfig({ PORT: '4106' }).url('/api/index.json')).toBe('http://localhost:4106/api/index.json');
    expect(loadConfig({ PORT: '4106', PUBLIC_BASE_URL: 'https://api.example.com' }).publicBaseUrl).toBe(
      'https://api.example.com',
    );
  });

  it('links to its own pages same-origin, with the path prefix of PUBLIC_BASE_URL', () => {
    const prefixed = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/vps/' });
    expect(prefixed.sitePath('/assets/site.css')).toBe('/vps/assets/site.css');
    expect(prefixed.sameOrigin('https://api.example.com/vps/plans?x=1#top')).toBe('/vps/plans?x=1#top');
    expect(prefixed.sameOrigin('https://api.example.com/other')).toBe('https://api.example.com/other');
    expect(prefixed.sameOrigin('https://api.example.com/vpsx')).toBe('https://api.example.com/vpsx');
    expect(prefixed.sameOrigin('https://www.hetzner.com/cloud')).toBe('https://www.hetzner.com/cloud');
    const root = loadConfig({ PORT: '4106' });
    expect(root.sitePath('/plans')).toBe('/plans');
    expect(root.sameOrigin('http://localhost:4106/guides/swap-file.md')).toBe('/guides/swap-file.md');
    expect(root.sameOrigin('http://localhost:3000/guides/swap-file.md')).toBe(
      'http://localhost:3000/guides/swap-file.md',
    );
  });

  it('reads and types every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: 'https://api.example.com/vps/',
      DATA_DIR: '/srv/dataset',
      RATE_LIMIT_REQUESTS: '100',
      RATE_LIMIT_WINDOW_SECONDS: '10',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: 'https://api.example.com/vps',
      dataDir: '/srv/dataset',
      rateLimit: { requests: 100, windowSeconds: 10 },
    });
    expect(config.url('/api/index.json')).toBe('https://api.example.com/vps/api/index.json');
  });

  it('names a non-numeric port with the value it got', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT: must be an integer from 0 to 65535 (got "abc")']);
  });

  it('refuses a public base URL that is not absolute http(s)', () => {
    expect(problemsOf({ PUBLIC_BASE_URL: 'api.example.com' })).toEqual([
      'PUBLIC_BASE_URL: must be an absolute http(s) URL such as https://api.example.com (got "api.example.com")',
    ]);
    expect(problemsOf({ PUBLIC_BASE_URL: 'ftp://example.com' })).toHaveLength(1);
  });

  it('lists every bad key at once', () => {
    expect(problemsOf({ PORT: '70000', RATE_LIMIT_REQUESTS: '0', RATE_LIMIT_WINDOW_SECONDS: '1.5' })).toEqual([
      'PORT: must be an integer from 0 to 65535 (got "70000")',
      'RATE_LIMIT_REQUESTS: must be a whole number from 1 to 1000000 (got "0")',
      'RATE_LIMIT_WINDOW_SECONDS: must be a whole number of seconds from 1 to 86400 (got "1.5")',
    ]);
  });

  it('requires REDIS_URL when the limit is shared through Redis', () => {
    expect(problemsOf({ RATE_LIMIT_STORE: 'redis' })).toEqual([
      'REDIS_URL: must be a redis:// or rediss:// URL (required when RATE_LIMIT_STORE=redis)',
    ]);
    expect(loadConfig({ RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://redis:6379' }).rateLimit).toMatchObject({
      store: 'redis',
      redisUrl: 'redis://redis:6379',
    });
  });

  it('refuses an unknown store, a malformed boolean and trusting every proxy', () => {
    expect(problemsOf({ RATE_LIMIT_STORE: 'memcached', REQUIRE_HTTPS: 'sometimes', TRUST_PROXY: 'true' })).toEqual([
      'RATE_LIMIT_STORE: must be memory or redis (got "memcached")',
      'TRUST_PROXY: must be false, a hop count from 1 to 10, or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8, loopback) (got "true")',
      'REQUIRE_HTTPS: must be true or false (got "sometimes")',
    ]);
  });

  it('reads trusted proxies as a hop count or a list', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/99' })).toHaveLength(1);
  });

  it('needs both TLS files or neither', () => {
    expect(problemsOf({ TLS_CERT_FILE: '/etc/tls/cert.pem' })).toEqual([
      'TLS_KEY_FILE: must be set together with TLS_CERT_FILE',
    ]);
  });

  it('reads the operations settings', () => {
    const config = loadConfig({
      METRICS_PORT: '9100',
      LOG_LEVEL: 'debug',
      LOG_PRETTY: 'false',
      SHUTDOWN_DELAY_MS: '2000',
      DATA_WATCH: 'no',
      MAINTENANCE_MODE: 'yes',
      PRECOMPUTE_VIEWS: 'false',
    });
    expect(config).toMatchObject({
      metrics: { port: 9100 },
      log: { level: 'debug', pretty: false, bufferBytes: 8192 },
      shutdown: { delayMs: 2000, timeoutMs: 10000 },
      server: { keepAliveTimeoutMs: 65000, headersTimeoutMs: 10000, requestTimeoutMs: 30000 },
      dataWatch: false,
      maintenanceMode: true,
      precomputeViews: false,
    });
    expect(loadConfig({}).precomputeViews).toBe(true);
    expect(problemsOf({ LOG_LEVEL: 'loud', SHUTDOWN_DELAY_MS: '-1' })).toEqual([
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'SHUTDOWN_DELAY_MS: must be a whole number of milliseconds from 0 to 120000 (got "-1")',
    ]);
  });

  it('gathers log lines up to LOG_BUFFER_BYTES, or writes each at once with 0', () => {
    expect(loadConfig({ LOG_BUFFER_BYTES: '0' }).log.bufferBytes).toBe(0);
    expect(loadConfig({ LOG_BUFFER_BYTES: '65536' }).log.bufferBytes).toBe(65536);
    expect(problemsOf({ LOG_BUFFER_BYTES: '4k' })).toEqual([
      'LOG_BUFFER_BYTES: must be a whole number of bytes from 0 to 65536 (got "4k")',
    ]);
    expect(problemsOf({ LOG_BUFFER_BYTES: '65537' })).toEqual([
      'LOG_BUFFER_BYTES: must be a whole number of bytes from 0 to 65536 (got "65537")',
    ]);
  });

  it('bounds the log bytes that wait for a stalled reader by LOG_MAX_PENDING_BYTES', () => {
    expect(loadConfig({}).log.maxPendingBytes).toBe(16_777_216);
    expect(loadConfig({ LOG_MAX_PENDING_BYTES: '65536' }).log.maxPendingBytes).toBe(65536);
    expect(problemsOf({ LOG_MAX_PENDING_BYTES: '1000' })).toEqual([
      'LOG_MAX_PENDING_BYTES: must be a whole number of bytes from 65536 to 1073741824 (got "1000")',
    ]);
  });

  it('binds the metrics server where HOST binds the API unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics.host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '127.0.0.1' }).metrics.host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '127.0.0.1', METRICS_HOST: '10.0.0.5' }).metrics.host).toBe('10.0.0.5');
    expect(problemsOf({ METRICS_HOST: '' })).toEqual(['METRICS_HOST: must not be empty (got "")']);
  });

  it('derives the hosts MCP answers for from PUBLIC_BASE_URL, unless told', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com' }).mcp.allowedHosts).toEqual([
      'api.example.com',
      'localhost',
      '127.0.0.1',
      '[::1]',
    ]);
    expect(loadConfig({ MCP_ALLOWED_HOSTS: 'a.example, B.example' }).mcp.allowedHosts).toEqual([
      'a.example',
      'b.example',
    ]);
    expect(problemsOf({ MCP_ALLOWED_ORIGINS: 'not an origin' })).toHaveLength(1);
  });

  it('refuses a headers timeout longer than the request timeout, naming both settings and values', () => {
    expect(problemsOf({ HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '20000' })).toEqual([
      'HEADERS_TIMEOUT_MS: must not be greater than REQUEST_TIMEOUT_MS, which is 20000 (a client is given no more time for its headers than for its whole request) (got "40000")',
    ]);
    expect(problemsOf({ HEADERS_TIMEOUT_MS: '40000' })[0]).toContain('REQUEST_TIMEOUT_MS, which is 30000');
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '20000' }).server).toMatchObject({
      headersTimeoutMs: 20000,
      requestTimeoutMs: 20000,
    });
    expect(problemsOf({ HEADERS_TIMEOUT_MS: 'soon', REQUEST_TIMEOUT_MS: '20000' })).toEqual([
      'HEADERS_TIMEOUT_MS: must be a whole number of milliseconds from 1000 to 600000 (got "soon")',
    ]);
  });

  it('puts every problem in the error message', () => {
    expect(() => loadConfig({ PORT: 'x', HOST: '' })).toThrow(/PORT: .*\n.*HOST: must not be empty/s);
  });
});
