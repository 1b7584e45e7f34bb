import { Module } from '@nestjs/common';
import { ApiIndexController } from './api-index.controller.js';
import { ApiIndexService } from './api-index.service.js';
import { HttpCommonModule } from '../common/http/http-common.module.js';

@Module({ imports: [HttpCommonModule], controllers: [ApiIndexController], providers: [ApiIndexService] })
export class ApiIndexModule {}
