import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module.js';
import { UseCasesController } from './use-cases.controller.js';
import { UseCasesService } from './use-cases.service.js';

@Module({ imports: [PlansModule], controllers: [UseCasesController], providers: [UseCasesService], exports: [UseCasesService] })
export class UseCasesModule {}
