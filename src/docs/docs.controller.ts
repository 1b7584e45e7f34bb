import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DocumentResponder } from '../common/http/document-responder.js';
import { routeNotFoundError } from '../common/errors/route-not-found.js';
import { SwaggerUiService } from './swagger-ui.service.js';

/** Swagger UI for the OpenAPI contract. */
@ApiExcludeController()
@Controller('docs')
export class DocsController {
  constructor(
    private readonly swaggerUi: SwaggerUiService,
    private readonly responder: DocumentResponder,
  ) {}

  @Get()
  page(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.swaggerUi.page);
  }

  @Get(':file')
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    const asset = this.swaggerUi.asset(file);
    if (!asset) throw routeNotFoundError();
    this.responder.sendRemembered(req, res, asset);
  }
}
