import { PagesService } from '../src/pages/pages.service';
import { ProvidersService } from '../src/providers/providers.service';
import { MetricsService } from '../src/observability/metrics.service';
import { startTestApp, type TestApp } from './support/test-app';

const VOLATILE = ['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive'];
const stable = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([k]) => !VOLATILE.includes(k)));

describe('answers remembered by the front door', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
  });
  afterEach(() => t.close());

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
    for (let i = 0; i < 3; i++) await t.http.get('/api/providers/contabo.json').expect(200);
    const text = await t.app.get(MetricsService).registry.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/api/providers/:providerId.json",status="200"} 3');
  });

  it('still counts and limits every request it answers', async () => {
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
});
