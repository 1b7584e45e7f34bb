import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { rememberOnConnection } from '../request/request-context.js';
import { MetricsService } from './metrics.service.js';
import { routeTemplate } from './route-template.js';

/**
 * Records every request's metrics sample (method, route template, status, latency) when its answer is
 * finished, through prom-client (MetricsService); and remembers the request as its connection's last
 * one, for a parser error that follows on that connection (MalformedRequestAnswer).
 */
@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    rememberOnConnection(req, res);
    res.once('finish', () =>
      this.metrics.observeRequest(
        req.method,
        routeTemplate(req),
        res.statusCode,
        Number(process.hrtime.bigint() - started) / 1e9,
      ),
    );
    next();
  }
}
