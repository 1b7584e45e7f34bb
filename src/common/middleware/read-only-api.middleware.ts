import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ALLOW_READ, isApiPath, READ_METHODS } from '../http/api-paths.js';
import { methodNotAllowed } from '../errors/problems.js';

const READ = new Set<string>(READ_METHODS);

/** Refuses every write method under `/api/` with 405, before any route or body is looked at. */
@Injectable()
export class ReadOnlyApiMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    if (!READ.has(req.method) && isApiPath(req.originalUrl)) throw methodNotAllowed(req.method, ALLOW_READ);
    next();
  }
}
