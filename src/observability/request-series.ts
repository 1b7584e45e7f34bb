import { type Aggregator, Counter, type PrometheusContentType, type Registry, type RegistryContentType } from 'prom-client';

type LabelName = 'method' | 'route' | 'status';
type Labels = Record<LabelName, string>;

/** One method, route template and status: its count, the sum of its durations and its bucket counts. */
interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), the last one above every bound. */
  buckets: Float64Array;
}

/** One line of a histogram as prom-client's registry writes it (`_bucket`, `_sum`, `_count`). */
interface HistogramLine {
  labels: { le?: number | string };
  sharedLabels: Labels;
  value: number;
  metricName: string;
}

/**
 * A histogram whose values are read when the registry collects them: the shape prom-client's registry
 * reads from every metric (name, help, type, aggregator, get()). prom-client's typings accept only its
 * own four classes, whose values can only be fed one observation at a time, and type `type` as a
 * numeric enum its runtime never uses; this declares the contract the registry keeps at runtime for
 * the one metric that needs it.
 */
interface CollectedHistogram {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: Aggregator;
  get(): Promise<Omit<CollectedHistogram, 'get'> & { values: HistogramLine[] }>;
}

declare module 'prom-client' {
  interface Registry<BoundRegistryContentType extends RegistryContentType = PrometheusContentType> {
    registerMetric(metric: CollectedHistogram): void;
  }
}

/**
 * `http_requests_total` and `http_request_duration_seconds` as plain numbers per series, read by the
 * registry when it collects: recording a request is a map lookup and three additions. Through
 * prom-client's labelled children, which hash their labels and validate them on every call, the two
 * metrics were about a sixth of the CPU of a request answered at the door (10 µs of 56 for a 404).
 * The count is a prom-client Counter filled in its `collect()`; the histogram, whose buckets
 * prom-client can only fill one observation at a time, is written in the text its Histogram writes
 * (the same names, help, labels, bucket bounds and order; the spec compares the two).
 */
export class RequestSeries {
  private readonly series = new Map<string, Series>();

  constructor(
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    const series = this.series;
    new Counter<LabelName>({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
      collect() {
        this.reset();
        for (const s of series.values()) this.inc(s.labels, s.count);
      },
    });
    const name = 'http_request_duration_seconds';
    const histogram = { name, help: 'Time to answer an HTTP request, by method, route template and status.', type: 'histogram', aggregator: 'sum' } as const;
    registry.registerMetric({
      ...histogram,
      get: async () => ({
        ...histogram,
        values: [...series.values()].flatMap((s) => {
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
    });
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
