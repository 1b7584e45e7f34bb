import { Controller, Param } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import type { Sendable } from '../common/http/sendable.js';
import { ProviderEnvelope } from './dto/provider-envelope.dto.js';
import { ProviderList } from './dto/provider-list.dto.js';
import { ProvidersService } from './providers.service.js';

@ApiTags(ApiTag.Providers)
@Controller()
export class ProvidersController {
  constructor(private readonly providers: ProvidersService) {}

  @ApiEndpoint(API_OPERATIONS.listProviders, ProviderList)
  listProviders(): Sendable {
    return this.providers.list();
  }

  @ApiEndpoint(API_OPERATIONS.getProvider, ProviderEnvelope, {
    notFound: 'No provider has this id; the resolution lists the valid ids.',
  })
  @ApiParam({
    name: 'providerId',
    description: 'Stable, lowercase provider id.',
    example: 'hetzner',
    schema: { type: 'string', pattern: '^[a-z0-9-]+$' },
  })
  getProvider(@Param('providerId') id: string): Sendable {
    return this.providers.get(id);
  }
}
