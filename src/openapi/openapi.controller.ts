import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Sendable } from '../common/http/sendable.js';
import { OpenApiService } from './openapi.service.js';

/** Serves the OpenAPI 3.1 contract. */
@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(private readonly openApi: OpenApiService) {}

  @Get('openapi.json')
  getOpenApi(): Sendable {
    return this.openApi.document();
  }
}
