import { Module } from '@nestjs/common';
import { GuidesController } from './guides.controller.js';
import { GuidesService } from './guides.service.js';

@Module({ controllers: [GuidesController], providers: [GuidesService], exports: [GuidesService] })
export class GuidesModule {}
