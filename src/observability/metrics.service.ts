import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  Optional,
  type OnModuleDestroy,
} from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppConfig } from '../config/app-config.js';
import { LOG_OUTPUT, type LogOutput } from './logger.js';

/**
 * Prometheus metrics on their own port (METRICS_PORT), so they are never public: requests by route
 * template and status, latency, 429s, MCP tool calls, the dataset version, reloads and price ages,
 * rate-limit store errors, dropped log bytes, and Node's process metrics.
 */
@Injectable()
export class MetricsService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'http_rate_limited_total',
    help: 'Requests refused with 429 by the rate limit.',
    registers: [this.registry],
  });
  private readonly toolCalls = new Counter({
    name: 'mcp_tool_calls_total',
    help: 'MCP tool calls, by tool and outcome (ok, error, exception).',
    labelNames: ['tool', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly reloads = new Counter({
    name: 'dataset_reloads_total',
    help: 'Dataset reloads, by outcome (success, failure).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(
    private readonly config: AppConfig,
    @Optional() @Inject(LOG_OUTPUT) output?: LogOutput,
  ) {
    collectDefaultMetrics({ register: this.registry });
    new Counter({
      name: 'log_dropped_bytes_total',
      help: 'Log bytes dropped because standard output was not read (more than LOG_MAX_PENDING_BYTES waiting) or was closed.',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(output?.dropped ?? 0);
      },
    });
  }

  // Pushed by their owners (the dataset service and the rate-limit store): metrics depend on nothing.
  private readonly datasetInfo = new Gauge({
    name: 'dataset_info',
    help: 'The dataset version being served (value 1).',
    labelNames: ['version'] as const,
    registers: [this.registry],
  });
  private readonly datasetVersionTime = new Gauge({
    name: 'dataset_version_timestamp_seconds',
    help: 'The day of the dataset version being served, as Unix seconds (midnight UTC): with dataset_price_age_days, how old a price is today.',
    registers: [this.registry],
  });
  private readonly datasetLoaded = new Gauge({
    name: 'dataset_loaded_timestamp_seconds',
    help: 'When the dataset being served was loaded, in Unix seconds.',
    registers: [this.registry],
  });
  /** Each provider's plan price dates (observedAt) in the dataset served; the gauge below ages them at every scrape. */
  private priceDates: ReadonlyMap<string, readonly string[]> = new Map();
  private readonly priceAge = new Gauge({
    name: 'dataset_price_age_days',
    help: "Whole days from the day a provider showed a plan's price (observedAt) to today (UTC), at the scrape: the oldest plan's and the median, by provider. It grows when no refresh publishes.",
    labelNames: ['provider', 'stat'] as const,
    registers: [this.registry],
    collect: () => this.agePrices(),
  });
  private readonly storeErrors = new Gauge({
    name: 'rate_limit_store_errors',
    help: 'Failed calls to the shared rate-limit store (Redis) since start.',
    registers: [this.registry],
  });
  private readonly localFallback = new Gauge({
    name: 'rate_limit_local_fallback_requests',
    help: 'Requests counted per instance because the shared store was unavailable, since start.',
    registers: [this.registry],
  });

  /** The dataset version now served, and when it was loaded. */
  datasetPublished(version: string, loadedAt: Date): void {
    this.datasetInfo.reset();
    this.datasetInfo.set({ version }, 1);
    this.datasetVersionTime.set(Date.parse(`${version.slice(0, 10)}T00:00:00Z`) / 1000);
    this.datasetLoaded.set(loadedAt.getTime() / 1000);
  }

  /** The price dates (observedAt) of the dataset now served, by provider: the gauge measures them against the clock at each scrape. */
  datasetPriceDates(datesByProvider: ReadonlyMap<string, readonly string[]>): void {
    this.priceDates = datesByProvider;
    this.agePrices();
  }

  /** Sets each provider's oldest and median price age, in whole days to today (UTC). */
  private agePrices(): void {
    // From scratch: a provider the dataset served no longer has keeps no series.
    this.priceAge.reset();
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    for (const [provider, dates] of this.priceDates) {
      const ages = dates.map((date) => Math.max(0, Math.round((today - Date.parse(`${date}T00:00:00Z`)) / 86_400_000)));
      if (ages.length === 0) continue;
      const sorted = [...ages].sort((a, b) => a - b);
      const middle = sorted.length >> 1;
      this.priceAge.set({ provider, stat: 'oldest' }, sorted[sorted.length - 1]);
      this.priceAge.set(
        { provider, stat: 'median' },
        sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2,
      );
    }
  }

  /** A call to the shared rate-limit store failed. */
  rateLimitStoreError(): void {
    this.storeErrors.inc();
  }

  /** A request was counted by this instance alone because the shared store was unavailable. */
  rateLimitFellBack(): void {
    this.localFallback.inc();
  }

  /** Records one answered request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
    if (status === 429) this.rateLimited.inc();
  }

  toolCall(tool: string, outcome: 'ok' | 'error' | 'exception'): void {
    this.toolCalls.inc({ tool, outcome });
  }

  reload(outcome: 'success' | 'failure'): void {
    this.reloads.inc({ outcome });
  }

  /** The port the metrics server listens on (useful when METRICS_PORT=0). */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: scrape /metrics\n');
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': this.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.config.metrics.port, this.config.metrics.host, resolve);
    });
    this.logger.log(`Metrics at http://${this.config.metrics.host}:${this.port}/metrics`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
