import { RateLimitGuard } from '../src/common/rate-limit/rate-limit.guard';
import { MetricsService } from '../src/observability/metrics.service';
import { logSink } from './support/log-sink';
import { rawRequest, type RawResponse } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The replay cache in front of Express (FrontDoor) may only replay what Nest answers: with
 * FRONT_DOOR=on and FRONT_DOOR=off the service gives every request the same status, headers and
 * bytes. Each request is sent twice to both services in lockstep (the second time, the door-on
 * service answers from memory what it can), and the answers compared; only what differs by nature
 * is left out: the date, the request id, the seconds to the window's reset (the two services' windows
 * start a few milliseconds apart) and connection management. Then both services' request metrics must
 * agree: one sample per request, under the same route template and status.
 */
const VOLATILE = new Set(['date', 'x-request-id', 'ratelimit-reset', 'retry-after', 'connection', 'keep-alive', 'transfer-encoding']);
const comparable = (r: RawResponse) => ({
  status: r.status,
  headers: Object.fromEntries(Object.entries(r.headers).filter(([name]) => !VOLATILE.has(name)).sort(([a], [b]) => a.localeCompare(b))),
  // A 429's text names the seconds left, which differ as Retry-After does.
  body: r.body.toString('latin1').replace(/\d+ seconds?/g, 'N seconds'),
});

interface Exchange {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

const MCP = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const call = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** `send` returns the door-on service's first answer (the one Nest wrote), for a later request to build on. */
async function bothModes(env: Record<string, string>, run: (send: (x: Exchange) => Promise<RawResponse>) => Promise<void>): Promise<number> {
  // A window longer than the test, so neither service's count starts over between the two answers.
  const settings = { RATE_LIMIT_WINDOW_SECONDS: '3600', ...env };
  const on = await startTestApp({ ...settings, FRONT_DOOR: 'on' });
  const off = await startTestApp({ ...settings, FRONT_DOOR: 'off' });
  let compared = 0;
  try {
    const ask = (t: TestApp, x: Exchange) => rawRequest(`${t.baseUrl}${x.path}`, x.headers ?? {}, x.method ?? 'GET', x.body === undefined ? undefined : { data: x.body });
    await run(async (x) => {
      let first: RawResponse | undefined;
      for (let round = 1; round <= 2; round++) {
        const [a, b] = [await ask(on, x), await ask(off, x)];
        expect({ round, ...x, ...comparable(a) }).toEqual({ round, ...x, ...comparable(b) });
        compared++;
        first ??= a;
      }
      return first!;
    });
    // Each request counted once, under the same route and status, whichever answered it.
    const samples = async (t: TestApp) => (await t.app.get(MetricsService).registry.metrics()).split('\n').filter((line) => line.startsWith('http_requests_total{'));
    expect(await samples(on)).toEqual(await samples(off));
  } finally {
    await on.close();
    await off.close();
  }
  return compared;
}

describe('FRONT_DOOR=on and FRONT_DOOR=off answer alike', () => {
  it('for documents, pages, refusals, preflights, probes and MCP calls', async () => {
    const compared = await bothModes({ RATE_LIMIT_REQUESTS: '100000' }, async (send) => {
      // The ETag of the first answer (both modes gave the same one), for the revalidation below.
      const first = await send({ path: '/api/providers.json' });
      expect(first.status).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
      await send({ path: '/api/providers.json', headers: { 'accept-encoding': 'br' } });
      await send({ path: '/api/providers.json', method: 'HEAD' });
      await send({ path: '/api/providers.json', headers: { 'if-none-match': etag } });
      await send({ path: '/api/providers.json?fields=x' });
      await send({ path: '/api/providers/hetzner.json', headers: { 'accept-encoding': 'bogus;q=1, identity;q=0' } });
      await send({ path: '/providers/hetzner', headers: { accept: 'text/html' } });
      await send({ path: '/providers/hetzner', headers: { accept: 'text/markdown' } });
      await send({ path: '/api/nothing.json' });
      await send({ path: '/wp-login.php', headers: { accept: 'text/html' } });
      await send({ path: '/.env', headers: { accept: 'text/markdown' } });
      await send({ path: '/api/providers/nope.json' });
      await send({ path: '/providers/nope' });
      await send({ path: '/api/providers/%E0%A4%A.json' });
      await send({ path: '/api/index.json', method: 'DELETE' });
      await send({ path: '/api/nothing.json', method: 'PUT' });
      await send({ path: '/providers/hetzner', method: 'POST' });
      await send({ path: '/api/providers.json', method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
      await send({ path: '/mcp', method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' } });
      await send({ path: '/healthz' });
      await send({ path: '/mcp' });
      await send({ path: '/mcp', method: 'POST', headers: MCP, body: call(1, 'get_vps_provider', { id: 'hetzner' }) });
      await send({ path: '/mcp', method: 'POST', headers: { ...MCP, 'mcp-protocol-version': '2025-03-26' }, body: `[${call(1, 'list_vps_providers', {})},${call(2, 'search_guides', { query: 'vpn' })}]` });
      await send({ path: '/mcp', method: 'POST', headers: { ...MCP, host: 'evil.example' }, body: call(1, 'get_vps_provider', { id: 'hetzner' }) });
      await send({ path: '/mcp', method: 'POST', headers: { ...MCP, accept: 'application/json' }, body: call(1, 'get_vps_provider', { id: 'hetzner' }) });
      await send({ path: '/mcp', method: 'POST', headers: MCP, body: '{"jsonrpc":"2.0","id":1,' });
    });
    expect(compared).toBe(52);
  }, 180_000);

  it('over the limit', async () => {
    const compared = await bothModes({ RATE_LIMIT_REQUESTS: '2' }, async (send) => {
      await send({ path: '/api/index.json' });
      await send({ path: '/api/nothing.json' });
      await send({ path: '/wp-login.php', headers: { accept: 'text/html' } });
      await send({ path: '/mcp', method: 'POST', headers: MCP, body: call(1, 'get_vps_provider', { id: 'hetzner' }) });
    });
    expect(compared).toBe(8);
  }, 180_000);

  it('on plain HTTP when HTTPS is required, and in maintenance', async () => {
    await bothModes({ REQUIRE_HTTPS: 'true', TRUST_PROXY: 'loopback' }, async (send) => {
      await send({ path: '/api/index.json' });
      await send({ path: '/api/index.json', headers: { 'x-forwarded-proto': 'https' } });
      await send({ path: '/api/nothing.json', headers: { 'x-forwarded-proto': 'https' } });
      await send({ path: '/api/index.json', method: 'OPTIONS', headers: { 'x-forwarded-proto': 'https' } });
    });
    await bothModes({ MAINTENANCE_MODE: 'true' }, async (send) => {
      await send({ path: '/api/index.json' });
      await send({ path: '/wp-login.php', headers: { accept: 'text/html' } });
      await send({ path: '/healthz' });
    });
  }, 180_000);
});

describe('the catch-all route', () => {
  const sink = logSink();
  let t: TestApp;
  let guard: jest.SpyInstance;
  beforeAll(async () => {
    guard = jest.spyOn(RateLimitGuard.prototype, 'canActivate');
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000', FRONT_DOOR: 'off' }, 0, { log: sink.stream });
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
    const samples: Record<string, string> = { providerId: 'hetzner', id: 'hetzner', slug: 'swap-file', sort: 'price' };
    const paths = Object.keys(spec.paths).map((p) => p.replace(/\{(\w+)\}/g, (_m, name: string) => samples[name] ?? 'hetzner'));
    expect(paths.length).toBeGreaterThanOrEqual(5);
    const pages = ['/', '/index.md', '/guides', '/guides/swap-file', '/plans', '/providers/hetzner', '/use-cases/game-server', '/llms.txt', '/docs.md', '/docs', '/openapi.json', '/changes.atom', '/.well-known/mcp/server-card.json', '/assets/site.css'];
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
