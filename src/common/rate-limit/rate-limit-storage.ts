import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from './storage-record.js';
import { AppConfig } from '../../config/app-config.js';
import { MetricsService } from '../../observability/metrics.service.js';
import { FixedWindowMemoryStorage } from './fixed-window-memory.storage.js';
import { RedisCounterStorage } from './redis-counter.storage.js';

/** How long to stop asking a failing Redis before trying again. */
const RETRY_AFTER_FAILURE_MS = 1000;
/** At most one outage log line per this interval. */
const LOG_INTERVAL_MS = 30_000;

/**
 * The throttler storage the service uses. With RATE_LIMIT_STORE=redis the counters are shared by all
 * replicas; when Redis is down or slow the limiter fails open to this instance's own counters (the
 * same limit, the same headers), so a Redis outage never becomes an error or a stall, and the shared
 * limit resumes by itself when Redis answers again.
 */
@Injectable()
export class RateLimitStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new FixedWindowMemoryStorage();
  private readonly shared?: RedisCounterStorage;
  private skipSharedUntil = 0;
  private lastOutageLog = 0;
  private inOutage = false;
  constructor(
    config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    if (config.rateLimit.store === 'redis' && config.rateLimit.redisUrl) {
      this.shared = new RedisCounterStorage(config.rateLimit.redisUrl, {
        password: config.rateLimit.redisPassword,
        onError: (e) => this.reportOutage(e),
      });
      this.shared.client.on('ready', () => this.reportRecovery());
    }
  }

  /** `shared` when counting in Redis, `local` when counting per instance (by choice or during an outage). */
  get mode(): 'shared' | 'local' | 'local-fallback' {
    if (!this.shared) return 'local';
    return this.shared.ready && !this.inOutage ? 'shared' : 'local-fallback';
  }

  /** ThrottlerStorage's increment; `hits` (beyond the interface: one by default) counts several requests at once. */
  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
    hits = 1,
  ): Promise<ThrottlerStorageRecord> {
    if (this.shared?.ready && Date.now() >= this.skipSharedUntil) {
      try {
        const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName, hits);
        if (this.inOutage) this.reportRecovery();
        return record;
      } catch (error) {
        this.skipSharedUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
        this.reportOutage(error as Error);
      }
    }
    if (this.shared) this.metrics.rateLimitFellBack();
    return this.local.incrementSync(`${throttlerName}:${key}`, ttl, limit, hits);
  }

  async onModuleDestroy(): Promise<void> {
    this.local.close();
    await this.shared?.close();
  }

  private reportOutage(error: Error): void {
    this.metrics.rateLimitStoreError();
    this.inOutage = true;
    const now = Date.now();
    if (now - this.lastOutageLog < LOG_INTERVAL_MS) return;
    this.lastOutageLog = now;
    this.logger.warn(`Redis rate-limit store unavailable (${error.message}); limiting per instance until it returns`);
  }

  private reportRecovery(): void {
    if (!this.inOutage) return;
    this.inOutage = false;
    this.lastOutageLog = 0;
    this.logger.log('Redis rate-limit store is back; the limit is shared again');
  }
}
