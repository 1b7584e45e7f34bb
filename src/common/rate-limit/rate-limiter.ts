import { Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request } from 'express';
import type { ServerResponse } from 'node:http';
import { contextOf, type RateLimitState } from '../../request/request-context.js';
import type { HttpProblem } from '../errors/http-problem.js';
import { rateLimited } from '../errors/problems.js';
import { clientKey } from './client-key.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { RateLimitStorage } from './rate-limit-storage.js';

/**
 * Counts requests that the guard cannot see, through the guard's own storage and configuration: the
 * named exceptions of docs/architecture.md. They are the further calls of an MCP batch (`countMore`), a
 * request that failed before routing (the error filter), and one Node's HTTP parser refused
 * (MalformedRequestAnswer). Every routed request is counted by RateLimitGuard and nowhere else.
 */
@Injectable()
export class RateLimiter {
  readonly limit: number;
  private readonly ttlMs: number;
  private readonly name: string;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {
    const throttler = (Array.isArray(options) ? options : options.throttlers)[0];
    this.limit = throttler.limit as number;
    this.ttlMs = throttler.ttl as number;
    this.name = throttler.name ?? 'default';
  }

  /** Counts `hits` requests (one by default) of `client`, a key made by clientKey. */
  async hit(client: string, hits = 1): Promise<RateLimitState> {
    let record;
    if (this.storage instanceof RateLimitStorage)
      record = await this.storage.increment(client, this.ttlMs, this.limit, this.ttlMs, this.name, hits);
    else if (hits === 1) record = await this.storage.increment(client, this.ttlMs, this.limit, this.ttlMs, this.name);
    // Another ThrottlerStorage counts one hit per call.
    else throw new Error('Counting several requests at once needs RateLimitStorage.');
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - record.totalHits),
      resetSeconds: Math.max(1, record.timeToExpire),
      limited: record.totalHits > this.limit,
    };
  }

  /**
   * Counts `more` further requests of the client that sent `req` (the further calls of an MCP batch under
   * a protocol revision that still has batches). The request's count becomes the one after them, which
   * the RateLimit-* headers show; over the limit, the 429 is thrown (the calls are counted either way).
   */
  async countMore(req: Request, res: ServerResponse, more: number): Promise<void> {
    const state = await this.hit(clientKey(req), more);
    contextOf(req).counted = state;
    if (state.limited) throw this.refusal(state);
    // The interceptor wrote the headers of the guard's count before the handler ran; these replace them
    // (the error filter writes them for the 429).
    for (const [name, value] of rateLimitHeaders(state, this.ttlMs / 1000)) res.setHeader(name, value);
  }

  /** The 429 of a request over its limit. */
  refusal(state: RateLimitState): HttpProblem {
    return rateLimited(state.limit, this.ttlMs / 1000, state.resetSeconds);
  }
}
