import { Controller, Get, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Sendable } from '../common/http/sendable.js';
import { routeNotFoundError } from '../common/errors/route-not-found.js';
import { SwaggerUiService } from './swagger-ui.service.js';

/** Swagger UI for the OpenAPI contract. */
@ApiExcludeController()
@Controller('docs')
export class DocsController {
  constructor(private readonly swaggerUi: SwaggerUiService) {}

  @Get()
  page(): Sendable {
    return this.swaggerUi.page;
  }

  @Get(':file')
  asset(@Param('file') file: string): Sendable {
    const asset = this.swaggerUi.asset(file);
    if (!asset) throw routeNotFoundError();
    return asset;
  }
}
