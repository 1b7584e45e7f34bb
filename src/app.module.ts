import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ApiIndexModule } from './api-index/api-index.module.js';
import { ChangesModule } from './changes/changes.module.js';
import { ErrorResponseFilter } from './common/filters/error-response.filter.js';
import { HttpCommonModule } from './common/http/http-common.module.js';
import { Refusals } from './common/http/refusals.js';
import { ProblemRenderer } from './common/errors/problem-renderer.js';
import { AvailabilityModule } from './common/availability/availability.module.js';
import { RateLimitModule } from './common/rate-limit/rate-limit.module.js';
import { ReadOnlyApiMiddleware } from './common/middleware/read-only-api.middleware.js';
import type { AppConfig } from './config/app-config.js';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { HealthModule } from './health/health.module.js';
import { GracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { APP_LOGGER } from './observability/logger.js';
import { ObservabilityModule } from './observability/observability.module.js';
import { ConfigModule } from './config/config.module.js';
import { DatasetModule } from './dataset/dataset.module.js';
import { DocsModule } from './docs/docs.module.js';
import { GuidesModule } from './guides/guides.module.js';
import { McpModule } from './mcp/mcp.module.js';
import { PagesModule } from './pages/pages.module.js';
import { PlansModule } from './plans/plans.module.js';
import { OpenApiModule } from './openapi/openapi.module.js';
import { ProvidersModule } from './providers/providers.module.js';
import { UseCasesModule } from './use-cases/use-cases.module.js';

@Module({})
export class AppModule implements NestModule {
  /** The whole application for one configuration. */
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // Nest's own logs go through the same pino logger; the access log is written by createApp's
        // request observer, so nestjs-pino adds no HTTP middleware (useExisting).
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
        ObservabilityModule,
        DatasetModule,
        AvailabilityModule,
        RateLimitModule,
        HttpCommonModule,
        ApiIndexModule,
        ProvidersModule,
        PlansModule,
        GuidesModule,
        UseCasesModule,
        ChangesModule,
        OpenApiModule,
        DocsModule,
        McpModule,
        PagesModule,
        HealthModule,
      ],
      providers: [
        { provide: APP_LOGGER, useValue: logger },
        // The error filter and the front door's precomputed refusals render errors the same way; both
        // live here, where the site's error pages (ERROR_PAGES) are in scope.
        ProblemRenderer,
        Refusals,
        { provide: APP_FILTER, useClass: ErrorResponseFilter },
        GracefulShutdown,
      ],
    };
  }

  /** Step 5 of the request pipeline (request-pipeline.ts): every request the front door let through, matched route or not. */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ReadOnlyApiMiddleware).forRoutes('*');
  }
}
