import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller.js';
import { OpenApiService } from './openapi.service.js';
import { HttpCommonModule } from '../common/http/http-common.module.js';

@Module({
  imports: [HttpCommonModule],
  controllers: [OpenApiController],
  providers: [OpenApiService],
  exports: [OpenApiService],
})
export class OpenApiModule {}
