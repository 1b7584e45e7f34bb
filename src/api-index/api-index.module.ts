import { Module } from '@nestjs/common';
import { ApiIndexController } from './api-index.controller.js';
import { ApiIndexService } from './api-index.service.js';

@Module({ controllers: [ApiIndexController], providers: [ApiIndexService] })
export class ApiIndexModule {}
