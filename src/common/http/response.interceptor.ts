import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, type Observable, of } from 'rxjs';
import { AppConfig } from '../../config/app-config.js';
import { contextOf } from '../../request/request-context.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { problemFromHttpStatus, serviceUnavailable } from '../errors/problems.js';
import { CommonHeaders, MCP_PREFLIGHT_HEADERS, PREFLIGHT_HEADERS } from './common-headers.js';
import { DocumentAnswers } from './document-answers.js';
import { HttpsPolicy } from './https-policy.js';
import { isMcpPath } from './mcp-path.js';
import { PROBE } from './probe.decorator.js';

/**
 * The header interceptor of the design card (APP_INTERCEPTOR; the only one), for every request a route
 * matched (the catch-all included), after RateLimitGuard counted it. It sets the common headers
 * (CommonHeaders, with the `RateLimit-*` headers of that count), then admits the request, in this order:
 * a target Express could not route → 400; plain HTTP when HTTPS is required → 301 to the public host;
 * starting, draining or maintenance → 503; OPTIONS → the CORS preflight (204); anything else goes on to
 * the handler, whose result DocumentAnswers turns into the answer (a precomputed document's bytes, or a
 * 304). The 400 and 503 are thrown to the error filter; the 301 and 204 have no body: their status and
 * headers are set here and Nest writes them (the handler does not run). The orchestrator's probes
 * (`@Probe()`) are only given the headers. One interceptor rather than two: each one Nest runs adds its
 * own chain of observables to every request.
 */
@Injectable()
export class ResponseInterceptor implements NestInterceptor {
  constructor(
    private readonly headers: CommonHeaders,
    private readonly https: HttpsPolicy,
    private readonly availability: AvailabilityService,
    private readonly config: AppConfig,
    private readonly reflector: Reflector,
    private readonly documents: DocumentAnswers,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    this.headers.apply(req, res);
    if (this.reflector.getAllAndOverride<boolean>(PROBE, [context.getHandler(), context.getClass()]))
      return next.handle();
    if (contextOf(req).malformedTarget !== undefined) throw problemFromHttpStatus(400, this.config);
    const location = this.https.redirectOf(req);
    if (location !== undefined) {
      res.status(301).setHeader('Location', location);
      return of(undefined);
    }
    const unavailable = this.availability.unavailableReason();
    if (unavailable !== undefined) {
      // A draining instance asks keep-alive clients to reconnect elsewhere.
      if (unavailable === 'draining') res.setHeader('Connection', 'close');
      throw serviceUnavailable(unavailable, this.config.retryAfterSeconds);
    }
    if (req.method === 'OPTIONS') {
      for (const [name, value] of isMcpPath(req.path) ? MCP_PREFLIGHT_HEADERS : PREFLIGHT_HEADERS)
        res.setHeader(name, value);
      res.status(204);
      return of(undefined);
    }
    return next.handle().pipe(map((result: unknown) => this.documents.answerOf(req, res, result)));
  }
}
