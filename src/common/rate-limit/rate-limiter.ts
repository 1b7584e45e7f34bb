import { Injectable } from '@nestjs/common';
import { InjectThrottlerOptions, InjectThrottlerStorage, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import type { Request } from 'express';
import type { ServerResponse } from 'node:http';
import { contextOf } from '../../request/request-context.js';
import type { RateLimitState } from '../../request/request-context.js';
import type { HttpProblem } from '../errors/http-problem.js';
import { rateLimited } from '../errors/problems.js';
import { RATE_LIMIT_HEADERS, rateLimitPolicy } from './rate-limit-headers.js';
import { RateLimitStorage } from './rate-limit-storage.js';
import { clientKey } from './client-key.js';


/**
 * Counts requests per client against the @nestjs/throttler configuration and storage, and writes
 * the RateLimit-* headers: the one counting step of RateLimitGuard, the replay cache in front of
 * Express (FrontDoor), the error filter (requests that failed before the guard) and the parser-level
 * refusals, so a request is counted once wherever it is answered.
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
   * Counts `hits` requests (one by default; the further calls of an MCP batch) of `client` (a
   * normalized address). Synchronous when the count is kept in this process, so the hot path allocates
   * no promise; a promise when it goes to Redis.
   */
  hit(client: string, hits = 1): RateLimitState | Promise<RateLimitState> {
    if (this.storage instanceof RateLimitStorage) {
      const local = this.storage.incrementLocally(client, this.ttlMs, this.limit, this.name, hits);
      if (local) return this.state(local);
      return this.storage.increment(client, this.ttlMs, this.limit, this.ttlMs, this.name, hits).then((record) => this.state(record));
    }
    // Another ThrottlerStorage counts one hit per call.
    if (hits !== 1) throw new Error('Counting several requests at once needs RateLimitStorage.');
    return this.storage.increment(client, this.ttlMs, this.limit, this.ttlMs, this.name).then((record) => this.state(record));
  }

  /**
   * Counts `more` further requests of the client that sent `req` (the further calls of an MCP batch under
   * a protocol revision that still has batches), updates the request's RateLimit-* headers to the count
   * after them, and throws the 429 when that count is over the limit.
   */
  async countMore(req: Request, res: ServerResponse, more: number): Promise<void> {
    const state = await this.hit(clientKey(req), more);
    contextOf(req).counted = state;
    this.writeHeaders(res, state);
    if (state.limited) throw this.refusal(state);
  }

  /** The 429 of a request over its limit. */
  refusal(state: RateLimitState): HttpProblem {
    return rateLimited(state.limit, this.ttlMs / 1000, state.resetSeconds);
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
