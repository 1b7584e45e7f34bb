import { Module } from '@nestjs/common';
import { ChangesModule } from '../changes/changes.module.js';
import { CostsModule } from '../costs/costs.module.js';
import { FiltersModule } from '../filters/filters.module.js';
import { GuidesModule } from '../guides/guides.module.js';
import { PlansModule } from '../plans/plans.module.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { UseCasesModule } from '../use-cases/use-cases.module.js';
import { McpAccessGuard } from './mcp-access.guard.js';
import { McpHttpController } from './mcp-http.controller.js';
import { McpAnswers } from './mcp-answers.js';
import { McpCallLanes } from './mcp-call-lanes.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { McpTransportRules } from './mcp-transport-rules.js';
import { ServerCardController } from './server-card.controller.js';
import { ServerCardService } from './server-card.service.js';
import { HttpCommonModule } from '../common/http/http-common.module.js';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module.js';

/** The Model Context Protocol server: the tools and two resource templates over the same services as the HTTP API. */
@Module({
  imports: [
    HttpCommonModule,
    RateLimitModule,
    ProvidersModule,
    PlansModule,
    UseCasesModule,
    GuidesModule,
    ChangesModule,
    CostsModule,
    FiltersModule,
  ],
  controllers: [ServerCardController, McpHttpController],
  providers: [McpServerFactory, McpTransportRules, McpAnswers, McpCallLanes, McpAccessGuard, ServerCardService],
})
export class McpModule {}
