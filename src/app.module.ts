import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiIndexModule } from './api-index/api-index.module.js';
import { ChangesModule } from './changes/changes.module.js';
import { ErrorResponseFilter } from './common/filters/error-response.filter.js';
import { HttpCommonModule } from './common/http/http-common.module.js';
import { Refusals } from './common/http/refusals.js';
import { ProblemRenderer } from './common/errors/problem-renderer.js';
import { AvailabilityModule } from './common/availability/availability.module.js';
import { RateLimitModule } from './common/rate-limit/rate-limit.module.js';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard.js';
import { AdmissionInterceptor } from './common/http/admission.interceptor.js';
import { FrontDoor } from './common/http/front-door.js';
import { MalformedRequestAnswer } from './common/http/malformed-request.js';
import { FallbackModule } from './common/fallback/fallback.module.js';
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
export class AppModule {
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
        // Last: its catch-all route is registered after every other route, so it shadows none.
        FallbackModule,
      ],
      providers: [
        { provide: APP_LOGGER, useValue: logger },
        // The error filter, the replay cache's refusals and the parser-level refusals render errors the
        // same way; they live here, where the site's error pages (ERROR_PAGES) are in scope.
        ProblemRenderer,
        Refusals,
        MalformedRequestAnswer,
        FrontDoor,
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_INTERCEPTOR, useClass: AdmissionInterceptor },
        { provide: APP_FILTER, useClass: ErrorResponseFilter },
        GracefulShutdown,
      ],
    };
  }
}
