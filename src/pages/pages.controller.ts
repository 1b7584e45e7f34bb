import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { routeNotFoundError } from '../common/errors/route-not-found.js';
import { prefersMarkdown } from '../common/http/negotiation.js';
import type { Sendable } from '../common/http/sendable.js';
import { PagesService } from './pages.service.js';

/** Pages (HTML or markdown by negotiation) and their `.md` forms, which the same patterns match. */
const ROUTES = [
  '/',
  'index.md',
  'guides',
  'guides.md',
  'guides/:slug',
  'plans',
  'plans.md',
  'plans/:sort',
  'providers/:id',
  'use-cases/:slug',
  'docs.md',
  'llms.txt',
  'llms-full.txt',
  'assets/site.css',
];

/**
 * The site: HTML pages for people and the same content as markdown for agents, either at the
 * page's `.md` address or at its own address with `Accept: text/markdown`.
 */
@ApiExcludeController()
@Controller()
export class PagesController {
  constructor(private readonly pages: PagesService) {}

  @Get(ROUTES)
  serve(@Req() req: Request): Sendable {
    const page = this.pages.page(req.path);
    if (page) return prefersMarkdown(req) ? page.markdown : page.html;
    const file = this.pages.file(req.path);
    if (!file) throw routeNotFoundError();
    return file;
  }
}
