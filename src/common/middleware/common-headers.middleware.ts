import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CommonHeaders, PREFLIGHT_HEADERS } from '../http/common-headers.js';

/** Stamps the common headers on every response and answers CORS preflight (any OPTIONS) with 204. */
@Injectable()
export class CommonHeadersMiddleware implements NestMiddleware {
  constructor(private readonly headers: CommonHeaders) {}

  use(req: Request, res: Response, next: NextFunction): void {
    this.headers.apply(res);
    if (req.method !== 'OPTIONS') return next();
    for (const [name, value] of PREFLIGHT_HEADERS) res.setHeader(name, value);
    res.statusCode = 204;
    res.setHeader('Content-Length', '0');
    res.end();
  }
}
