import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { forgetOnConnection, rememberOnConnection } from '../request/request-context.js';
import { httpLoggingOptions } from './http-logging.js';
import { APP_LOGGER } from './logger.js';
import { MetricsService } from './metrics.service.js';
import { routeTemplate } from './route-template.js';

/**
 * What is recorded of every request, in the one Nest middleware the application applies (each one Nest
 * applies costs every request a route match of its own):
 * - the access log: pino-http, one instance per application, over the application's logger (one line
 *   per request, see httpLoggingOptions). nestjs-pino's own middleware keeps one pino-http instance per
 *   process, so a second application in a process (every e2e suite that boots two) would write its access
 *   lines through the first one's logger; nestjs-pino still carries Nest's own logs (AppModule);
 * - the metrics sample (method, route template, status, latency) when the answer is finished, through
 *   prom-client (MetricsService);
 * - the request as its connection's last one while it is being read or answered, for a parser error
 *   that follows on that connection (MalformedRequestAnswer); forgotten when its answer is finished.
 */
@Injectable()
export class RequestObserverMiddleware implements NestMiddleware {
  private readonly log: HttpLogger<Request, Response>;

  constructor(
    @Inject(APP_LOGGER) logger: Logger,
    private readonly metrics: MetricsService,
  ) {
    this.log = pinoHttp(httpLoggingOptions(logger)) as unknown as HttpLogger<Request, Response>;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    rememberOnConnection(req, res);
    res.once('finish', () => {
      forgetOnConnection(req, res);
      this.metrics.observeRequest(
        req.method,
        routeTemplate(req),
        res.statusCode,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    this.log(req, res, next);
  }
}
