import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller.js';
import { SwaggerUiService } from './swagger-ui.service.js';
import { HttpCommonModule } from '../common/http/http-common.module.js';

@Module({ imports: [HttpCommonModule], controllers: [DocsController], providers: [SwaggerUiService] })
export class DocsModule {}
