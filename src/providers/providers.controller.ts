import { Controller, Param, Req, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ApiEndpoint } from '../api-index/api-endpoint.decorator.js';
import { ApiTag } from '../common/http/api-tags.js';
import { DocumentResponder } from '../common/http/document-responder.js';
import { ProviderEnvelope } from './dto/provider-envelope.dto.js';
import { ProviderList } from './dto/provider-list.dto.js';
import { ProvidersService } from './providers.service.js';

@ApiTags(ApiTag.Providers)
@Controller()
export class ProvidersController {
  constructor(
    private readonly providers: ProvidersService,
    private readonly responder: DocumentResponder,
  ) {}

  @ApiEndpoint(API_OPERATIONS.listProviders, ProviderList)
  listProviders(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.providers.list());
  }

  @ApiEndpoint(API_OPERATIONS.getProvider, ProviderEnvelope, {
    notFound: 'No provider has this id; the resolution lists the valid ids.',
  })
  @ApiParam({ name: 'providerId', description: 'Stable, lowercase provider id.', example: 'hetzner', schema: { type: 'string', pattern: '^[a-z0-9-]+$' } })
  getProvider(@Param('providerId') id: string, @Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.providers.get(id));
  }
}
