import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { ReadinessIndicator } from './readiness.indicator.js';
import { AvailabilityModule } from '../common/availability/availability.module.js';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module.js';

@Module({
  imports: [AvailabilityModule, RateLimitModule, TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [ReadinessIndicator],
})
export class HealthModule {}
