import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { httpLoggingOptions } from './http-logging.js';
import { APP_LOGGER } from './logger.js';

/**
 * The access log: pino-http, one instance per application, over the application's logger (one line
 * per request, see httpLoggingOptions). nestjs-pino's own middleware keeps one pino-http instance per
 * process, so a second application in a process (every e2e suite that boots two) would write its access
 * lines through the first one's logger; nestjs-pino still carries Nest's own logs (AppModule).
 */
@Injectable()
export class AccessLogMiddleware implements NestMiddleware {
  private readonly log: HttpLogger<Request, Response>;

  constructor(@Inject(APP_LOGGER) logger: Logger) {
    this.log = pinoHttp(httpLoggingOptions(logger)) as unknown as HttpLogger<Request, Response>;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    this.log(req, res, next);
  }
}
