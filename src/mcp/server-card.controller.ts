import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Sendable } from '../common/http/sendable.js';
import { ServerCardService } from './server-card.service.js';

/** The discovery card tells clients where the endpoint is and what it offers. */
@ApiExcludeController()
@Controller()
export class ServerCardController {
  constructor(private readonly cards: ServerCardService) {}

  @Get(['.well-known/mcp/server-card.json', 'mcp/server-card'])
  card(): Sendable {
    return this.cards.document();
  }
}
