import { Controller, Get } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import type { Sendable } from '../common/http/sendable.js';
import { ChangesService } from './changes.service.js';
import { ChangeList } from './dto/change-list.dto.js';

@ApiTags(ApiTag.Changes)
@Controller()
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @ApiEndpoint(API_OPERATIONS.listDatasetChanges, ChangeList)
  listDatasetChanges(): Sendable {
    return this.changes.json();
  }

  /** The same releases as an Atom feed, for feed readers (a site document, not part of the JSON API). */
  @Get('changes.atom')
  @ApiExcludeEndpoint()
  changesFeed(): Sendable {
    return this.changes.atom();
  }
}
