import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { contextOf } from '../../request/request-context.js';
import { rateLimited } from '../errors/problems.js';
import { clientKey } from './client-key.js';

/**
 * The rate limit, where the design card and the NestJS documentation put it: @nestjs/throttler's
 * guard with the library's own `handleRequest`, registered for every route (APP_GUARD). A catch-all
 * route (FallbackController) makes every routable path a matched one, so the guard sees 404s, 405s and
 * preflights too. `@SkipThrottle()` exempts a route (the health probes) and `@Throttle()` changes a
 * route's limit, as the library documents.
 *
 * What it adjusts, through the library's extension points:
 * - one counter per client, not per route (`generateKey`): the limit is the client's, whatever it asks
 *   for; the client is `req.ip` (Express applies TRUST_PROXY), IPv6 per /64 (`clientKey`);
 * - the count the library reports through its header hook (`setResponseHeader`) is kept on the request
 *   (RequestContext.counted) instead of written: the `RateLimit-*` headers are written with the other
 *   common headers by one function (CommonHeaders), for answers and errors alike;
 * - over the limit, the 429 is the documented envelope with Retry-After (`rateLimited`).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return clientKey(req as unknown as Request);
  }

  /** One counter per client, whatever the route. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }

  /** The library reports an admitted request's count as three headers; they are recorded for CommonHeaders. */
  protected override setResponseHeader(res: Response, name: string, value: number): void {
    const context = contextOf(res.req);
    const counted = (context.counted ??= { limit: 0, remaining: 0, resetSeconds: 1, limited: false });
    if (name === `${this.headerPrefix}-Limit`) counted.limit = value;
    else if (name === `${this.headerPrefix}-Remaining`) counted.remaining = value;
    else if (name === `${this.headerPrefix}-Reset`) counted.resetSeconds = Math.max(1, value);
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const resetSeconds = Math.max(1, detail.timeToBlockExpire || detail.timeToExpire);
    contextOf(context.switchToHttp().getRequest<Request>()).counted = {
      limit: detail.limit,
      remaining: 0,
      resetSeconds,
      limited: true,
    };
    throw rateLimited(detail.limit, Math.round(detail.ttl / 1000), resetSeconds);
  }
}
