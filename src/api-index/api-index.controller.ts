import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from './api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import type { Sendable } from '../common/http/sendable.js';
import { ApiIndexService } from './api-index.service.js';
import { API_OPERATIONS } from './api-operations.js';
import { ApiIndex } from './dto/api-index.dto.js';

@ApiTags(ApiTag.Index)
@Controller()
export class ApiIndexController {
  constructor(private readonly apiIndex: ApiIndexService) {}

  @ApiEndpoint(API_OPERATIONS.getApiIndex, ApiIndex)
  getApiIndex(): Sendable {
    return this.apiIndex.index();
  }
}
