import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DocumentResponder } from '../common/http/document-responder.js';
import { ServerCardService } from './server-card.service.js';

/** The discovery card tells clients where the endpoint is and what it offers. */
@ApiExcludeController()
@Controller()
export class ServerCardController {
  constructor(
    private readonly cards: ServerCardService,
    private readonly responder: DocumentResponder,
  ) {}

  @Get(['.well-known/mcp/server-card.json', 'mcp/server-card'])
  card(@Req() req: Request, @Res() res: Response): void {
    this.responder.sendRemembered(req, res, this.cards.document(), { cacheControl: 'public, max-age=3600' });
  }
}
