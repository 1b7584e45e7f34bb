import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller.js';
import { SwaggerUiService } from './swagger-ui.service.js';

@Module({ controllers: [DocsController], providers: [SwaggerUiService] })
export class DocsModule {}
