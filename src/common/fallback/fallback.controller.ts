import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { methodNotAllowed, routeNotFound } from '../errors/problems.js';
import type { HttpProblem } from '../errors/http-problem.js';
import { ALLOW_READ, isApiPath, READ_METHODS } from '../http/api-paths.js';

const READ = new Set<string>(READ_METHODS);

/**
 * Every path and method no other route serves, so that the rate-limit guard and the header
 * interceptor see every request Nest routes (a guard only runs for a matched route). Registered by the
 * last module AppModule imports, after every feature route, so it shadows none (a test asks every
 * documented operation and page with this controller's answers in mind). It answers what the router's
 * own fallback would have, in the documented shapes: 405 for a write under `/api/` (the API is
 * read-only), 404 for anything else. An OPTIONS request never reaches the handler: the interceptor
 * answers the preflight.
 */
@ApiExcludeController()
@Controller()
export class FallbackController {
  /** The 404 is the same for every path, so it is made once (ProblemRenderer then renders it once per form). */
  private readonly notFound: HttpProblem;

  constructor(config: AppConfig) {
    this.notFound = routeNotFound(config);
  }

  @All('{*path}')
  refuse(@Req() req: Request): never {
    if (!READ.has(req.method) && isApiPath(req.originalUrl)) throw methodNotAllowed(req.method, ALLOW_READ);
    throw this.notFound;
  }
}
