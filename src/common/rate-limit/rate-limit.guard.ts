import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { contextOf } from '../../request/request-context.js';
import { rateLimited } from '../errors/problems.js';
import { RateLimiter } from './rate-limiter.js';
import { clientKey } from './client-key.js';

/**
 * The rate limit, where the design card and the NestJS documentation put it: @nestjs/throttler's
 * guard, registered for every route (APP_GUARD). A catch-all route (FallbackController) makes every
 * routable path a matched one, so the guard sees 404s, 405s and preflights too.
 *
 * What it adds to ThrottlerGuard:
 * - one count per client, not per route (`generateKey`): the limit is the client's, whatever it asks
 *   for; the client is the connecting address or the one a trusted proxy reports (`req.ip`), IPv6 per
 *   /64 (`normalizeIp`);
 * - a request the replay cache in front of Express already counted (FrontDoor) is not counted again;
 * - the outcome is kept on the request (RequestContext.counted) for the header interceptor and the
 *   error filter, which write the `RateLimit-*` headers (the IETF draft's names, not the library's
 *   `X-RateLimit-*`, which are turned off with `setHeaders: false`);
 * - over the limit, the 429 is the documented envelope with Retry-After (`rateLimited`).
 *
 * The health probes opt out with `@SkipThrottle()`.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, getTracker, generateKey, throttler } = props;
    const { req } = this.getRequestResponse(context);
    const request = contextOf(req as Request);
    if (request.counted === undefined) {
      const key = generateKey(context, await getTracker(req, context), throttler.name ?? 'default');
      request.counted = await this.limiter.hit(key);
    }
    const state = request.counted;
    if (state.limited) {
      await this.throwThrottlingException(context, {
        limit: state.limit,
        ttl: props.ttl,
        key: '',
        tracker: '',
        totalHits: state.limit + 1,
        timeToExpire: state.resetSeconds,
        isBlocked: true,
        timeToBlockExpire: state.resetSeconds,
      });
    }
    return true;
  }

  /** The client: `req.ip` (Express applies TRUST_PROXY), IPv6 per /64. */
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return clientKey(req as unknown as Request);
  }

  /** One counter per client, whatever the route. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw rateLimited(detail.limit, this.config.rateLimit.windowSeconds, detail.timeToExpire);
  }
}
