import { PagesService } from '../src/pages/pages.service';
import { ProvidersService } from '../src/providers/providers.service';
import { MetricsService } from '../src/observability/metrics.service';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';
import { logSink } from './support/log-sink';
import { rawRequest, waitForEncoding } from './support/raw-request';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

const sink = logSink();

const VOLATILE = ['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive'];
const stable = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([k]) => !VOLATILE.includes(k)));
/** The value of one series in a metrics exposition, 0 while it has no sample. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

// The tests share one app (beforeAll): each asks for paths no other test of that app asks for, so the
// first answer of each still comes from the controller, and counters are read as differences. Tests that
// need another configuration start their own app.

describe('answers remembered by the front door', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
  });
  afterAll(() => t.close());

  it('runs the controller once per path, then answers identically without it', async () => {
    const spy = jest.spyOn(ProvidersService.prototype, 'get');
    try {
      const first = await t.http.get('/api/providers/vultr.json').expect(200);
      const again = await Promise.all([1, 2, 3].map(() => t.http.get('/api/providers/vultr.json').expect(200)));
      expect(spy).toHaveBeenCalledTimes(1);
      for (const res of again) {
        expect(stable(res.headers)).toEqual(stable(first.headers));
        expect(res.text).toBe(first.text);
      }
      await t.http.get('/api/providers/vultr.json').set('If-None-Match', first.headers.etag).expect(304);
      await t.http.get('/api/providers/linode.json').expect(200);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps negotiating pages by Accept', async () => {
    const spy = jest.spyOn(PagesService.prototype, 'page');
    try {
      await t.http.get('/providers/hetzner').expect('Content-Type', 'text/html; charset=utf-8');
      await t.http.get('/providers/hetzner').set('Accept', 'text/markdown').expect('Content-Type', 'text/markdown; charset=utf-8');
      await t.http.get('/providers/hetzner').expect('Content-Type', 'text/html; charset=utf-8');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("labels remembered answers with the controller's route in metrics", async () => {
    // Other tests of this app ask for other providers under the same route: count this test's three.
    const series = 'http_requests_total{method="GET",route="/api/providers/:providerId.json",status="200"}';
    const before = sample(await t.app.get(MetricsService).registry.metrics(), series);
    for (let i = 0; i < 3; i++) await t.http.get('/api/providers/contabo.json').expect(200);
    const text = await t.app.get(MetricsService).registry.metrics();
    expect(sample(text, series)).toBe(before + 3);
  });

  it('still counts and limits every request it answers', async () => {
    // Its own app: a limit of two, counted from a fresh window.
    const limited = await startTestApp({ RATE_LIMIT_REQUESTS: '2' });
    try {
      await limited.http.get('/api/index.json').expect(200);
      const second = await limited.http.get('/api/index.json').expect(200);
      expect(second.headers['ratelimit-remaining']).toBe('0');
      await limited.http.get('/api/index.json').expect(429);
    } finally {
      await limited.close();
    }
  });

  /** Header names that occur more than once in a raw response (none should). */
  const duplicated = (raw: string[]) => {
    const names = raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    return names.filter((n, i) => names.indexOf(n) !== i);
  };

  it.each([
    ['/api/providers/hetzner.json', {}],
    ['/', {}],
    ['/guides/swap-file', { Accept: 'text/markdown' }],
    ['/guides/swap-file.md', {}],
    ['/openapi.json', {}],
    ['/.well-known/mcp/server-card.json', {}],
    ['/llms.txt', {}],
    ['/docs', {}],
  ])('answers %s %j at the door with the headers the controller sent, none twice', async (path, headers) => {
    const first = await t.http.get(path).set(headers).expect(200);
    const door = await t.http.get(path).set(headers).expect(200);
    expect(duplicated(first.res.rawHeaders)).toEqual([]);
    expect(duplicated(door.res.rawHeaders)).toEqual([]);
    expect(stable(door.headers)).toEqual(stable(first.headers));
    expect(door.body).toEqual(first.body);
    const revalidated = await t.http.get(path).set(headers).set('If-None-Match', first.headers.etag).expect(304);
    expect(duplicated(revalidated.res.rawHeaders)).toEqual([]);
    expect(revalidated.headers.etag).toBe(first.headers.etag);
    expect(revalidated.headers['ratelimit-policy']).toBe('100000;w=60');
    const head = await t.http.head(path).set(headers).expect(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
  });

  /** How long a variant may take to appear: brotli at quality 11, on two cores other suites share. */
  const COMPRESSION_WAIT_MS = 20_000;
  // Compressed rows stand apart from the table above: the first answer of a path is identity while
  // compression runs in the background, so they first wait for the variant to exist. Each row asks for
  // a document no other test of the app asks for (variants are kept per document), and spies on the
  // service method that builds it.
  it.each([
    ['br', 'br', '-br"', brotliDecompressSync, '/api/providers.json', 'list'],
    ['gzip', 'gzip;q=0.5, identity;q=0.1', '-gz"', gunzipSync, '/api/providers/digitalocean.json', 'get'],
  ] as const)('answers %s at the door once the variant is ready: its own bytes and ETag, 304 for that ETag, 200 for the identity one', async (encoding, acceptEncoding, etagSuffix, decode, path, built) => {
    const spy = jest.spyOn(ProvidersService.prototype, built);
    try {
      const url = `${t.baseUrl}${path}`;
      const identity = await rawRequest(url, { 'accept-encoding': 'identity' });
      expect(identity.status).toBe(200);
      expect(identity.headers['content-encoding']).toBeUndefined();
      const ready = await waitForEncoding(url, encoding, COMPRESSION_WAIT_MS);
      const door = await rawRequest(url, { 'accept-encoding': acceptEncoding });
      // Every answer after the first came from the door: the controller ran once, for the identity answer.
      expect(spy).toHaveBeenCalledTimes(1);
      for (const res of [ready, door]) {
        expect(res.status).toBe(200);
        expect(duplicated(res.rawHeaders)).toEqual([]);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toBe('Accept-Encoding');
        expect(Number(res.headers['content-length'])).toBe(res.body.length);
        expect(res.body.length).toBeLessThan(identity.body.length);
        expect(decode(res.body).equals(identity.body)).toBe(true);
      }
      expect(door.headers.etag).toBe(ready.headers.etag);
      expect(door.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}${etagSuffix}`);
      expect(door.body.equals(ready.body)).toBe(true);

      const revalidated = await rawRequest(url, { 'accept-encoding': acceptEncoding, 'if-none-match': door.headers.etag! });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.etag).toBe(door.headers.etag);
      expect(revalidated.body.length).toBe(0);
      const identityTag = await rawRequest(url, { 'accept-encoding': acceptEncoding, 'if-none-match': identity.headers.etag! });
      expect(identityTag.status).toBe(200);
      expect(identityTag.headers['content-encoding']).toBe(encoding);
      expect(identityTag.body.equals(door.body)).toBe(true);
      const head = await rawRequest(url, { 'accept-encoding': acceptEncoding }, 'HEAD');
      expect(head.headers['content-length']).toBe(door.headers['content-length']);
      expect(head.headers.etag).toBe(door.headers.etag);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  }, COMPRESSION_WAIT_MS + 10_000);

  it('passes a refused content coding on to the controller path, which answers 406 in the envelope', async () => {
    // The app's window has counted other tests' requests: start from what it has left now.
    const start = await remainingNow();
    const first = await t.http.get('/api/index.json').expect(200);
    const res = await t.http.get('/api/index.json').set('Accept-Encoding', 'identity;q=0, x-unknown').expect(406);
    expect(res.body.error.code).toBe('not_acceptable');
    // Two requests, each counted once.
    expect(start - Number(first.headers['ratelimit-remaining'])).toBe(1);
    expect(start - Number(res.headers['ratelimit-remaining'])).toBe(2);
  });

  /**
   * RateLimit-Remaining of this client now, read from a request the door leaves to the router (a query
   * string) in a window that lasts beyond the next few requests (waiting out one about to end).
   */
  async function remainingNow(): Promise<number> {
    let res = await t.http.get('/api/index.json?count=start').expect(200);
    const reset = Number(res.headers['ratelimit-reset']);
    if (reset <= 2) {
      await new Promise((resolve) => setTimeout(resolve, reset * 1000 + 100));
      res = await t.http.get('/api/index.json?count=start').expect(200);
    }
    return Number(res.headers['ratelimit-remaining']);
  }

  describe('behind a trusted proxy that terminates TLS', () => {
    let proxied: TestApp;
    beforeAll(async () => {
      proxied = await startTestApp({ REQUIRE_HTTPS: 'true', TRUST_PROXY: 'loopback', RATE_LIMIT_REQUESTS: '50' }, 0, { log: sink.stream });
    });
    afterAll(() => proxied.close());

    it('answers HTTPS requests at the door with HSTS, counts each forwarded client apart and logs them', async () => {
      const get = (client: string, proto = 'https') =>
        proxied.http.get('/api/providers/vultr.json').set('X-Forwarded-Proto', proto).set('X-Forwarded-For', client).set('X-Request-Id', `door-${client}`);
      const first = await get('203.0.113.7').expect(200);
      const door = await get('203.0.113.7').expect(200);
      expect(door.headers['strict-transport-security']).toBe(first.headers['strict-transport-security']);
      expect(door.headers['strict-transport-security']).toMatch(/^max-age=/);
      expect(door.headers['ratelimit-remaining']).toBe('48');
      expect((await get('198.51.100.9').expect(200)).headers['ratelimit-remaining']).toBe('49');
      // Plain HTTP through the proxy is still redirected, remembered path or not.
      const plain = await get('203.0.113.7', 'http').expect(301);
      expect(plain.headers.location).toBe(`${TEST_BASE_URL}/api/providers/vultr.json`);
      // Lines are written in order: once the redirect's line is there, every earlier request's is too.
      await sink.waitForLine((l) => l.reqId === 'door-203.0.113.7' && l.res?.status === 301);
      const lines = sink.lines().filter((l) => l.reqId === 'door-198.51.100.9');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ req: { client: '198.51.100.0/24', path: '/api/providers/vultr.json' }, res: { status: 200, bytes: Number(first.headers['content-length']) } });
    });
  });
});
