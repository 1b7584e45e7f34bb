import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/load-config';
import { rawRequest } from './support/raw-request';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

/** Routes that exist only in this suite, to show the throttler's decorators working on the one path. */
@Controller('test-only')
class DecoratedController {
  @Throttle({ default: { limit: 2, ttl: 60_000 } })
  @Get('throttled')
  throttled(): { ok: true } {
    return { ok: true };
  }

  @SkipThrottle()
  @Get('skipped')
  skipped(): { ok: true } {
    return { ok: true };
  }
}

/** Header names sent more than once in one answer, read from the bytes on the wire. */
function duplicated(rawHeaders: string[]): string[] {
  const names = rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  return names.filter((name, i) => names.indexOf(name) !== i);
}

describe('the request path (one path: guard, interceptors, filter)', () => {
  describe('the throttler decorators, as @nestjs/throttler documents them', () => {
    let app: INestApplication;
    let http: ReturnType<typeof request.agent>;
    beforeAll(async () => {
      const config = loadConfig({ PUBLIC_BASE_URL: TEST_BASE_URL, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', DATA_WATCH: 'false', PRECOMPUTE_VIEWS: 'false' });
      const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, pino({ level: 'silent' }))], controllers: [DecoratedController] }).compile();
      app = moduleRef.createNestApplication({ bodyParser: false });
      await app.listen(0, '127.0.0.1');
      http = request.agent(`http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`);
    });
    afterAll(() => app.close());

    it('@Throttle() changes a route\'s limit: its third request in the window is refused with 429, while other routes still answer', async () => {
      await http.get('/test-only/throttled').expect(200);
      const second = await http.get('/test-only/throttled').expect(200);
      expect(second.headers['ratelimit-limit']).toBe('2');
      const third = await http.get('/test-only/throttled').set('Accept', 'application/json').expect(429);
      expect(third.body.error).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The client's count is one per client, not per route: the global limit of 600 still has room.
      const other = await http.get('/api/index.json').expect(200);
      expect(other.headers['ratelimit-limit']).toBe('600');
    });

    it('@SkipThrottle() exempts a route: no count and no RateLimit headers', async () => {
      const before = Number((await http.get('/api/index.json').expect(200)).headers['ratelimit-remaining']);
      for (let i = 0; i < 3; i++) {
        const res = await http.get('/test-only/skipped').expect(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
      const after = Number((await http.get('/api/index.json').expect(200)).headers['ratelimit-remaining']);
      expect(after).toBe(before - 1);
    });
  });

  describe('headers', () => {
    let t: TestApp;
    let https: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ RATE_LIMIT_REQUESTS: '40' });
      https = await startTestApp({ REQUIRE_HTTPS: 'true' });
    });
    afterAll(() => Promise.all([t.close(), https.close()]));

    it('sends no header twice in any kind of answer, read from the bytes on the wire', async () => {
      const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(`${t.baseUrl}${path}`, headers, method);
      const doc = await get('/api/providers/hetzner.json');
      const answers = {
        document: doc,
        brotli: await get('/api/providers.json', { 'accept-encoding': 'br' }),
        notModified: await get('/api/providers/hetzner.json', { 'if-none-match': String(doc.headers.etag) }),
        head: await get('/api/index.json', {}, 'HEAD'),
        apiNotFound: await get('/api/nope.json'),
        pageNotFound: await get('/nope'),
        methodNotAllowed: await get('/api/index.json', {}, 'DELETE'),
        preflight: await get('/api/index.json', { origin: 'https://x.test', 'access-control-request-method': 'GET' }, 'OPTIONS'),
        page: await get('/'),
        mcpGet: await get('/mcp'),
        redirect: await rawRequest(`${https.baseUrl}/api/index.json`, {}),
      };
      expect(Object.fromEntries(Object.entries(answers).map(([kind, res]) => [kind, res.status]))).toEqual({
        document: 200,
        brotli: 200,
        notModified: 304,
        head: 200,
        apiNotFound: 404,
        pageNotFound: 404,
        methodNotAllowed: 405,
        preflight: 204,
        page: 200,
        mcpGet: 405,
        redirect: 301,
      });
      for (const [kind, res] of Object.entries(answers)) expect([kind, duplicated(res.rawHeaders)]).toEqual([kind, []]);
      // Let the limit of 40 run out: the 429 too.
      let last = doc;
      while (last.status !== 429) last = await get('/api/index.json');
      expect(duplicated(last.rawHeaders)).toEqual([]);
      expect(last.headers['retry-after']).toBeDefined();
    });
  });

  describe('the code has one path', () => {
    const src = join(__dirname, '..', 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
      .map((f) => ({ file: f, text: readFileSync(join(src, f), 'utf8') }));
    const where = (pattern: RegExp) => files.filter(({ text }) => pattern.test(text)).map(({ file }) => file).sort();

    it('counts routed requests in the guard only; the named exceptions count through RateLimiter', () => {
      // The guard counts through the library's handleRequest; nothing else calls a storage's increment
      // but RateLimiter (and the storage that delegates to its Redis or memory store).
      expect(where(/\.increment\(/)).toEqual(['common/rate-limit/rate-limit-storage.ts', 'common/rate-limit/rate-limiter.ts']);
      expect(where(/limiter\.(hit|countMore)\(/)).toEqual(['common/filters/error-response.filter.ts', 'common/http/malformed-request.ts', 'mcp/mcp-http.controller.ts']);
    });

    it('writes the RateLimit-* and common headers from one function, and errors from one filter', () => {
      // The values of the RateLimit-* headers are made in one function; CommonHeaders writes them (and
      // RateLimiter.countMore writes them again when an MCP batch's further calls change the count).
      expect(where(/rateLimitHeaders\(/)).toEqual(['common/http/common-headers.ts', 'common/rate-limit/rate-limit-headers.ts', 'common/rate-limit/rate-limiter.ts']);
      // openapi/ describes the headers in the published document; it writes none.
      const writers = (pattern: RegExp) => where(pattern).filter((f) => !f.startsWith('openapi/'));
      expect(writers(/'Access-Control-Allow-Origin'/)).toEqual(['common/http/common-headers.ts']);
      expect(writers(/'Strict-Transport-Security'/)).toEqual(['common/http/common-headers.ts']);
      expect(where(/@Catch\(/)).toEqual(['common/filters/error-response.filter.ts']);
    });

    it('has no @Res() in a document handler, no replay cache in front of Express and no tick record', () => {
      expect(where(/@Res\(\)/).filter((f) => !f.startsWith('mcp/'))).toEqual([]);
      expect(where(/FrontDoor|FRONT_DOOR|holdTickRecord|FastPaths/)).toEqual([]);
    });
  });
});
