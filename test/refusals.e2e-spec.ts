import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorResponseFilter } from '../src/common/filters/error-response.filter';
import { DatasetReloader } from '../src/dataset/dataset-reloader';
import { MetricsService } from '../src/observability/metrics.service';
import { logSink } from './support/log-sink';
import { copyData } from './support/operations';
import { rawRequest, type RawResponse } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';

const sink = logSink();

const VOLATILE = ['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive'];
const stable = (headers: RawResponse['headers']) => Object.fromEntries(Object.entries(headers).filter(([k]) => !VOLATILE.includes(k)));
/** Header names sent more than once (none should be). */
const duplicated = (raw: string[]) => {
  const names = raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  return names.filter((n, i) => names.indexOf(n) !== i);
};
/** The value of one series in a metrics exposition, 0 while it has no sample. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

// The tests share one app (beforeAll) and one spy on the filter, cleared before each test: each test asks
// for targets no other test of that app asks for, and reads counters as differences. The 429 and the
// dataset reload need apps of their own.

describe('refusals answered at the door', () => {
  let t: TestApp;
  let filter: jest.SpyInstance;
  beforeAll(async () => {
    // Before the app exists: Nest binds the filter's method when it sets the filter up.
    filter = jest.spyOn(ErrorResponseFilter.prototype, 'catch');
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' }, 0, { log: sink.stream });
  });
  // Each test counts only the filter calls of its own requests.
  beforeEach(() => filter.mockClear());
  afterAll(async () => {
    filter.mockRestore();
    await t.close();
  });

  /** The same request through the router (a query string keeps it from the door) and at the door. */
  async function bothWays(path: string, headers: Record<string, string>, method = 'GET') {
    const viaRouter = await rawRequest(`${t.baseUrl}${path}?via=router`, headers, method);
    const routerCalls = filter.mock.calls.length;
    // A path with an unknown id is learnt from the router's first answer; every other kind is known at once.
    await rawRequest(`${t.baseUrl}${path}`, headers, method);
    const before = filter.mock.calls.length;
    const atDoor = await rawRequest(`${t.baseUrl}${path}`, headers, method);
    return { viaRouter, atDoor, routerCalls, doorCalls: filter.mock.calls.length - before };
  }

  it.each([
    ['an unknown API path', '/api/nothing.json', {}, 'application/json; charset=utf-8'],
    ['a scanner probe', '/wp-login.php', {}, 'text/html; charset=utf-8'],
    ['an unknown page asked for as markdown', '/.env', { Accept: 'text/markdown' }, 'text/markdown; charset=utf-8'],
    ['an unknown page asked for as JSON', '/admin/config.php', { Accept: 'application/json' }, 'application/json; charset=utf-8'],
    ['an unknown provider id', '/api/providers/nope.json', {}, 'application/json; charset=utf-8'],
    ['an unknown provider page', '/providers/nope', {}, 'text/html; charset=utf-8'],
  ])('answers %s with the bytes and headers the error filter writes, without the filter', async (_kind, path, headers, type) => {
    const { viaRouter, atDoor, routerCalls, doorCalls } = await bothWays(path, headers);
    expect(routerCalls).toBeGreaterThan(0);
    expect(doorCalls).toBe(0);
    expect(atDoor.status).toBe(404);
    expect(viaRouter.status).toBe(404);
    expect(atDoor.headers['content-type']).toBe(type);
    expect(atDoor.body.equals(viaRouter.body)).toBe(true);
    expect(stable(atDoor.headers)).toEqual(stable(viaRouter.headers));
    expect(duplicated(atDoor.rawHeaders)).toEqual([]);
    const head = await rawRequest(`${t.baseUrl}${path}`, headers, 'HEAD');
    expect(head.status).toBe(404);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(viaRouter.body.length));
  });

  it('answers a write under /api/ with the 405 of the read-only API, Allow included', async () => {
    const { viaRouter, atDoor, doorCalls } = await bothWays('/api/index.json', {}, 'DELETE');
    expect(doorCalls).toBe(0);
    expect(atDoor.status).toBe(405);
    expect(atDoor.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(atDoor.body.equals(viaRouter.body)).toBe(true);
    expect(stable(atDoor.headers)).toEqual(stable(viaRouter.headers));
  });

  it('leaves served paths, preflights and the probes to the router', async () => {
    await t.http.get('/api/providers/hetzner.json').expect(200);
    await t.http.options('/api/nothing.json').expect(204);
    await t.http.get('/healthz').expect(200);
    await t.http.get('/docs/swagger-ui.css').expect(200);
    expect(filter).not.toHaveBeenCalled();
  });

  it('counts, logs and labels every refusal it answers', async () => {
    // Other tests of this app are refused under the same labels: count this test's requests.
    const unmatched = 'http_requests_total{method="GET",route="unmatched",status="404"}';
    const unknownId = 'http_requests_total{method="GET",route="/api/providers/:providerId.json",status="404"}';
    const counted = await t.app.get(MetricsService).registry.metrics();
    const before = { unmatched: sample(counted, unmatched), unknownId: sample(counted, unknownId) };
    await windowWithRoom();
    const first = await t.http.get('/wp-admin/setup.php').set('X-Request-Id', 'probe-1').expect(404);
    const second = await t.http.get('/wp-admin/setup.php').set('X-Request-Id', 'probe-2').expect(404);
    expect(second.headers['x-request-id']).toBe('probe-2');
    expect(Number(first.headers['ratelimit-remaining']) - Number(second.headers['ratelimit-remaining'])).toBe(1);
    const line = await sink.waitForLine((l) => l.reqId === 'probe-2');
    expect(line).toMatchObject({ req: { method: 'GET', path: '/wp-admin/setup.php' }, res: { status: 404, bytes: Number(second.headers['content-length']) }, route: 'unmatched' });
    for (let i = 0; i < 2; i++) await t.http.get('/api/providers/gone.json').expect(404);
    const text = await t.app.get(MetricsService).registry.metrics();
    expect(sample(text, unmatched)).toBe(before.unmatched + 2);
    expect(sample(text, unknownId)).toBe(before.unknownId + 2);
  });

  /**
   * The app's rate-limit window started with an earlier test: if it ends within the next few requests,
   * wait it out, so their RateLimit-Remaining values compare (asked with a query string, for the router).
   */
  async function windowWithRoom(): Promise<void> {
    const res = await t.http.get('/api/index.json?window=check').expect(200);
    const reset = Number(res.headers['ratelimit-reset']);
    if (reset <= 2) await new Promise((resolve) => setTimeout(resolve, reset * 1000 + 100));
  }

  it('answers the 429 at the door as the filter writes it, for documents and unknown paths alike', async () => {
    // Its own app: a limit of one, counted from a fresh window.
    const limited = await startTestApp({ RATE_LIMIT_REQUESTS: '1' });
    try {
      await limited.http.get('/api/index.json').expect(200);
      for (const path of ['/api/index.json', '/api/nothing.json', '/wp-login.php']) {
        const viaRouter = await rawRequest(`${limited.baseUrl}${path}?via=router`, {});
        const before = filter.mock.calls.length;
        const atDoor = await rawRequest(`${limited.baseUrl}${path}`, {});
        expect(filter.mock.calls.length).toBe(before);
        expect([viaRouter.status, atDoor.status]).toEqual([429, 429]);
        // Retry-After counts down with the window: compare each answer with its own.
        const bare = (r: RawResponse) => r.body.toString().replace(`${r.headers['retry-after']} second`, 'N second');
        expect(bare(atDoor)).toBe(bare(viaRouter));
        const { 'retry-after': doorRetry, ...doorRest } = stable(atDoor.headers);
        const { 'retry-after': routerRetry, ...routerRest } = stable(viaRouter.headers);
        expect(doorRest).toEqual(routerRest);
        expect(doorRetry).toBe(atDoor.headers['ratelimit-reset']);
        expect(routerRetry).toBe(viaRouter.headers['ratelimit-reset']);
        expect(duplicated(atDoor.rawHeaders)).toEqual([]);
      }
    } finally {
      await limited.close();
    }
  });

  it('renders again for a new dataset version', async () => {
    // Its own app: it serves a copy of the data and publishes a new version of it.
    const dir = await copyData();
    const reloading = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '100000' });
    try {
      const before = await rawRequest(`${reloading.baseUrl}/wp-login.php`, {});
      const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
      await writeFile(join(dir, 'meta.json'), JSON.stringify({ ...meta, version: '2099-01-01' }, null, 2));
      expect(await reloading.app.get(DatasetReloader).reload()).toBe(true);
      const after = await rawRequest(`${reloading.baseUrl}/wp-login.php`, {});
      const viaRouter = await rawRequest(`${reloading.baseUrl}/wp-login.php?via=router`, {});
      expect(before.headers['x-api-version']).toBe(meta.version);
      expect(after.headers['x-api-version']).toBe('2099-01-01');
      expect(stable(after.headers)).toEqual(stable(viaRouter.headers));
      expect(after.body.equals(viaRouter.body)).toBe(true);
    } finally {
      await reloading.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
