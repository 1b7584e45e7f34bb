import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_LOGGER } from '../../observability/logger.js';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { contextOf } from '../../request/request-context.js';
import { NotFoundError } from '../errors/domain-errors.js';
import { HttpProblem } from '../errors/http-problem.js';
import { problemFromHttpStatus, problemFromNotFound, routeNotFound } from '../errors/problems.js';
import { CommonHeaders } from '../http/common-headers.js';
import { ProblemRenderer } from '../errors/problem-renderer.js';
import { clientKey } from '../rate-limit/client-key.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';

/** The orchestrator's probes: never counted (`@SkipThrottle()`), even when they fail before routing. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/**
 * The one place errors become answers (APP_FILTER). Domain errors, HTTP problems and the exceptions
 * Nest, Express and body parsers raise map to an HttpProblem; anything else is logged with the request
 * id and answered as a generic 500 without internals. The problem is written as ProblemRenderer renders
 * it (the JSON envelope, a JSON-RPC error on the MCP endpoint, or an error page), with the common
 * headers (CommonHeaders, with the `RateLimit-*` headers of the request's count and Retry-After on a
 * 429). A request that failed before RateLimitGuard counted it (bad percent-encoding in a path) is
 * counted here, once: one of the named exceptions of docs/architecture.md; over the limit, it gets the
 * 429 instead. Nothing is written when the response has already started.
 */
@Catch()
@Injectable()
export class ErrorResponseFilter implements ExceptionFilter {
  constructor(
    // This application's logger, not Nest's process-wide static one: the error line goes where the
    // access line of the same request goes, with the same reqId field.
    @Inject(APP_LOGGER) private readonly logger: Logger,
    private readonly config: AppConfig,
    private readonly commonHeaders: CommonHeaders,
    private readonly renderer: ProblemRenderer,
    private readonly limiter: RateLimiter,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    let problem = this.toProblem(exception, req);

    if (res.headersSent) {
      if (!res.writableEnded) res.destroy();
      return;
    }
    const context = contextOf(req);
    if (context.counted === undefined && !PROBE_PATHS.has(req.path)) {
      // Failed before the guard ran: counted here, once.
      try {
        context.counted = await this.limiter.hit(clientKey(req));
        if (context.counted.limited) problem = this.limiter.refusal(context.counted);
      } catch {
        // The count failed (the store fails open): the error is still answered.
      }
    }
    if (res.headersSent) return;
    const rendered = this.renderer.render(problem, this.renderer.formOf(req.path, req));
    // Headers a handler or the interceptor set for the answer it meant to give (a document's ETag, a
    // redirect's Location) are not the error's. When the response carries the common headers and
    // nothing else (a handler that threw, the catch-all's 404), they stand as they are.
    const names = res.getHeaderNames();
    if (context.commonHeaders !== names.length) {
      for (const name of names) if (name !== 'connection') res.removeHeader(name);
      this.commonHeaders.apply(req, res);
    }
    res.statusCode = rendered.status;
    for (const [name, value] of rendered.headers) res.setHeader(name, value);
    res.end(req.method === 'HEAD' ? undefined : rendered.body);
  }

  private toProblem(exception: unknown, req: Request): HttpProblem {
    if (exception instanceof HttpProblem) return exception;
    if (exception instanceof NotFoundError) return problemFromNotFound(exception, this.config);
    const status = statusOf(exception);
    if (status === 404) return routeNotFound(this.config);
    if (status !== undefined && status >= 400 && status < 500) {
      // Nest wraps body-parser errors in a BadRequestException whose cause keeps the parser's type.
      const { type, cause } = exception as { type?: string; cause?: { type?: string } };
      return problemFromHttpStatus(status, this.config, type ?? cause?.type);
    }

    // The id the access log gave the request (a client-sent one or a new one): the same in the answer's
    // X-Request-Id, the access line and this error line.
    const requestId = contextOf(req).id ?? randomUUID();
    this.logger.error(
      {
        reqId: requestId,
        context: 'Errors',
        err:
          exception instanceof Error
            ? { type: exception.name, message: exception.message, stack: exception.stack }
            : String(exception),
      },
      `Unexpected error ${requestId} on ${req.method} ${req.originalUrl.slice(0, 200)}`,
    );
    return new HttpProblem(
      500,
      'internal_error',
      'Something went wrong on our side.',
      `Try again in a moment. If it keeps happening, report it with the request id ${requestId}.`,
      { 'X-Request-Id': requestId },
    );
  }
}

/** The HTTP status an exception asks for: Nest's HttpException, or `status` set by Express or body parsers. */
function statusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  const status =
    (exception as { status?: unknown; statusCode?: unknown } | null)?.status ??
    (exception as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}
