import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { AppConfig } from '../../config/app-config';
import type { MetricsService } from '../../observability/metrics.service';
import { RateLimitStorage } from './rate-limit-storage';

/** A stand-in for Redis the test switches between answering, failing and disconnected. */
class FakeShared {
  static last: FakeShared;
  readonly client = new EventEmitter();
  ready = true;
  failing = false;
  hits = 0;
  closed = false;
  constructor(
    readonly url: string,
    readonly options: { onError?: (error: Error) => void },
  ) {
    FakeShared.last = this;
  }
  async increment() {
    if (this.failing) throw new Error('Command timed out');
    this.hits += 1;
    return { totalHits: this.hits, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 };
  }
  async close() {
    this.closed = true;
  }
}

jest.mock('./redis-counter.storage', () => ({
  RedisCounterStorage: jest.fn((url: string, options: object) => new FakeShared(url, options)),
}));

const redisConfig = { rateLimit: { store: 'redis', redisUrl: 'redis://127.0.0.1:6379' } } as unknown as AppConfig;

/** The metrics the storage pushes to, counted. */
const pushed = { storeErrors: 0, fellBack: 0 };
const metrics = {
  rateLimitStoreError: () => void (pushed.storeErrors += 1),
  rateLimitFellBack: () => void (pushed.fellBack += 1),
} as unknown as MetricsService;
const hit = (storage: RateLimitStorage, client = 'c') => storage.increment(client, 60_000, 600, 60_000, 'default');

describe(RateLimitStorage.name, () => {
  let warn: jest.SpyInstance;
  let log: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    pushed.storeErrors = 0;
    pushed.fellBack = 0;
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('counts in this process when no shared store is configured, and never calls that a fallback', async () => {
    const storage = new RateLimitStorage({ rateLimit: { store: 'memory' } } as unknown as AppConfig, metrics);
    expect(storage.mode).toBe('local');
    expect(await hit(storage)).toMatchObject({ totalHits: 1 });
    expect(await hit(storage)).toMatchObject({ totalHits: 2 });
    expect([pushed.fellBack, pushed.storeErrors]).toEqual([0, 0]);
    await storage.onModuleDestroy();
  });

  it('uses Redis only when chosen and given a URL', () => {
    expect(new RateLimitStorage({ rateLimit: { store: 'redis' } } as unknown as AppConfig, metrics).mode).toBe('local');
    expect(
      new RateLimitStorage(
        { rateLimit: { store: 'memory', redisUrl: 'redis://127.0.0.1:6379' } } as unknown as AppConfig,
        metrics,
      ).mode,
    ).toBe('local');
  });

  it('counts in Redis while it answers: no local answer, no fallback', async () => {
    const storage = new RateLimitStorage(redisConfig, metrics);
    expect(FakeShared.last.url).toBe('redis://127.0.0.1:6379');
    expect(storage.mode).toBe('shared');
    expect(await hit(storage)).toMatchObject({ totalHits: 1 });
    expect(await hit(storage)).toMatchObject({ totalHits: 2 });
    expect([FakeShared.last.hits, pushed.fellBack]).toEqual([2, 0]);
  });

  it('counts locally while Redis is disconnected, counting each such request as a fallback', async () => {
    const storage = new RateLimitStorage(redisConfig, metrics);
    FakeShared.last.ready = false;
    expect(storage.mode).toBe('local-fallback');
    expect(await hit(storage)).toMatchObject({ totalHits: 1 });
    expect(await hit(storage)).toMatchObject({ totalHits: 2 });
    expect([FakeShared.last.hits, pushed.fellBack, pushed.storeErrors]).toEqual([0, 2, 0]);
  });

  it('falls back on a failed call, leaves Redis alone for a second, then tries it again and reports it back', async () => {
    const storage = new RateLimitStorage(redisConfig, metrics);
    const shared = FakeShared.last;
    shared.failing = true;
    expect(await hit(storage)).toMatchObject({ totalHits: 1 });
    expect([pushed.storeErrors, pushed.fellBack, storage.mode]).toEqual([1, 1, 'local-fallback']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('Command timed out');
    // Under its own name in the logs, where operators look for it.
    expect(warn.mock.contexts[0]).toMatchObject({ context: 'RateLimit' });

    shared.failing = false;
    jest.advanceTimersByTime(999);
    expect(await hit(storage)).toMatchObject({ totalHits: 2 });
    expect(await hit(storage)).toMatchObject({ totalHits: 3 });
    expect(shared.hits).toBe(0);

    jest.advanceTimersByTime(1);
    expect(await hit(storage)).toMatchObject({ totalHits: 1 });
    expect([shared.hits, pushed.fellBack, storage.mode]).toEqual([1, 3, 'shared']);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toContain('back');
  });

  it('logs an outage at most once per 30 seconds, and again after a recovery', async () => {
    const storage = new RateLimitStorage(redisConfig, metrics);
    const shared = FakeShared.last;
    shared.failing = true;
    for (let i = 0; i < 3; i++) {
      await hit(storage);
      jest.advanceTimersByTime(1000);
    }
    expect([pushed.storeErrors, warn.mock.calls.length]).toEqual([3, 1]);
    jest.advanceTimersByTime(27_000);
    await hit(storage);
    expect(warn).toHaveBeenCalledTimes(2);

    shared.options.onError?.(new Error('ECONNREFUSED'));
    expect([pushed.storeErrors, warn.mock.calls.length]).toEqual([5, 2]);
    shared.client.emit('ready');
    expect(storage.mode).toBe('shared');
    expect(log).toHaveBeenCalledTimes(1);
    shared.client.emit('ready');
    expect(log).toHaveBeenCalledTimes(1);
    shared.options.onError?.(new Error('ECONNREFUSED'));
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('closes both stores on shutdown', async () => {
    const storage = new RateLimitStorage(redisConfig, metrics);
    FakeShared.last.ready = false;
    await hit(storage);
    expect(jest.getTimerCount()).toBe(1);
    await storage.onModuleDestroy();
    expect(FakeShared.last.closed).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });
});
