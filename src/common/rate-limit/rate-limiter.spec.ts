import type { ThrottlerStorage } from '@nestjs/throttler';
import type { AppConfig } from '../../config/app-config';
import { RateLimiter } from './rate-limiter';
import type { MetricsService } from '../../observability/metrics.service';
import { RateLimitStorage } from './rate-limit-storage';

const options = { throttlers: [{ limit: 3, ttl: 60_000 }] };
const localStorage = () =>
  new RateLimitStorage({ rateLimit: { store: 'memory' } } as unknown as AppConfig, {} as MetricsService);

describe(RateLimiter.name, () => {
  it('counts in this process: remaining falls to 0, then the client is limited', async () => {
    const storage = localStorage();
    const limiter = new RateLimiter(options, storage);
    try {
      const states = [];
      for (let i = 0; i < 5; i++) states.push(await limiter.hit('198.51.100.0/24'));
      expect(states).toEqual([
        { limit: 3, remaining: 2, resetSeconds: 60, limited: false },
        { limit: 3, remaining: 1, resetSeconds: 60, limited: false },
        { limit: 3, remaining: 0, resetSeconds: 60, limited: false },
        { limit: 3, remaining: 0, resetSeconds: 60, limited: true },
        { limit: 3, remaining: 0, resetSeconds: 60, limited: true },
      ]);
      expect(await limiter.hit('203.0.113.0/24')).toMatchObject({ remaining: 2, limited: false });
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

  it('counts the further calls of a batch at once, and says when they pass the limit', async () => {
    const storage = localStorage();
    const limiter = new RateLimiter(options, storage);
    try {
      expect(await limiter.hit('client', 2)).toMatchObject({ remaining: 1, limited: false });
      expect(await limiter.hit('client', 2)).toMatchObject({ remaining: 0, limited: true });
    } finally {
      void storage.onModuleDestroy();
    }
  });

  it('refuses to count several requests at once with a storage that counts one per call', async () => {
    const increment = jest.fn(async () => ({ totalHits: 1, timeToExpire: 5, isBlocked: false, timeToBlockExpire: 0 }));
    await expect(new RateLimiter(options, { increment } as ThrottlerStorage).hit('client', 3)).rejects.toThrow(
      /RateLimitStorage/,
    );
    expect(increment).not.toHaveBeenCalled();
  });

  describe('hit(client, n)', () => {
    const limiterOf = () => {
      const storage = localStorage();
      return { limiter: new RateLimiter({ throttlers: [{ limit: 10, ttl: 60_000 }] }, storage), storage };
    };

    it('counts n requests at once: remaining falls by n', async () => {
      const { limiter, storage } = limiterOf();
      try {
        expect(await limiter.hit('client', 4)).toEqual({ limit: 10, remaining: 6, resetSeconds: 60, limited: false });
        expect(await limiter.hit('client', 3)).toMatchObject({ remaining: 3, limited: false });
        expect(await limiter.hit('client')).toMatchObject({ remaining: 2, limited: false });
      } finally {
        void storage.onModuleDestroy();
      }
    });

    it('is not limited when n brings the count exactly to the limit, and is limited one past it', async () => {
      const { limiter, storage } = limiterOf();
      try {
        expect(await limiter.hit('exact', 10)).toMatchObject({ remaining: 0, limited: false });
        expect(await limiter.hit('exact', 1)).toMatchObject({ remaining: 0, limited: true });
        expect(await limiter.hit('over', 11)).toMatchObject({ remaining: 0, limited: true });
      } finally {
        void storage.onModuleDestroy();
      }
    });

    it("counts each client's requests apart", async () => {
      const { limiter, storage } = limiterOf();
      try {
        await limiter.hit('198.51.100.7', 9);
        expect(await limiter.hit('203.0.113.7', 2)).toMatchObject({ remaining: 8, limited: false });
        expect(await limiter.hit('198.51.100.7', 2)).toMatchObject({ remaining: 0, limited: true });
      } finally {
        void storage.onModuleDestroy();
      }
    });

    it("hands n to the storage in one call, under the throttler's name and window", async () => {
      const { limiter, storage } = limiterOf();
      const increment = jest.spyOn(storage, 'increment');
      try {
        await limiter.hit('client', 7);
        expect(increment).toHaveBeenCalledTimes(1);
        expect(increment).toHaveBeenCalledWith('client', 60_000, 10, 60_000, 'default', 7);
      } finally {
        void storage.onModuleDestroy();
      }
    });
  });
});
