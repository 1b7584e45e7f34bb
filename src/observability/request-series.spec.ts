import { Counter, Histogram, Registry } from 'prom-client';
import { RequestSeries } from './request-series.js';

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The same two metrics through prom-client's own Counter and Histogram, as the service had them. */
function promClientPair(registry: Registry) {
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route template and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: BOUNDS,
    registers: [registry],
  });
  return (method: string, route: string, status: number, seconds: number) => {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  };
}

describe(RequestSeries.name, () => {
  it("writes exactly the text prom-client's Counter and Histogram write for the same requests", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const record = promClientPair(theirs);
    const series = new RequestSeries(ours, BOUNDS);
    const requests: [string, string, number, number][] = [
      ['GET', '/api/providers/:providerId.json', 200, 0.0003],
      ['GET', '/api/providers/:providerId.json', 200, 0.0005],
      ['GET', '/api/providers/:providerId.json', 200, 0.0049],
      ['GET', 'unmatched', 404, 0.012],
      ['POST', '/mcp', 200, 0.2],
      ['HEAD', '/api/providers/:providerId.json', 304, 5],
      ['GET', 'unmatched', 404, 7.5],
      ['GET', '/guides/:slug', 200, 0],
      ['GET', 'a "quoted" \\ route\nwith a newline', 400, 0.001],
    ];
    for (const r of requests) {
      record(...r);
      series.observe(...r);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/providers/:providerId.json",status="200"} 3');
  });

  it('writes nothing but the headers before the first request, as prom-client does', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    promClientPair(theirs);
    new RequestSeries(ours, BOUNDS);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
