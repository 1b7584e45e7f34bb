import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import type { Sendable } from '../common/http/sendable.js';
import { PlanTable } from './dto/plan-table.dto.js';
import { PlanTableService } from './plan-table.service.js';

@ApiTags(ApiTag.Plans)
@Controller()
export class PlansController {
  constructor(private readonly table: PlanTableService) {}

  @ApiEndpoint(API_OPERATIONS.listPlans, PlanTable)
  listPlans(): Sendable {
    return this.table.json();
  }

  @ApiEndpoint(API_OPERATIONS.downloadPlansCsv, undefined, {
    produces: {
      mediaType: 'text/csv',
      description:
        'The rows of `listPlans` as RFC 4180 CSV with a header row, offered as `vpsapi-plans-<version>.csv`.',
    },
  })
  downloadPlansCsv(): Sendable {
    return this.table.csv();
  }
}
