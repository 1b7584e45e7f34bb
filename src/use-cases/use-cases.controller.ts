import { Controller, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import { DocumentResponder } from '../common/http/document-responder.js';
import { UseCaseList } from './dto/use-case-list.dto.js';
import { UseCasesService } from './use-cases.service.js';

@ApiTags(ApiTag.UseCases)
@Controller()
export class UseCasesController {
  constructor(
    private readonly useCases: UseCasesService,
    private readonly responder: DocumentResponder,
  ) {}

  @ApiEndpoint(API_OPERATIONS.listUseCases, UseCaseList)
  listUseCases(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.useCases.list());
  }
}
