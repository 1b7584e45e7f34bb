import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import { DocumentResponder } from '../common/http/document-responder.js';
import { ChangesService } from './changes.service.js';
import { ChangeList } from './dto/change-list.dto.js';

@ApiTags(ApiTag.Changes)
@Controller()
export class ChangesController {
  constructor(
    private readonly changes: ChangesService,
    private readonly responder: DocumentResponder,
  ) {}

  @ApiEndpoint(API_OPERATIONS.listDatasetChanges, ChangeList)
  listDatasetChanges(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.changes.json());
  }

  /** The same releases as an Atom feed, for feed readers (a site document, not part of the JSON API). */
  @Get('changes.atom')
  @ApiExcludeEndpoint()
  changesFeed(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.changes.atom());
  }
}
