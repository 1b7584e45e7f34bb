import { Module } from '@nestjs/common';
import { seconds, ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config.js';
import { RateLimiter } from './rate-limiter.js';
import { RateLimitStorage } from './rate-limit-storage.js';

@Module({ providers: [RateLimitStorage], exports: [RateLimitStorage] })
class RateLimitStorageModule {}

/**
 * @nestjs/throttler holds the limit (from RATE_LIMIT_REQUESTS / RATE_LIMIT_WINDOW_SECONDS) and the
 * storage (memory, or Redis shared by the replicas, failing open). RateLimitGuard (registered as
 * APP_GUARD by AppModule) enforces it; RateLimiter counts, through the same storage, the requests the
 * guard cannot see (docs/architecture.md names them). The RateLimit-* headers are written by
 * CommonHeaders, for the interceptor and the filter.
 */
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [AppConfig, RateLimitStorage],
      useFactory: (config: AppConfig, storage: RateLimitStorage) => ({
        throttlers: [
          { name: 'default', limit: config.rateLimit.requests, ttl: seconds(config.rateLimit.windowSeconds) },
        ],
        storage,
        // The guard records the count the library reports through its header hook (RateLimitGuard).
        setHeaders: true,
      }),
    }),
  ],
  providers: [RateLimiter],
  exports: [RateLimiter, RateLimitStorageModule],
})
export class RateLimitModule {}
