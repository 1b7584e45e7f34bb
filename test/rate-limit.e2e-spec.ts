import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';
import { rawMeta } from './support/raw-data';

const TLS_FIXTURES = join(__dirname, 'fixtures', 'tls');

/** Asserts the four RateLimit-* headers and returns Remaining. */
function expectLimitHeaders(res: request.Response, limit: number, window: number): number {
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  expect(res.headers['ratelimit-policy']).toBe(`${limit};w=${window}`);
  expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/);
  const reset = Number(res.headers['ratelimit-reset']);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(window);
  return Number(res.headers['ratelimit-remaining']);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The apps started below, closed when the file ends. */
const started: TestApp[] = [];
afterAll(() => Promise.all(started.map((app) => app.close())));

/** An app shared by tests in different describes: started by the first that asks for it, so a test run alone with -t starts only the apps it uses. */
function sharedApp(env: Record<string, string>): () => Promise<TestApp> {
  let booting: Promise<TestApp> | undefined;
  return () => (booting ??= startTestApp(env).then((t) => (started.push(t), t)));
}

/**
 * HTTPS required, no proxy trusted: the 301 of the header table and the tests of the redirect. The public
 * URL is the redirect test's; the header table only reads the status and the headers of its 301.
 */
const httpsOnly = sharedApp({
  RATE_LIMIT_REQUESTS: '500',
  RATE_LIMIT_WINDOW_SECONDS: '120',
  REQUIRE_HTTPS: 'true',
  PUBLIC_BASE_URL: 'http://api.vpsapi.test:8080',
});

/**
 * Behind a trusted proxy that terminates TLS (HTTPS required, X-Forwarded-Proto believed from loopback): the
 * client-identity tests, each with client addresses of its own (X-Forwarded-For, sent with
 * X-Forwarded-Proto: https as such a proxy does), and the HSTS test, as the connecting address.
 */
const behindProxy = sharedApp({
  RATE_LIMIT_REQUESTS: '3',
  RATE_LIMIT_WINDOW_SECONDS: '60',
  TRUST_PROXY: 'loopback',
  REQUIRE_HTTPS: 'true',
});

describe('rate limiting', () => {
  describe('headers on every kind of response', () => {
    let t: TestApp;
    let maintenance: TestApp;
    let https: TestApp;
    beforeAll(async () => {
      [t, maintenance, https] = await Promise.all([
        startTestApp({ RATE_LIMIT_REQUESTS: '500', RATE_LIMIT_WINDOW_SECONDS: '120' }),
        startTestApp({
          RATE_LIMIT_REQUESTS: '500',
          RATE_LIMIT_WINDOW_SECONDS: '120',
          MAINTENANCE_MODE: 'true',
          RETRY_AFTER_SECONDS: '45',
        }),
        httpsOnly(),
      ]);
    });
    afterAll(() => Promise.all([t.close(), maintenance.close()]));

    const kinds: [string, () => TestApp, (app: TestApp) => request.Test, number][] = [
      ['200 GET', () => t, (a) => a.http.get('/api/providers.json'), 200],
      ['304 revalidation', () => t, (a) => a.http.get('/api/providers.json').set('If-None-Match', '*'), 304],
      ['HEAD', () => t, (a) => a.http.head('/api/use-cases.json'), 200],
      [
        'OPTIONS preflight',
        () => t,
        (a) => a.http.options('/api/index.json').set('Access-Control-Request-Method', 'GET'),
        204,
      ],
      ['404 under /api/', () => t, (a) => a.http.get('/api/missing'), 404],
      ['404 elsewhere', () => t, (a) => a.http.get('/missing/page'), 404],
      ['405', () => t, (a) => a.http.post('/api/providers.json').send({ a: 1 }), 405],
      ['400 malformed URL', () => t, (a) => a.http.get('/api/providers/%zz.json'), 400],
      ['/openapi.json', () => t, (a) => a.http.get('/openapi.json'), 200],
      ['/docs', () => t, (a) => a.http.get('/docs'), 200],
      ['503 maintenance', () => maintenance, (a) => a.http.get('/api/providers.json'), 503],
      ['301 to HTTPS', () => https, (a) => a.http.get('/api/providers.json?x=1'), 301],
    ];

    it.each(kinds)('%s carries RateLimit-Limit, -Remaining, -Reset and -Policy', async (_name, app, send, status) => {
      const res = await send(app());
      expect(res.status).toBe(status);
      expectLimitHeaders(res, 500, 120);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('counts each request exactly once, whatever answers it', async () => {
      // The app is the table's, which has counted requests of its own: Remaining is read before the six. Each of
      // the six is a first of its kind on this app (a document or refusal asked again is the replay cache's):
      // the 200 is a document no other test here asks for, the 405 is DELETE where the table's is POST.
      const before = Number((await t.http.get('/api/index.json')).headers['ratelimit-remaining']);
      expect(before).toBeGreaterThanOrEqual(6);
      const remaining: number[] = [];
      for (const send of [
        () => t.http.get('/api/providers/hetzner.json'),
        () => t.http.get('/api/nothing'),
        () => t.http.get('/api/providers/%zz.json'),
        () => t.http.delete('/api/providers.json'),
        () => t.http.options('/api/providers.json'),
        () => t.http.get('/api/providers/nope.json'),
      ]) {
        remaining.push(Number((await send()).headers['ratelimit-remaining']));
      }
      expect(remaining).toEqual([1, 2, 3, 4, 5, 6].map((n) => before - n));
    });

    it('answers 503 in maintenance with the envelope and the configured Retry-After', async () => {
      const res = await maintenance.http.get('/api/providers/hetzner.json').expect(503);
      expect(res.body.error).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(res.headers['retry-after']).toBe('45');
    });
  });

  describe('the limit', () => {
    it('lets the 600th request of a window pass and refuses the 601st with 429', async () => {
      const t = await startTestApp();
      try {
        const remaining: number[] = [];
        for (let batch = 0; batch < 12; batch++) {
          const answers = await Promise.all(
            Array.from({ length: 50 }, () => t.http.get('/api/providers/hetzner.json')),
          );
          for (const res of answers) {
            expect(res.status).toBe(200);
            remaining.push(expectLimitHeaders(res, 600, 60));
          }
        }
        // Each of the 600 was counted once: Remaining took every value from 599 down to 0.
        expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));

        const refused = await t.http.get('/api/providers/hetzner.json');
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({
          error: {
            code: 'rate_limited',
            message: expect.stringContaining('600 requests per 60 seconds'),
            status: 429,
            resolution: expect.stringMatching(/^Retry after \d+ seconds?/),
            documentation: `${TEST_BASE_URL}/docs`,
          },
        });
        const retryAfter = Number(refused.headers['retry-after']);
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(refused.headers['ratelimit-remaining']).toBe('0');
        expect(refused.headers['ratelimit-policy']).toBe('600;w=60');
        expect(refused.headers['access-control-allow-origin']).toBe('*');
        expect(refused.headers['x-api-version']).toBe(rawMeta.version);
        // Every path is limited, not only the one that was flooded.
        await t.http.get('/api/index.json').expect(429);
        await t.http.get('/no/such/page').expect(429);
      } finally {
        await t.close();
      }
    });

    it('lets a client through again once its window has reset', async () => {
      const t = await startTestApp({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '1' });
      try {
        for (let i = 0; i < 3; i++) await t.http.get('/api/index.json').expect(200);
        const refused = await t.http.get('/api/index.json').expect(429);
        expect(refused.headers['retry-after']).toBe('1');
        await sleep(1100);
        const again = await t.http.get('/api/index.json').expect(200);
        expect(again.headers['ratelimit-remaining']).toBe('2');
      } finally {
        await t.close();
      }
    });
  });

  describe('client identity', () => {
    it('ignores X-Forwarded-For when no proxy is trusted, so a header cannot reset the limit', async () => {
      const t = await startTestApp({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
      try {
        for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
          await t.http.get('/api/index.json').set('X-Forwarded-For', ip).expect(200);
        }
        await t.http.get('/api/index.json').set('X-Forwarded-For', '198.51.100.77').expect(429);
      } finally {
        await t.close();
      }
    });

    describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
      let t: { http: ReturnType<typeof request.agent> };
      beforeAll(async () => {
        // The proxy terminates TLS: every request it forwards says so (the app requires HTTPS for the HSTS test).
        t = {
          http: request
            .agent((await behindProxy()).server)
            .set('Accept-Encoding', 'identity')
            .set('X-Forwarded-Proto', 'https'),
        };
      });

      it('limits two clients independently', async () => {
        for (let i = 0; i < 3; i++)
          await t.http.get('/api/index.json').set('X-Forwarded-For', '203.0.113.10').expect(200);
        await t.http.get('/api/index.json').set('X-Forwarded-For', '203.0.113.10').expect(429);
        const other = await t.http.get('/api/index.json').set('X-Forwarded-For', '203.0.113.11').expect(200);
        expect(other.headers['ratelimit-remaining']).toBe('2');
      });

      it('takes the address the trusted proxy saw, not the leftmost one a client wrote', async () => {
        // The client sent "X-Forwarded-For: <anything>"; the proxy appended the real address.
        for (const forged of ['1.1.1.1', '8.8.8.8', '9.9.9.9']) {
          await t.http.get('/api/index.json').set('X-Forwarded-For', `${forged}, 203.0.113.20`).expect(200);
        }
        await t.http.get('/api/index.json').set('X-Forwarded-For', '4.4.4.4, 203.0.113.20').expect(429);
      });

      it('counts IPv6 clients per /64', async () => {
        for (const ip of ['2001:db8:7:1::1', '2001:db8:7:1::2', '2001:db8:7:1:ffff:ffff:ffff:ffff']) {
          await t.http.get('/api/index.json').set('X-Forwarded-For', ip).expect(200);
        }
        await t.http.get('/api/index.json').set('X-Forwarded-For', '2001:db8:7:1::99').expect(429);
        await t.http.get('/api/index.json').set('X-Forwarded-For', '2001:db8:7:2::1').expect(200);
      });
    });

    it('trusts only the configured hop count', async () => {
      const t = await startTestApp({ RATE_LIMIT_REQUESTS: '1', RATE_LIMIT_WINDOW_SECONDS: '60', TRUST_PROXY: '1' });
      try {
        await t.http.get('/api/index.json').set('X-Forwarded-For', '1.1.1.1, 203.0.113.30').expect(200);
        // One hop: the client is the rightmost address, whatever precedes it.
        await t.http.get('/api/index.json').set('X-Forwarded-For', '2.2.2.2, 203.0.113.30').expect(429);
      } finally {
        await t.close();
      }
    });
  });

  describe('HTTPS only', () => {
    it('redirects plain HTTP with 301 to the public host, keeping path and query, with an empty body', async () => {
      const t = await httpsOnly();
      const res = await t.http.get('/api/providers/hetzner.json?pretty=1').set('Host', 'evil.example').expect(301);
      expect(res.headers.location).toBe('https://api.vpsapi.test:8080/api/providers/hetzner.json?pretty=1');
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('does not let an untrusted X-Forwarded-Proto bypass the redirect', async () => {
      const t = await httpsOnly();
      await t.http.get('/api/index.json').set('X-Forwarded-Proto', 'https').expect(301);
    });

    it('believes X-Forwarded-Proto from a trusted proxy and sends HSTS', async () => {
      // The identity tests' app; they count other client addresses, this one is the connecting address (2 of its 3).
      const t = await behindProxy();
      const res = await t.http.get('/api/index.json').set('X-Forwarded-Proto', 'https').expect(200);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      await t.http.get('/api/index.json').set('X-Forwarded-Proto', 'http').expect(301);
    });

    it('terminates TLS itself with TLS_CERT_FILE and TLS_KEY_FILE', async () => {
      // A self-signed localhost certificate made once for this test (test/fixtures/tls/README.md), so the
      // suite needs no openssl.
      const [cert, key] = [join(TLS_FIXTURES, 'localhost-cert.pem'), join(TLS_FIXTURES, 'localhost-key.pem')];
      const t = await startTestApp({ REQUIRE_HTTPS: 'true', TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
      try {
        const res = await t.http.get('/api/index.json').trustLocalhost().ca(readFileSync(cert)).expect(200);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(res.headers['ratelimit-limit']).toBe('600');
      } finally {
        await t.close();
      }
    });
  });
});
