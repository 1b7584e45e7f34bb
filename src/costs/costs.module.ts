import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module.js';
import { CostEstimator } from './cost-estimator.service.js';

/** Monthly bills with add-ons and tax, for the MCP tools and the pages. */
@Module({ imports: [PlansModule], providers: [CostEstimator], exports: [CostEstimator] })
export class CostsModule {}
