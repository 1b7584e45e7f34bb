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

  it('puts every problem in the error message', () => {
    expect(() => loadConfig({ PORT: 'x', HOST: '' })).toThrow(/PORT: .*\n.*HOST: must not be empty/s);
  });
});
