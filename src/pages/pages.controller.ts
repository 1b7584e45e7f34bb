import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { routeNotFoundError } from '../common/errors/route-not-found.js';
import { DocumentResponder } from '../common/http/document-responder.js';
import { PagesService } from './pages.service.js';

/** Pages (HTML or markdown by negotiation) and their `.md` forms, which the same patterns match. */
const ROUTES = ['/', 'index.md', 'guides', 'guides.md', 'guides/:slug', 'plans', 'plans.md', 'plans/:sort', 'providers/:id', 'use-cases/:slug', 'docs.md', 'llms.txt', 'llms-full.txt', 'assets/site.css'];

/**
 * The site: HTML pages for people and the same content as markdown for agents, either at the
 * page's `.md` address or at its own address with `Accept: text/markdown`.
 */
@ApiExcludeController()
@Controller()
export class PagesController {
  constructor(
    private readonly pages: PagesService,
    private readonly responder: DocumentResponder,
  ) {}

  @Get(ROUTES)
  serve(@Req() req: Request, @Res() res: Response): void {
    const page = this.pages.page(req.path);
    if (page) return this.responder.sendRememberedPage(req, res, page);
    const file = this.pages.file(req.path);
    if (!file) throw routeNotFoundError();
    this.responder.sendRemembered(req, res, file);
  }
}
