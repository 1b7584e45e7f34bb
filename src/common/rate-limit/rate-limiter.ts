import { Injectable } from '@nestjs/common';
import { InjectThrottlerOptions, InjectThrottlerStorage, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import type { ServerResponse } from 'node:http';
import type { RateLimitState } from '../../request/request-context.js';
import { RATE_LIMIT_HEADERS, rateLimitPolicy } from './rate-limit-headers.js';
import { RateLimitStorage } from './rate-limit-storage.js';


/**
 * Counts requests per client against the @nestjs/throttler configuration and storage, and writes
 * the RateLimit-* headers. Used by the front door, which sees every request exactly once.
 */
@Injectable()
export class RateLimiter {
  readonly limit: number;
  private readonly ttlMs: number;
  private readonly name: string;
  private readonly policy: string;
  private readonly limitHeader: string;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {
    const throttler = (Array.isArray(options) ? options : options.throttlers)[0];
    this.limit = throttler.limit as number;
    this.ttlMs = throttler.ttl as number;
    this.name = throttler.name ?? 'default';
    this.policy = rateLimitPolicy(this.limit, this.ttlMs / 1000);
    this.limitHeader = String(this.limit);
  }

  /**
   * Counts one request of `client` (a normalized address). Synchronous when the count is kept in
   * this process, so the hot path allocates no promise; a promise when it goes to Redis.
   */
  hit(client: string): RateLimitState | Promise<RateLimitState> {
    const local = this.storage instanceof RateLimitStorage ? this.storage.incrementLocally(client, this.ttlMs, this.limit, this.name) : undefined;
    if (local) return this.state(local);
    return this.storage.increment(client, this.ttlMs, this.limit, this.ttlMs, this.name).then((record) => this.state(record));
  }

  private state(record: { totalHits: number; timeToExpire: number }): RateLimitState {
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - record.totalHits),
      resetSeconds: Math.max(1, record.timeToExpire),
      limited: record.totalHits > this.limit,
    };
  }

  /** Appends the four RateLimit-* headers of an admitted request to a flat header list. */
  pushHeaders(headers: string[], state: RateLimitState): void {
    headers.push(
      RATE_LIMIT_HEADERS.limit,
      this.limitHeader,
      RATE_LIMIT_HEADERS.remaining,
      String(state.remaining),
      RATE_LIMIT_HEADERS.reset,
      String(state.resetSeconds),
      RATE_LIMIT_HEADERS.policy,
      this.policy,
    );
  }

  /** Writes the four RateLimit-* headers (and Retry-After when limited). */
  writeHeaders(res: ServerResponse, state: RateLimitState): void {
    res.setHeader(RATE_LIMIT_HEADERS.limit, this.limitHeader);
    res.setHeader(RATE_LIMIT_HEADERS.remaining, String(state.remaining));
    res.setHeader(RATE_LIMIT_HEADERS.reset, String(state.resetSeconds));
    res.setHeader(RATE_LIMIT_HEADERS.policy, this.policy);
    if (state.limited) res.setHeader(RATE_LIMIT_HEADERS.retryAfter, String(state.resetSeconds));
  }
}
