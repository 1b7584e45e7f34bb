import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module.js';
import { UseCasesController } from './use-cases.controller.js';
import { UseCasesService } from './use-cases.service.js';
import { HttpCommonModule } from '../common/http/http-common.module.js';

@Module({
  imports: [HttpCommonModule, PlansModule],
  controllers: [UseCasesController],
  providers: [UseCasesService],
  exports: [UseCasesService],
})
export class UseCasesModule {}
