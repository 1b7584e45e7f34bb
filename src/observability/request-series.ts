import type { Registry } from 'prom-client';

type Labels = { method: string; route: string; status: string };

/** One method, route template and status: its count, the sum of its durations and its bucket counts. */
interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), the last one above every bound. */
  buckets: Float64Array;
}

/**
 * `http_requests_total` and `http_request_duration_seconds` as plain numbers per series, exposed
 * through the registry in the text prom-client's Counter and Histogram write (the same names, help,
 * labels, bucket bounds and order). Recording a request is a map lookup and three additions: through
 * prom-client's labelled children, which hash their labels and validate them on every call, the two
 * metrics were about a sixth of the CPU of a request answered at the door (10 µs of 56 for a 404).
 */
export class RequestSeries {
  private readonly series = new Map<string, Series>();

  constructor(
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    const values = () => [...this.series.values()];
    const counter = { name: 'http_requests_total', help: 'HTTP requests answered, by method, route template and status.', type: 'counter', aggregator: 'sum' } as const;
    registry.registerMetric({
      ...counter,
      get: async () => ({ ...counter, values: values().map((s) => ({ labels: s.labels, value: s.count })) }),
    } as never);
    const name = 'http_request_duration_seconds';
    const histogram = { name, help: 'Time to answer an HTTP request, by method, route template and status.', type: 'histogram', aggregator: 'sum' } as const;
    registry.registerMetric({
      ...histogram,
      get: async () => ({
        ...histogram,
        values: values().flatMap((s) => {
          let total = 0;
          const buckets = this.bounds.map((le, i) => ({ labels: { le }, sharedLabels: s.labels, value: (total += s.buckets[i]), metricName: `${name}_bucket` }));
          return [
            ...buckets,
            { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${name}_bucket` },
            { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${name}_sum` },
            { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${name}_count` },
          ];
        }),
      }),
    } as never);
  }

  /** Records one answered request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let s = this.series.get(key);
    if (s === undefined) {
      s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(this.bounds.length + 1) };
      this.series.set(key, s);
    }
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]) i++;
    s.buckets[i]++;
  }
}
