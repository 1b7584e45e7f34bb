import { Redis } from 'ioredis';
import { once } from 'node:events';
import { RedisServer } from './support/redis-server';
import { RedisCounterStorage } from '../src/common/rate-limit/redis-counter.storage';

/** Against a real redis-server: the hit script's counting and expiry are Redis's behaviour, not a mock's. */
describe(RedisCounterStorage.name, () => {
  let redis: RedisServer;
  let storage: RedisCounterStorage;
  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    storage = new RedisCounterStorage(redis.url);
    if (!storage.ready) await once(storage.client, 'ready');
  });
  afterEach(() => storage.close());

  it('counts hits per throttler and key in one window that ends with the key', async () => {
    expect(storage.ready).toBe(true);
    const key = `count-${Date.now()}`;
    expect(await storage.increment(key, 60_000, 2, 60_000, 'default')).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await storage.increment(key, 60_000, 2, 60_000, 'default')).toEqual({
      totalHits: 2,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await storage.increment(key, 60_000, 2, 60_000, 'default')).toEqual({
      totalHits: 3,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 60,
    });
    expect(await storage.increment(key, 60_000, 2, 60_000, 'other')).toMatchObject({ totalHits: 1 });
    // The window is set once, by the first hit, on a key in the service's own namespace of a shared Redis.
    const raw = new Redis(redis.url);
    try {
      const ttl = await raw.pttl(`vpsapi:rl:default:${key}`);
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      raw.disconnect();
    }
  });

  it('starts a new window once the key has expired, and never reports less than one second', async () => {
    const key = `expiry-${Date.now()}`;
    expect(await storage.increment(key, 300, 5, 300, 'default')).toMatchObject({ totalHits: 1, timeToExpire: 1 });
    // Wait for Redis itself to drop the key (the state the next window starts from), not for a guessed delay.
    while ((await storage.client.exists(`default:${key}`)) === 1) await new Promise((r) => setTimeout(r, 50));
    expect(await storage.increment(key, 300, 5, 300, 'default')).toMatchObject({ totalHits: 1 });
  });

  it('refuses a command at once while disconnected, and reports the connection errors', async () => {
    const errors: Error[] = [];
    const unreachable = new RedisCounterStorage('redis://127.0.0.1:1', { onError: (e) => errors.push(e) });
    try {
      expect(unreachable.ready).toBe(false);
      await expect(unreachable.increment('k', 1000, 1, 1000, 'default')).rejects.toThrow();
      while (errors.length === 0) await new Promise((r) => setTimeout(r, 20));
      expect(errors[0].message).toMatch(/ECONNREFUSED/);
    } finally {
      await unreachable.close();
    }
  });

  it('survives connection errors when nobody listens for them (an unhandled error event would crash the process)', async () => {
    const quiet = new RedisCounterStorage('redis://127.0.0.1:1');
    try {
      const failed = new Promise<Error>((resolve) => quiet.client.once('error', resolve));
      expect((await failed).message).toMatch(/ECONNREFUSED/);
    } finally {
      await quiet.close();
    }
  });

  it('disconnects on close', async () => {
    const ended = once(storage.client, 'end');
    await storage.close();
    await ended;
    expect(storage.ready).toBe(false);
  });

  describe('against a Redis that asks for a password (requirepass, as in the Kubernetes base)', () => {
    const password = 'a-password-from-a-secret';
    let guarded: RedisServer;
    beforeAll(async () => {
      guarded = await RedisServer.start(password);
    });
    afterAll(() => guarded.stop());

    it('counts with the password given apart from the URL (REDIS_PASSWORD)', async () => {
      const authed = new RedisCounterStorage(guarded.url, { password });
      try {
        if (!authed.ready) await once(authed.client, 'ready');
        expect((await authed.increment('k', 60_000, 5, 60_000, 'default')).totalHits).toBe(1);
      } finally {
        await authed.close();
      }
    });

    it('is refused without it', async () => {
      const errors: Error[] = [];
      const anonymous = new RedisCounterStorage(guarded.url, { onError: (e) => errors.push(e) });
      try {
        while (errors.length === 0) await new Promise((r) => setTimeout(r, 20));
        expect(errors[0].message).toMatch(/NOAUTH/);
      } finally {
        await anonymous.close();
      }
    });
  });
});
