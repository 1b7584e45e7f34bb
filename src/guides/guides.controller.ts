import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import type { Sendable } from '../common/http/sendable.js';
import { GuideList } from './dto/guide-list.dto.js';
import { GuidesService } from './guides.service.js';

@ApiTags(ApiTag.Guides)
@Controller()
export class GuidesController {
  constructor(private readonly guides: GuidesService) {}

  @ApiEndpoint(API_OPERATIONS.listGuides, GuideList)
  listGuides(): Sendable {
    return this.guides.list();
  }
}
