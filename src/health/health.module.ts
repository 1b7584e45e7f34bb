import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { ReadinessIndicator } from './readiness.indicator.js';

@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController], providers: [ReadinessIndicator] })
export class HealthModule {}
