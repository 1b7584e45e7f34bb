import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Observable, of } from 'rxjs';
import { contextOf } from '../../request/request-context.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { type Admission, AdmissionPolicy, HSTS } from './admission.js';
import { CommonHeaders } from './common-headers.js';

/**
 * The header interceptor of the design card (APP_INTERCEPTOR), for every request a route matched (the
 * catch-all included), after RateLimitGuard counted it: writes the common headers and the
 * `RateLimit-*` headers of that count, then carries out the one admission decision
 * (AdmissionPolicy.decide, the same function the replay cache in front of Express calls): a 301 to
 * HTTPS or a 204 preflight is written here and the handler does not run; a 503 (starting, draining,
 * maintenance) or a 400 (a target Express could not route) is thrown to the error filter; anything else
 * goes on to the handler, with Strict-Transport-Security where HTTPS is required.
 * The health probes (@SkipThrottle) have no count: they get the common headers and nothing else.
 */
@Injectable()
export class AdmissionInterceptor implements NestInterceptor {
  constructor(
    private readonly policy: AdmissionPolicy,
    private readonly headers: CommonHeaders,
    private readonly limiter: RateLimiter,
    private readonly availability: AvailabilityService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const request = contextOf(req);
    this.headers.apply(res);
    const limit = request.counted;
    // Exempt from the limit (@SkipThrottle: the health probes): no count, no decision.
    if (limit === undefined) return next.handle();
    this.limiter.writeHeaders(res, limit);
    const decision = this.policy.decide({
      method: req.method,
      url: req.originalUrl,
      secure: this.policy.secure(req),
      malformed: request.malformedTarget !== undefined,
      limit,
      unavailable: this.availability.unavailableReason(),
    });
    // Written here: the handler does not run (every handler takes @Res(), so Nest writes nothing more).
    return this.carryOut(decision, res) ? next.handle() : of(undefined);
  }

  /** Writes or throws what the decision says; true when the handler should run. */
  private carryOut(decision: Admission, res: Response): boolean {
    switch (decision.kind) {
      case 'serve':
        if (decision.hsts) res.setHeader('Strict-Transport-Security', HSTS);
        return true;
      case 'refuse':
        if (decision.hsts) res.setHeader('Strict-Transport-Security', HSTS);
        if (decision.closeConnection) res.setHeader('Connection', 'close');
        throw decision.problem;
      case 'redirect':
        res.statusCode = 301;
        res.setHeader('Location', decision.location);
        res.setHeader('Content-Length', '0');
        res.end();
        return false;
      case 'preflight':
        if (decision.hsts) res.setHeader('Strict-Transport-Security', HSTS);
        for (const [name, value] of decision.headers) res.setHeader(name, value);
        res.statusCode = 204;
        res.setHeader('Content-Length', '0');
        res.end();
        return false;
    }
  }
}
