import { Inject, Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import { METHODS, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config.js';
import { APP_LOGGER } from '../../observability/logger.js';
import { MetricsService } from '../../observability/metrics.service.js';
import { lastObservedOn, observeRefusedRequest } from '../../observability/request-observer.js';
import { contextOf, type RateLimitState } from '../../request/request-context.js';
import { HttpProblem } from '../errors/http-problem.js';
import { ProblemRenderer } from '../errors/problem-renderer.js';
import { problemFromHttpStatus } from '../errors/problems.js';
import { RATE_LIMIT_HEADERS } from '../rate-limit/rate-limit-headers.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { CommonHeaders } from './common-headers.js';

/** A parser error as Node's `clientError` gives it: `rawPacket` holds the bytes being parsed, when there were any. */
type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer };

const KNOWN_METHODS = new Set(METHODS);

/**
 * Answers requests Node's HTTP parser refused before any middleware (unknown method, malformed request
 * line, headers or chunked body, headers too large, headers or body too slow). Node hands these to the
 * server's `clientError` listener with the socket alone, so the answer is written to the socket: 400
 * (431 for oversized headers, 408 when too slow) in the envelope (ProblemRenderer), with the common and
 * rate-limit headers, the request id and Connection: close. Each is counted against the client and
 * observed (one access line, one `http_requests_total` sample) like any request.
 *
 * A parser error can also come after the application already has the request: a chunked body that
 * turns out malformed once the headers were read and answered. That request was counted and is being
 * answered; it gets no second answer and no second count, and its connection is closed once its answer
 * is written. To tell the cases apart, the request observer keeps the last request it saw on each
 * connection (every request is observed as it arrives); a refused request pipelined behind an answer
 * still being written is answered after that answer.
 */
@Injectable()
export class MalformedRequestAnswer {
  constructor(
    private readonly config: AppConfig,
    private readonly headers: CommonHeaders,
    private readonly limiter: RateLimiter,
    private readonly metrics: MetricsService,
    // Both provided by AppModule, beside the error pages, where this answer is provided too.
    private readonly renderer: ProblemRenderer,
    @Inject(APP_LOGGER) private readonly logger: Logger,
  ) {}

  /** The server's `clientError` listener. */
  readonly listener = (error: ParserError, socket: Socket): void => {
    if (!socket.writable) return void socket.destroy();
    const last = lastObservedOn(socket);
    if (last && !last.req.complete) {
      // The error is in the body of a request the application already has, and has counted.
      if (last.res.headersSent) return void afterAnswer(last.res, () => socket.destroy());
      return this.answer(error, socket, last.req, contextOf(last.req).counted);
    }
    // A new request that never reached the application, pipelined behind an answer still being written.
    if (last && !last.res.writableFinished) return void afterAnswer(last.res, () => this.countAndAnswer(error, socket));
    this.countAndAnswer(error, socket);
  };

  private countAndAnswer(error: ParserError, socket: Socket): void {
    if (!socket.writable) return void socket.destroy();
    try {
      const state = this.limiter.hit(normalizeIp(socket.remoteAddress ?? 'unknown'));
      if (state instanceof Promise) state.then((s) => this.answer(error, socket, undefined, s), () => socket.destroy());
      else this.answer(error, socket, undefined, state);
    } catch {
      socket.destroy();
    }
  }

  /** Writes the answer, observed, with the rate-limit headers of `counted` (the request's count, when known). */
  private answer(error: ParserError, socket: Socket, req: IncomingMessage | undefined, counted?: RateLimitState): void {
    if (!socket.writable) return void socket.destroy();
    const problem = this.problemOf(error);
    const rendered = this.renderer.render(problem, 'json');
    const line = req ? { method: req.method, url: req.url } : requestLine(error.rawPacket);
    const id = observeRefusedRequest(this.logger, this.metrics, {
      method: line.method,
      url: line.url,
      remoteAddress: socket.remoteAddress,
      status: problem.status,
      bytes: rendered.body.length,
    });
    const fields: (readonly [string, string])[] = [];
    const common = this.headers.flat();
    for (let i = 0; i < common.length; i += 2) fields.push([common[i], common[i + 1]]);
    if (counted) fields.push(...rateLimitFields(this.limiter, counted));
    fields.push(['X-Request-Id', id], ...rendered.headers, ['Connection', 'close']);
    const head = `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), rendered.body]));
  }

  private problemOf(error: ParserError): HttpProblem {
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      return new HttpProblem(431, 'bad_request', 'The request headers are too large.', 'Send fewer or shorter headers (cookies, If-None-Match lists).');
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      return new HttpProblem(408, 'bad_request', 'The request took too long to arrive.', 'Send the whole request promptly; the connection was closed.');
    }
    return problemFromHttpStatus(400, this.config);
  }
}

/** Runs `then` once `res` is written out or abandoned. */
function afterAnswer(res: ServerResponse, then: () => void): void {
  if (res.writableFinished || res.destroyed) return then();
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    then();
  };
  res.once('finish', once).once('close', once);
}

/** The rate-limit headers of a count, as RateLimiter writes them (Retry-After when over the limit). */
function rateLimitFields(limiter: RateLimiter, state: RateLimitState): (readonly [string, string])[] {
  const flat: string[] = [];
  limiter.pushHeaders(flat, state);
  const fields: (readonly [string, string])[] = [];
  for (let i = 0; i < flat.length; i += 2) fields.push([flat[i], flat[i + 1]]);
  if (state.limited) fields.push([RATE_LIMIT_HEADERS.retryAfter, String(state.resetSeconds)]);
  return fields;
}

/**
 * The method and target of the request line the parser was reading, when it read one with a method
 * Node knows (a bounded set, so metric labels stay bounded); otherwise neither.
 */
function requestLine(packet: Buffer | undefined): { method?: string; url?: string } {
  if (!packet) return {};
  const line = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(packet.subarray(0, 8192).toString('latin1'));
  return line && KNOWN_METHODS.has(line[1]) ? { method: line[1], url: line[2] } : {};
}
