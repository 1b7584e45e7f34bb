import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiIndexModule } from './api-index/api-index.module.js';
import { ChangesModule } from './changes/changes.module.js';
import { ErrorResponseFilter } from './common/filters/error-response.filter.js';
import { HttpCommonModule } from './common/http/http-common.module.js';
import { ProblemRenderer } from './common/errors/problem-renderer.js';
import { AvailabilityModule } from './common/availability/availability.module.js';
import { RateLimitModule } from './common/rate-limit/rate-limit.module.js';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard.js';
import { ResponseInterceptor } from './common/http/response.interceptor.js';
import { MalformedRequestAnswer } from './common/http/malformed-request.js';
import { FallbackModule } from './common/fallback/fallback.module.js';
import type { AppConfig } from './config/app-config.js';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { HealthModule } from './health/health.module.js';
import { GracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { APP_LOGGER, type LogOutput } from './observability/logger.js';
import { RequestObserverMiddleware } from './observability/request-observer.middleware.js';
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

/**
 * The whole application. Every step a request passes, in order (docs/architecture.md draws the same
 * picture):
 *
 * 1. Node's HTTP parser; a request it refuses is answered by MalformedRequestAnswer (400/408/431), the
 *    only answer written outside Nest, because Node hands Nest no request for it. A target Express
 *    cannot route is marked malformed first (request-pipeline.ts).
 * 2. Express, then Nest's middleware (RequestObserverMiddleware): pino-http's access line, with the request
 *    id, and the request's metrics sample, both written when the answer is finished.
 * 3. The router; the catch-all FallbackController makes every path a route.
 * 4. RateLimitGuard (APP_GUARD, @nestjs/throttler): counts the request; over the limit, 429.
 *    McpAccessGuard on /mcp: Host and Origin.
 * 5. ResponseInterceptor (APP_INTERCEPTOR): the common headers, then 400, 301 to HTTPS, 503, or the
 *    CORS preflight; otherwise on to the handler, and the precomputed document it returns becomes the
 *    answer (DocumentAnswers: content coding, ETag, 304, HEAD); Nest writes it.
 * 6. ErrorResponseFilter (APP_FILTER): every error becomes the envelope, a JSON-RPC error on /mcp, or
 *    an error page, with the common headers.
 */
@Module({})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestObserverMiddleware).forRoutes({ path: '/{*splat}', method: RequestMethod.ALL });
  }

  /** The whole application for one configuration; `output` is the logger's standard output, if it writes there. */
  static forRoot(config: AppConfig, logger: Logger, output?: LogOutput): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // Nest's own logs go through the same pino logger as the access log (RequestObserverMiddleware), which
        // is applied below: nestjs-pino adds no HTTP middleware of its own (useExisting).
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
        ObservabilityModule.forRoot(output),
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
        // The error filter and the parser-level refusals render errors the same way; they live here,
        // where the site's error pages (ERROR_PAGES) are in scope.
        ProblemRenderer,
        MalformedRequestAnswer,
        RequestObserverMiddleware,
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_INTERCEPTOR, useClass: ResponseInterceptor },
        { provide: APP_FILTER, useClass: ErrorResponseFilter },
        GracefulShutdown,
      ],
    };
  }
}
