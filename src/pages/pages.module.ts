import { Global, Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { UseCasesModule } from '../use-cases/use-cases.module.js';
import { PagesController } from './pages.controller.js';
import { PagesService } from './pages.service.js';

/** HTML and markdown pages, llms.txt; global so the error filter can render the 404 page. */
@Global()
@Module({ imports: [ProvidersModule, PlansModule, UseCasesModule], controllers: [PagesController], providers: [PagesService], exports: [PagesService] })
export class PagesModule {}
