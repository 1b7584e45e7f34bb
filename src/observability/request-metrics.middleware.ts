import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from './metrics.service.js';
import { routeTemplate } from './route-template.js';

/** Times every request and records it when the response is done (mounted first, so nothing escapes it). */
export function requestMetrics(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      metrics.observeRequest(req.method, routeTemplate(req), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
