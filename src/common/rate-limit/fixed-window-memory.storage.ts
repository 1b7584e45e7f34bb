import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from './storage-record.js';

interface Window {
  hits: number;
  /** Epoch milliseconds when the window ends. */
  resetAt: number;
}

/**
 * Fixed-window counters in this process: one number per client and window, so a request costs O(1)
 * however many hits the window already holds (@nestjs/throttler's default storage filters an array of
 * timestamps on every request). Expired windows are swept once per window length, off the request path.
 */
export class FixedWindowMemoryStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return this.incrementSync(`${throttlerName}:${key}`, ttl, limit);
  }

  /** The same count without a promise, for callers already on a synchronous path. */
  incrementSync(id: string, ttl: number, limit: number, hits = 1): ThrottlerStorageRecord {
    const now = this.now();
    let window = this.windows.get(id);
    if (!window || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + ttl };
      this.windows.set(id, window);
      this.sweeper ??= setInterval(() => this.sweep(), ttl).unref();
    }
    window.hits += hits;
    const timeToExpire = Math.ceil((window.resetAt - now) / 1000);
    const isBlocked = window.hits > limit;
    return { totalHits: window.hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
  }

  /** Number of live client windows. */
  get size(): number {
    return this.windows.size;
  }

  /** Drops expired windows. */
  sweep(): void {
    const now = this.now();
    for (const [id, window] of this.windows) if (window.resetAt <= now) this.windows.delete(id);
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
