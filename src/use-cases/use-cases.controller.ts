import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import type { Sendable } from '../common/http/sendable.js';
import { UseCaseList } from './dto/use-case-list.dto.js';
import { UseCasesService } from './use-cases.service.js';

@ApiTags(ApiTag.UseCases)
@Controller()
export class UseCasesController {
  constructor(private readonly useCases: UseCasesService) {}

  @ApiEndpoint(API_OPERATIONS.listUseCases, UseCaseList)
  listUseCases(): Sendable {
    return this.useCases.list();
  }
}
