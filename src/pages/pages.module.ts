import { Module } from '@nestjs/common';
import { ERROR_PAGES } from '../common/errors/error-pages.js';
import { HttpCommonModule } from '../common/http/http-common.module.js';
import { CostsModule } from '../costs/costs.module.js';
import { PlansModule } from '../plans/plans.module.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { UseCasesModule } from '../use-cases/use-cases.module.js';
import { PagesController } from './pages.controller.js';
import { PagesService } from './pages.service.js';

/** HTML and markdown pages and llms.txt; it also gives the error filter its error pages (ERROR_PAGES). */
@Module({
  imports: [HttpCommonModule, ProvidersModule, PlansModule, UseCasesModule, CostsModule],
  controllers: [PagesController],
  providers: [PagesService, { provide: ERROR_PAGES, useExisting: PagesService }],
  exports: [ERROR_PAGES],
})
export class PagesModule {}
