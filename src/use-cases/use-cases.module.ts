import { Module } from '@nestjs/common';
import { UseCasesController } from './use-cases.controller.js';
import { UseCasesService } from './use-cases.service.js';

@Module({ controllers: [UseCasesController], providers: [UseCasesService], exports: [UseCasesService] })
export class UseCasesModule {}
