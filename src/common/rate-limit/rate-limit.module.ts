import { Module } from '@nestjs/common';
import { seconds, ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config.js';
import { RateLimiter } from './rate-limiter.js';
import { RateLimitStorage } from './rate-limit-storage.js';

@Module({ providers: [RateLimitStorage], exports: [RateLimitStorage] })
class RateLimitStorageModule {}

/**
 * @nestjs/throttler holds the limit (from RATE_LIMIT_REQUESTS / RATE_LIMIT_WINDOW_SECONDS) and the
 * storage; the RateLimiter applies it in the front door rather than in a ThrottlerGuard, because guards
 * only run for matched routes and never see errors raised before them.
 */
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [AppConfig, RateLimitStorage],
      useFactory: (config: AppConfig, storage: RateLimitStorage) => ({
        throttlers: [{ name: 'default', limit: config.rateLimit.requests, ttl: seconds(config.rateLimit.windowSeconds) }],
        storage,
      }),
    }),
  ],
  providers: [RateLimiter],
  exports: [RateLimiter, RateLimitStorageModule],
})
export class RateLimitModule {}
