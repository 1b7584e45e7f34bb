import { Inject, Injectable } from '@nestjs/common';
import { METHODS, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config.js';
import { APP_LOGGER } from '../../observability/logger.js';
import { MetricsService } from '../../observability/metrics.service.js';
import { observeRefusedRequest } from '../../observability/refused-request.js';
import { contextOf, lastRequestOn, type RateLimitState } from '../../request/request-context.js';
import { randomUUID } from 'node:crypto';
import { normalizeIp } from '@nestjs/throttler';
import { HttpProblem } from '../errors/http-problem.js';
import { ProblemRenderer } from '../errors/problem-renderer.js';
import { methodNotAllowed, problemFromHttpStatus } from '../errors/problems.js';
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
 * is written. To tell the cases apart, the last request on each connection is remembered as it arrives
 * (RequestObserverMiddleware); a refused request pipelined behind an answer still being written is
 * answered after that answer. This and the error filter are the only writers of errors; this one only
 * because Node gives no request to Nest for these.
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
    const last = lastRequestOn(socket);
    if (last && !last.req.complete) {
      // The error is in the body of a request the application already has, and has counted.
      if (last.res.headersSent) return void afterAnswer(last.res, () => socket.destroy());
      return this.answer(error, socket, last.req, contextOf(last.req).counted);
    }
    // A new request that never reached the application, pipelined behind an answer still being written.
    const refuse = () => this.countAndAnswer(socket, (state) => this.answer(error, socket, undefined, state));
    if (last && !last.res.writableFinished) return void afterAnswer(last.res, refuse);
    refuse();
  };

  /**
   * The server's `connect` listener. Node hands a CONNECT request (a proxy tunnel) to it, never to the
   * application, and without a listener closes the socket with no answer. This server is no proxy:
   * CONNECT gets the 405 any other method outside GET, HEAD and OPTIONS gets, counted and observed here.
   */
  readonly connectListener = (req: IncomingMessage, socket: Socket): void => {
    const line = { method: req.method, url: req.url };
    this.countAndAnswer(socket, (state) =>
      this.write(methodNotAllowed('CONNECT', 'GET, HEAD, OPTIONS'), socket, line, state),
    );
  };

  /** Counts a request that never reached the application, then answers it with its count. */
  private countAndAnswer(socket: Socket, answer: (state: RateLimitState) => void): void {
    if (!socket.writable) return void socket.destroy();
    // The client is the connecting peer: the request's own headers (X-Forwarded-For) were never parsed.
    this.limiter.hit(normalizeIp(socket.remoteAddress ?? 'unknown')).then(answer, () => socket.destroy());
  }

  /** Writes the answer, observed, with the rate-limit headers of `counted` (the request's count, when known). */
  private answer(error: ParserError, socket: Socket, req: IncomingMessage | undefined, counted?: RateLimitState): void {
    const line = req ? { method: req.method, url: req.url } : requestLine(error.rawPacket);
    this.write(this.problemOf(error), socket, line, counted, req);
  }

  /**
   * Writes `problem` to the socket and closes it, observed. `req` is a request the application already
   * has (the access log writes its line); without one, the line is written here.
   */
  private write(
    problem: HttpProblem,
    socket: Socket,
    line: { method?: string; url?: string },
    counted?: RateLimitState,
    req?: IncomingMessage,
  ): void {
    if (!socket.writable) return void socket.destroy();
    const rendered = this.renderer.render(problem, 'json');
    const id = (req && contextOf(req).id) ?? randomUUID();
    // A request the application already has is logged by the access log when its connection closes,
    // with the status and length set here; a new one has no response object, so it is logged here.
    if (req) {
      const res = lastRequestOn(socket)?.res;
      res?.setHeader('Content-Length', rendered.body.length);
      if (res) res.statusCode = problem.status;
    }
    observeRefusedRequest(req ? undefined : this.logger, this.metrics, {
      id,
      method: line.method,
      url: line.url,
      remoteAddress: socket.remoteAddress,
      status: problem.status,
      bytes: rendered.body.length,
    });
    const named = new Map<string, readonly [string, string]>();
    for (const field of [
      ...this.headers.list({ id, counted, hsts: false }),
      ...rendered.headers,
      ['Connection', 'close'] as const,
    ])
      named.set(field[0].toLowerCase(), field);
    const fields = [...named.values()];
    const head = `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), rendered.body]));
  }

  private problemOf(error: ParserError): HttpProblem {
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      return new HttpProblem(
        431,
        'bad_request',
        'The request headers are too large.',
        'Send fewer or shorter headers (cookies, If-None-Match lists).',
      );
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      return new HttpProblem(
        408,
        'bad_request',
        'The request took too long to arrive.',
        'Send the whole request promptly; the connection was closed.',
      );
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

/**
 * The method and target of the request line the parser was reading, when it read one with a method
 * Node knows (a bounded set, so metric labels stay bounded); otherwise neither.
 */
function requestLine(packet: Buffer | undefined): { method?: string; url?: string } {
  if (!packet) return {};
  const line = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(packet.subarray(0, 8192).toString('latin1'));
  return line && KNOWN_METHODS.has(line[1]) ? { method: line[1], url: line[2] } : {};
}
