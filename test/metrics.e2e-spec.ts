import { rawMeta } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';
import { scrape, metric } from './support/operations';

describe('metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '4' });
  });
  afterAll(() => t.close());

  it('serves Prometheus metrics on their own port, not the public one', async () => {
    await t.http.get('/metrics').expect(404);
    const text = await scrape(t);
    expect(text).toContain(`dataset_info{version="${rawMeta.version}"} 1`);
    expect(metric(text, 'dataset_loaded_timestamp_seconds')).toBeGreaterThan(1.7e9);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts requests by route and status, 429s and MCP tool calls', async () => {
    const series = 'http_requests_total{method="GET",route="/api/providers/:providerId.json",status="200"}';
    const before = await scrape(t);
    await t.http.get('/api/providers/vultr.json').expect(200);
    await t.http
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_vps_provider', arguments: { id: 'nope' } } })
      .expect(200);
    await t.http.get('/api/index.json').expect(200);
    await t.http.get('/api/index.json').expect(429);
    await t.http.get('/api/index.json').expect(429);
    const after = await scrape(t);
    expect(metric(after, series) - metric(before, series)).toBe(1);
    expect(metric(after, 'http_rate_limited_total') - metric(before, 'http_rate_limited_total')).toBe(2);
    expect(metric(after, 'mcp_tool_calls_total{tool="get_vps_provider",outcome="error"}')).toBe(1);
    expect(after).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/providers\/:providerId.json",status="200"\} \d/);
  });
});
