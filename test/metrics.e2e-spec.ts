import { connect } from 'node:net';
import { MetricsService } from '../src/observability/metrics.service';
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

/** Opens a TCP connection to host:port: 'open', or the error code (ECONNREFUSED when nothing listens there). */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/**
 * Where the metrics server listens, seen from real sockets. 127.0.0.2 is another address of this
 * machine (all of 127.0.0.0/8 is loopback on Linux): a server bound to 127.0.0.1 refuses it, one bound
 * to every interface accepts it.
 */
describe('the metrics server address', () => {
  async function reachable(env: Record<string, string | undefined>): Promise<Record<string, string>> {
    const t = await startTestApp({ METRICS_HOST: undefined, ...env });
    try {
      const port = t.app.get(MetricsService).port!;
      return { '127.0.0.1': await tryConnect('127.0.0.1', port), '127.0.0.2': await tryConnect('127.0.0.2', port) };
    } finally {
      await t.close();
    }
  }

  it('follows HOST when METRICS_HOST is not set: HOST=127.0.0.1 keeps metrics off every other interface', async () => {
    expect(await reachable({ HOST: '127.0.0.1' })).toEqual({ '127.0.0.1': 'open', '127.0.0.2': 'ECONNREFUSED' });
  });

  it('listens on every interface with HOST=0.0.0.0 (as in Kubernetes, where Prometheus scrapes the pod address)', async () => {
    expect(await reachable({ HOST: '0.0.0.0' })).toEqual({ '127.0.0.1': 'open', '127.0.0.2': 'open' });
  });

  it('takes METRICS_HOST over HOST when both are set', async () => {
    expect(await reachable({ HOST: '0.0.0.0', METRICS_HOST: '127.0.0.1' })).toEqual({ '127.0.0.1': 'open', '127.0.0.2': 'ECONNREFUSED' });
  });
});
