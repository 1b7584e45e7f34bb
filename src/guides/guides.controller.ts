import { Controller, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import { DocumentResponder } from '../common/http/document-responder.js';
import { GuideList } from './dto/guide-list.dto.js';
import { GuidesService } from './guides.service.js';

@ApiTags(ApiTag.Guides)
@Controller()
export class GuidesController {
  constructor(
    private readonly guides: GuidesService,
    private readonly responder: DocumentResponder,
  ) {}

  @ApiEndpoint(API_OPERATIONS.listGuides, GuideList)
  listGuides(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.guides.list());
  }
}
