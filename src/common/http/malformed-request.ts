import { Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import { ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppConfig } from '../../config/app-config.js';
import type { RateLimitState } from '../../request/request-context.js';
import { toEnvelope } from '../errors/envelope.js';
import { HttpProblem } from '../errors/http-problem.js';
import { problemFromHttpStatus } from '../errors/problems.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { CommonHeaders } from './common-headers.js';

/** The canonical spelling of a header name (getHeaders() gives lowercase ones). */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/**
 * Answers requests Node's HTTP parser refused before any middleware (unknown method, malformed request
 * line or headers, headers too large, headers or body too slow), written straight to the socket: each is
 * counted against the client like any request and answered 400 (431 for oversized headers, 408 when
 * too slow) with the envelope, the common and rate-limit headers, and Connection: close.
 */
@Injectable()
export class MalformedRequestAnswer {
  constructor(
    private readonly config: AppConfig,
    private readonly headers: CommonHeaders,
    private readonly limiter: RateLimiter,
  ) {}

  /** The server's `clientError` listener. */
  readonly listener = (error: NodeJS.ErrnoException, socket: Duplex & { remoteAddress?: string }): void => {
    if (!socket.writable) return void socket.destroy();
    const problem = this.problemOf(error);
    const answer = (state: RateLimitState) => {
      const headers = new ServerResponse({ method: 'GET' } as never);
      this.headers.apply(headers);
      this.limiter.writeHeaders(headers, state);
      const body = JSON.stringify(toEnvelope(problem, this.config));
      const lines = Object.entries(headers.getHeaders()).map(([name, value]) => `${headerName(name)}: ${String(value)}`);
      socket.end(
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${lines.join('\r\n')}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    try {
      const state = this.limiter.hit(normalizeIp(socket.remoteAddress ?? 'unknown'));
      if (state instanceof Promise) state.then(answer, () => socket.destroy());
      else answer(state);
    } catch {
      socket.destroy();
    }
  };

  private problemOf(error: NodeJS.ErrnoException): HttpProblem {
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      return new HttpProblem(431, 'bad_request', 'The request headers are too large.', 'Send fewer or shorter headers (cookies, If-None-Match lists).');
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      return new HttpProblem(408, 'bad_request', 'The request took too long to arrive.', 'Send the whole request promptly; the connection was closed.');
    }
    return problemFromHttpStatus(400, this.config);
  }
}
