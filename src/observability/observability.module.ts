import { type DynamicModule, Global, Module } from '@nestjs/common';
import { LOG_OUTPUT, type LogOutput } from './logger.js';
import { MetricsService } from './metrics.service.js';

// Global: metrics and logs are written from every layer (the dataset, the rate-limit store, the MCP tools).
@Global()
@Module({})
export class ObservabilityModule {
  /** `output`: the logger's standard output, whose dropped bytes the metrics report. */
  static forRoot(output?: LogOutput): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [MetricsService, { provide: LOG_OUTPUT, useValue: output }],
      exports: [MetricsService],
    };
  }
}
