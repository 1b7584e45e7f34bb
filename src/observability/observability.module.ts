import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service.js';

// Global: metrics and logs are written from every layer (the dataset, the rate-limit store, the MCP tools).
@Global()
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class ObservabilityModule {}
