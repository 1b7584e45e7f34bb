import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ServerResponse } from 'node:http';
import type { AppConfig } from '../../config/app-config';
import { RateLimiter } from './rate-limiter';
import type { MetricsService } from '../../observability/metrics.service';
import { RateLimitStorage } from './rate-limit-storage';

const options = { throttlers: [{ limit: 3, ttl: 60_000 }] };
const localStorage = () => new RateLimitStorage({ rateLimit: { store: 'memory' } } as unknown as AppConfig, {} as MetricsService);

describe(RateLimiter.name, () => {
  it('counts synchronously in this process: remaining falls to 0, then the client is limited', () => {
    const storage = localStorage();
    const limiter = new RateLimiter(options, storage);
    try {
      const states = Array.from({ length: 5 }, () => limiter.hit('198.51.100.0/24'));
      expect(states).toEqual([
        { limit: 3, remaining: 2, resetSeconds: 60, limited: false },
        { limit: 3, remaining: 1, resetSeconds: 60, limited: false },
        { limit: 3, remaining: 0, resetSeconds: 60, limited: false },
        { limit: 3, remaining: 0, resetSeconds: 60, limited: true },
        { limit: 3, remaining: 0, resetSeconds: 60, limited: true },
      ]);
      expect(limiter.hit('203.0.113.0/24')).toMatchObject({ remaining: 2, limited: false });
    } finally {
      void storage.onModuleDestroy();
    }
  });

  it('asks any other storage asynchronously, under the throttler name, and never reports less than one second', async () => {
    const increment = jest.fn(async () => ({ totalHits: 4, timeToExpire: 0, isBlocked: true, timeToBlockExpire: 0 }));
    const limiter = new RateLimiter([{ name: 'api', limit: 3, ttl: 10_000 }], { increment } as ThrottlerStorage);
    expect(await limiter.hit('client')).toEqual({ limit: 3, remaining: 0, resetSeconds: 1, limited: true });
    expect(increment).toHaveBeenCalledWith('client', 10_000, 3, 10_000, 'api');
  });

  it('names the default throttler "default"', async () => {
    const increment = jest.fn(async () => ({ totalHits: 1, timeToExpire: 5, isBlocked: false, timeToBlockExpire: 0 }));
    await new RateLimiter(options, { increment } as ThrottlerStorage).hit('client');
    expect(increment).toHaveBeenCalledWith('client', 60_000, 3, 60_000, 'default');
  });

  it('appends the four RateLimit headers in order', () => {
    const limiter = new RateLimiter(options, localStorage());
    const headers: string[] = ['Content-Type', 'application/json'];
    limiter.pushHeaders(headers, { limit: 3, remaining: 1, resetSeconds: 42, limited: false });
    expect(headers).toEqual(['Content-Type', 'application/json', 'RateLimit-Limit', '3', 'RateLimit-Remaining', '1', 'RateLimit-Reset', '42', 'RateLimit-Policy', '3;w=60']);
  });

  it.each([
    [false, { 'RateLimit-Limit': '3', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '42', 'RateLimit-Policy': '3;w=60' }],
    [true, { 'RateLimit-Limit': '3', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '42', 'RateLimit-Policy': '3;w=60', 'Retry-After': '42' }],
  ])('writes the headers (limited: %s), Retry-After only when limited', (limited, expected) => {
    const written: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (written[name] = value) } as unknown as ServerResponse;
    new RateLimiter(options, localStorage()).writeHeaders(res, { limit: 3, remaining: 1, resetSeconds: 42, limited });
    expect(written).toEqual(expected);
  });
});
