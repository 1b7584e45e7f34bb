import { Controller, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiEndpoint } from './api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import { DocumentResponder } from '../common/http/document-responder.js';
import { ApiIndexService } from './api-index.service.js';
import { API_OPERATIONS } from './api-operations.js';
import { ApiIndex } from './dto/api-index.dto.js';

@ApiTags(ApiTag.Index)
@Controller()
export class ApiIndexController {
  constructor(
    private readonly apiIndex: ApiIndexService,
    private readonly responder: DocumentResponder,
  ) {}

  @ApiEndpoint(API_OPERATIONS.getApiIndex, ApiIndex)
  getApiIndex(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.apiIndex.index());
  }
}
