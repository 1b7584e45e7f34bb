import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from './storage-record.js';
import { Redis } from 'ioredis';

/**
 * One atomic step per request (ARGV[2] hits: one, or the further calls of an MCP batch): count and
 * start the window on the first one. A fixed window
 * whose key expires with the window, so a client over the limit passes again as soon as it resets.
 */
const HIT_SCRIPT = `
local hits = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { hits, ttl }
`;

type RedisWithHit = Redis & { rateLimitHit(key: string, ttlMs: number, hits: number): Promise<[number, number]> };

/**
 * Fixed-window counters in Redis, shared by every replica. The client fails fast: no offline queue
 * (a command while disconnected is refused at once), no retry of a sent command (it may already have
 * counted), short connect and command timeouts. It keeps reconnecting in the background.
 */
export class RedisCounterStorage implements ThrottlerStorage {
  readonly client: RedisWithHit;

  constructor(
    url: string,
    options: { password?: string; commandTimeoutMs?: number; onError?: (error: Error) => void } = {},
  ) {
    this.client = new Redis(url, {
      ...(options.password !== undefined && { password: options.password }),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: options.commandTimeoutMs ?? 200,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      keyPrefix: 'vpsapi:rl:',
    }) as RedisWithHit;
    this.client.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // An unhandled 'error' event would crash the process; outages are reported by the caller.
    this.client.on('error', (error: Error) => options.onError?.(error));
  }

  /** True while commands can be sent now. */
  get ready(): boolean {
    return this.client.status === 'ready';
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
    count = 1,
  ): Promise<ThrottlerStorageRecord> {
    const [hits, ttlMs] = await this.client.rateLimitHit(`${throttlerName}:${key}`, ttl, count);
    const timeToExpire = Math.max(1, Math.ceil(ttlMs / 1000));
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
  }

  async close(): Promise<void> {
    this.client.disconnect(false);
  }
}
