import { AvailabilityService } from '../src/common/availability/availability.service';
import { rawMeta } from './support/raw-data';
import { freePort } from './support/redis-server';
import { startTestApp, type TestApp } from './support/test-app';
import { scrape, metric } from './support/operations';

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '2' });
  });
  afterAll(() => t.close());

  it('reports liveness and readiness, exempt from the rate limit', async () => {
    for (let i = 0; i < 5; i++) {
      const live = await t.http.get('/healthz').expect(200);
      expect(live.body.status).toBe('ok');
      expect(live.headers['ratelimit-limit']).toBeUndefined();
      const ready = await t.http.get('/readyz').expect(200);
      expect(ready.body.info.serving).toMatchObject({ status: 'up', datasetVersion: rawMeta.version });
      expect(ready.body.info.rateLimitStore).toMatchObject({ mode: 'local', degraded: false });
    }
    expect(metric(await scrape(t), 'http_rate_limited_total')).toBe(0);
  });

  it('keeps the probes out of the public contract', async () => {
    const doc = (await t.http.get('/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p) => /healthz|readyz|metrics/.test(p))).toEqual([]);
  });

  it('turns readiness off when shutdown begins, while liveness stays up', async () => {
    const other = await startTestApp();
    try {
      other.app.get(AvailabilityService).beginShutdown();
      const ready = await other.http.get('/readyz').expect(503);
      expect(ready.body.error.serving).toMatchObject({ status: 'down', reason: 'shutting down' });
      await other.http.get('/healthz').expect(200);
      await other.http.get('/api/index.json').expect(200);
    } finally {
      await other.close();
    }
  });

  it('stays ready, reporting degraded, when Redis is unreachable', async () => {
    const port = await freePort();
    const other = await startTestApp({ RATE_LIMIT_STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      const ready = await other.http.get('/readyz').expect(200);
      expect(ready.body.info.rateLimitStore).toMatchObject({ status: 'up', mode: 'local-fallback', degraded: true });
      await other.http.get('/api/index.json').expect(200);
    } finally {
      await other.close();
    }
  });
});
