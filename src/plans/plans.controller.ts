import { Controller, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import { DocumentResponder } from '../common/http/document-responder.js';
import { PlanTable } from './dto/plan-table.dto.js';
import { PlanTableService } from './plan-table.service.js';

@ApiTags(ApiTag.Plans)
@Controller()
export class PlansController {
  constructor(
    private readonly table: PlanTableService,
    private readonly responder: DocumentResponder,
  ) {}

  @ApiEndpoint(API_OPERATIONS.listPlans, PlanTable)
  listPlans(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.table.json());
  }

  @ApiEndpoint(API_OPERATIONS.downloadPlansCsv, undefined, {
    produces: { mediaType: 'text/csv', description: 'The rows of `listPlans` as RFC 4180 CSV with a header row, offered as `vpsapi-plans-<version>.csv`.' },
  })
  downloadPlansCsv(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.table.csv());
  }
}
