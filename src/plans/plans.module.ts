import { Module } from '@nestjs/common';
import { HttpCommonModule } from '../common/http/http-common.module.js';
import { PlanTableService } from './plan-table.service.js';
import { PlansController } from './plans.controller.js';
import { PlansService } from './plans.service.js';
import { EquivalentPlansService } from './equivalent-plans.service.js';

/** The flat plan table (plans.json) and plan search across providers (find_vps_plans). */
@Module({
  imports: [HttpCommonModule],
  controllers: [PlansController],
  providers: [PlanTableService, PlansService, EquivalentPlansService],
  exports: [PlanTableService, PlansService, EquivalentPlansService],
})
export class PlansModule {}
