import type request from 'supertest';
import { RedisServer } from './support/redis-server';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Two instances of the service on one real redis-server: one limit across replicas, and no error
 * or stall when Redis goes away. Clients are told apart through a trusted proxy header so that each
 * test uses fresh counters.
 */
describe('rate limiting shared through Redis', () => {
  let redis: RedisServer;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    redis = await RedisServer.start();
    const env = { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, TRUST_PROXY: 'loopback' };
    [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  const from = (app: TestApp, client: string) =>
    app.http.get('/api/providers/vultr.json').set('X-Forwarded-For', client);

  it('enforces one combined limit: 600 spread over both instances pass, the 601st is refused by either', async () => {
    const client = '203.0.113.50';
    const remaining: number[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => from(i % 2 ? a : b, client)));
      for (const res of answers) {
        expect(res.status).toBe(200);
        remaining.push(Number(res.headers['ratelimit-remaining']));
      }
    }
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    for (const app of [a, b]) {
      const res = await from(app, client);
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });

  it('keeps serving when Redis stops, without 5xx or stalls, and shares the limit again when it returns', async () => {
    const statuses: number[] = [];
    const outageMs: number[] = [];
    let redisDown = false;
    const send = async (app: TestApp, client: string): Promise<request.Response> => {
      const started = Date.now();
      const res = await from(app, client);
      if (redisDown) outageMs.push(Date.now() - started);
      statuses.push(res.status);
      expect(res.headers['ratelimit-limit']).toBe('600');
      return res;
    };

    await send(a, '203.0.113.60');
    await redis.stop();
    redisDown = true;
    for (let i = 0; i < 40; i++) await send(i % 2 ? a : b, '203.0.113.61');
    // Each instance now counts on its own: the two counters are independent.
    const [onA, onB] = [await send(a, '203.0.113.62'), await send(b, '203.0.113.62')];
    expect(onA.headers['ratelimit-remaining']).toBe('599');
    expect(onB.headers['ratelimit-remaining']).toBe('599');

    redisDown = false;
    await redis.start();
    // The clients reconnect in the background (retry every second at most).
    const deadline = Date.now() + 10_000;
    let shared = false;
    let n = 0;
    while (!shared && Date.now() < deadline) {
      const client = `203.0.114.${n++}`;
      const first = await send(a, client);
      const second = await send(b, client);
      shared = first.headers['ratelimit-remaining'] === '599' && second.headers['ratelimit-remaining'] === '598';
      if (!shared) await new Promise((r) => setTimeout(r, 200));
    }
    expect(shared).toBe(true);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // No request waited on the dead store. A request queued for Redis would wait for it to return, which
    // happens only after these 42 requests were answered: the test would hang. One that waited for a
    // command or connect timeout (200 ms, 1 s) would take at least that long, every time; the median
    // shows that, while a single request delayed by two busy shared cores does not move it.
    expect(outageMs).toHaveLength(42);
    const median = [...outageMs].sort((x, y) => x - y)[outageMs.length / 2];
    expect(median).toBeLessThan(150);
  }, 30_000);
});

describe('Redis flapping during traffic', () => {
  it('answers every request (no 5xx, no stall) while Redis goes down and up again and again', async () => {
    const redis = await RedisServer.start();
    const env = { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, TRUST_PROXY: 'loopback' };
    const [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
    try {
      let running = true;
      const statuses: number[] = [];
      let slowest = 0;
      const clients = [a, b, a, b].map(async (app, c) => {
        let n = 0;
        while (running) {
          const started = Date.now();
          const res = await app.http.get('/api/index.json').set('X-Forwarded-For', `198.18.${c}.${n++ % 200}`);
          slowest = Math.max(slowest, Date.now() - started);
          statuses.push(res.status);
        }
      });
      for (let flap = 0; flap < 3; flap++) {
        await new Promise((r) => setTimeout(r, 400));
        await redis.stop();
        await new Promise((r) => setTimeout(r, 400));
        await redis.start();
      }
      await new Promise((r) => setTimeout(r, 1500));
      running = false;
      await Promise.all(clients);
      expect(statuses.length).toBeGreaterThan(100);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(slowest).toBeLessThan(1000);
      // And the limit is shared again: two instances count one client together.
      const first = await a.http.get('/api/index.json').set('X-Forwarded-For', '198.19.0.1');
      const second = await b.http.get('/api/index.json').set('X-Forwarded-For', '198.19.0.1');
      expect([first.headers['ratelimit-remaining'], second.headers['ratelimit-remaining']]).toEqual(['599', '598']);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await redis.stop();
    }
  }, 60_000);
});
