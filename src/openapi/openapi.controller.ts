import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DocumentResponder } from '../common/http/document-responder.js';
import { OpenApiService } from './openapi.service.js';

/** Serves the OpenAPI 3.1 contract. */
@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(
    private readonly openApi: OpenApiService,
    private readonly responder: DocumentResponder,
  ) {}

  @Get('openapi.json')
  getOpenApi(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.openApi.document());
  }
}
