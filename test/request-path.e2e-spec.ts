import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { BytesReplyAdapter } from '../src/common/http/bytes-reply.adapter';
import { RateLimitGuard } from '../src/common/rate-limit/rate-limit.guard';
import { loadConfig } from '../src/config/load-config';
import { logSink } from './support/log-sink';
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
      const config = loadConfig({
        PUBLIC_BASE_URL: TEST_BASE_URL,
        METRICS_PORT: '0',
        METRICS_HOST: '127.0.0.1',
        DATA_WATCH: 'false',
        PRECOMPUTE_VIEWS: 'false',
      });
      const moduleRef = await Test.createTestingModule({
        imports: [AppModule.forRoot(config, pino({ level: 'silent' }))],
        controllers: [DecoratedController],
      }).compile();
      app = moduleRef.createNestApplication(new BytesReplyAdapter(), { bodyParser: false });
      await app.listen(0, '127.0.0.1');
      http = request.agent(`http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`);
    });
    afterAll(() => app.close());

    it("@Throttle() changes a route's limit: its third request in the window is refused with 429, while other routes still answer", async () => {
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
      const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
        rawRequest(`${t.baseUrl}${path}`, headers, method);
      const doc = await get('/api/providers/hetzner.json');
      const answers = {
        document: doc,
        brotli: await get('/api/providers.json', { 'accept-encoding': 'br' }),
        notModified: await get('/api/providers/hetzner.json', { 'if-none-match': String(doc.headers.etag) }),
        head: await get('/api/index.json', {}, 'HEAD'),
        apiNotFound: await get('/api/nope.json'),
        pageNotFound: await get('/nope'),
        methodNotAllowed: await get('/api/index.json', {}, 'DELETE'),
        preflight: await get(
          '/api/index.json',
          { origin: 'https://x.test', 'access-control-request-method': 'GET' },
          'OPTIONS',
        ),
        page: await get('/'),
        mcpGet: await get('/mcp'),
        redirect: await rawRequest(`${https.baseUrl}/api/index.json`, {}),
        mcpRedirect: await rawRequest(
          `${https.baseUrl}/mcp`,
          { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          'POST',
          { data: '{"jsonrpc":"2.0","id":1,"method":"ping"}' },
        ),
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
        mcpRedirect: 301,
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
    const where = (pattern: RegExp) =>
      files
        .filter(({ text }) => pattern.test(text))
        .map(({ file }) => file)
        .sort();

    it('counts routed requests in the guard only; the named exceptions count through RateLimiter', () => {
      // The guard counts through the library's handleRequest; nothing else calls a storage's increment
      // but RateLimiter (and the storage that delegates to its Redis or memory store).
      expect(where(/\.increment\(/)).toEqual([
        'common/rate-limit/rate-limit-storage.ts',
        'common/rate-limit/rate-limiter.ts',
      ]);
      expect(where(/limiter\.(hit|countMore)\(/)).toEqual([
        'common/filters/error-response.filter.ts',
        'common/http/malformed-request.ts',
        'mcp/mcp-transport-rules.ts',
      ]);
    });

    it('writes the RateLimit-* and common headers from one function, and errors from one filter', () => {
      // The values of the RateLimit-* headers are made in one function; CommonHeaders writes them (and
      // RateLimiter.countMore writes them again when an MCP batch's further calls change the count).
      expect(where(/rateLimitHeaders\(/)).toEqual([
        'common/http/common-headers.ts',
        'common/rate-limit/rate-limit-headers.ts',
        'common/rate-limit/rate-limiter.ts',
      ]);
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

  describe('the catch-all route', () => {
    const sink = logSink();
    let t: TestApp;
    let guard: jest.SpyInstance;
    beforeAll(async () => {
      guard = jest.spyOn(RateLimitGuard.prototype, 'canActivate');
      t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' }, 0, { log: sink.stream });
    });
    afterAll(async () => {
      guard.mockRestore();
      await t.close();
    });

    /** The route the access log names for a request: the catch-all's answers are `unmatched`. */
    async function routeOf(path: string, method = 'GET'): Promise<{ status: number; route: unknown }> {
      const id = `route-${Math.random().toString(36).slice(2)}`;
      const res = await t.http[method === 'GET' ? 'get' : 'post'](path).set('X-Request-Id', id);
      const line = await sink.waitForLine((l) => l.reqId === id);
      return { status: res.status, route: line.route };
    }

    it('shadows no route: every documented operation and page is answered by its own controller', async () => {
      const spec = (await t.http.get('/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
      const samples: Record<string, string> = {
        providerId: 'hetzner',
        id: 'hetzner',
        slug: 'swap-file',
        sort: 'price',
      };
      const paths = Object.keys(spec.paths).map((p) =>
        p.replace(/\{(\w+)\}/g, (_m, name: string) => samples[name] ?? 'hetzner'),
      );
      expect(paths.length).toBeGreaterThanOrEqual(5);
      const pages = [
        '/',
        '/index.md',
        '/guides',
        '/guides/swap-file',
        '/plans',
        '/providers/hetzner',
        '/use-cases/game-server',
        '/llms.txt',
        '/docs.md',
        '/docs',
        '/openapi.json',
        '/changes.atom',
        '/.well-known/mcp/server-card.json',
        '/assets/site.css',
      ];
      for (const path of [...paths, ...pages]) {
        const { status, route } = await routeOf(path);
        expect({ path, status, unmatched: route === 'unmatched' }).toEqual({ path, status: 200, unmatched: false });
      }
    });

    it('makes every other path a route: the guard counts it, the answer is the documented 404 or 405', async () => {
      const before = guard.mock.calls.length;
      const res = await t.http.get('/no/such/page.html').set('Accept', 'application/json').expect(404);
      expect(guard.mock.calls.length).toBe(before + 1);
      expect(res.headers['ratelimit-limit']).toBe('100000');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body.error.code).toBe('not_found');
      expect(await routeOf('/no/such/page.html')).toEqual({ status: 404, route: 'unmatched' });
      const write = await t.http.post('/api/providers.json').expect(405);
      expect(guard.mock.calls.length).toBe(before + 3);
      expect(write.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(write.body.error.code).toBe('method_not_allowed');
    });
  });
});
