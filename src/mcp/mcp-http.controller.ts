import { All, Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { mcpMethodNotAllowed } from '../common/errors/problems.js';
import { JSON_RPC } from '../common/http/json-rpc-error.js';
import { MCP_PATH } from '../common/http/mcp-path.js';
import { RateLimiter } from '../common/rate-limit/rate-limiter.js';
import { McpAccessGuard } from './mcp-access.guard.js';
import { McpAnswerCache } from './mcp-answer-cache.js';
import { readMcpBody } from './mcp-body.js';
import { McpDispatcher } from './mcp-dispatcher.js';
import { invalidParams } from './request-params.js';
import { mcpPostOf, readMcpPost } from './streamable-http-rules.js';

/**
 * The most a batch's answers may weigh together; calls past it get a small error instead of their
 * result, so one POST cannot ask for an answer of any size (a single call is bounded by its tool).
 */
export const MAX_BATCH_ANSWER_BYTES = 4 * 1024 * 1024;

/** Replaces the answers of a batch from the first that takes it past MAX_BATCH_ANSWER_BYTES with an error saying so. */
function withinAnswerBudget(requests: readonly JSONRPCRequest[], answers: string[]): void {
  let total = 0;
  for (let i = 0; i < answers.length; i++) {
    total += Buffer.byteLength(answers[i]);
    if (total <= MAX_BATCH_ANSWER_BYTES) continue;
    const message = `Not answered: the batch's answers passed ${MAX_BATCH_ANSWER_BYTES} bytes. Send this call again in a later POST.`;
    answers[i] = JSON.stringify({ jsonrpc: '2.0', id: requests[i].id, error: { code: JSON_RPC.serverError, message } });
  }
}

/**
 * The MCP endpoint: Streamable HTTP without sessions, answering each POST with a JSON response (the
 * transport's JSON response mode). Any replica answers any request; there is nothing to resume and
 * no stream to open. This controller is the one place the endpoint's rules apply, in this order:
 * the rate-limit guard counts the POST; McpAccessGuard checks Host and Origin; the interceptor admits
 * it; then the body is read (`readMcpBody`, 1 MB), the transport rules read it (`readMcpPost`), each
 * further call of a batch is counted against the client's limit (`countBatch`), and each request's params are checked
 * (`invalidParams`). The requests are answered from remembered answers (McpAnswerCache) or by the
 * one in-process server (McpDispatcher); a request of protocol revision 2026-07-28 goes to the SDK's
 * entry for that era (not cached: the SDK checks its envelope and headers per exchange). When every
 * call of a POST was answered, its verdict is recorded (McpAnswerCache.recordVerdict) for the replay
 * cache in front of Express.
 */
@ApiExcludeController()
@Controller(MCP_PATH)
@UseGuards(McpAccessGuard)
export class McpHttpController {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly answers: McpAnswerCache,
    private readonly limiter: RateLimiter,
  ) {}

  @Post()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    await new Promise<void>((resolve, reject) => readMcpBody(req, res, (error) => (error === undefined ? resolve() : reject(error))));
    const reading = readMcpPost(mcpPostOf(req.headers, req.body));
    if (reading.kind === 'refuse') throw reading.problem;
    if (reading.kind === 'modern') return this.answerModern(req, res);
    if (reading.kind === 'accept') {
      res.status(202).setHeader('Content-Length', '0');
      res.end();
      return;
    }
    const { batch, requests } = reading;
    if (requests.length > 1) await this.limiter.countMore(req, res, requests.length - 1);

    // Fires only if the client goes away before the answer is written (abort() is not free).
    const closed = new AbortController();
    res.once('close', () => res.writableFinished || closed.abort());
    const answers: string[] = [];
    const toServer: JSONRPCRequest[] = [];
    const slots: number[] = [];
    for (const request of requests) {
      const invalid = invalidParams(request);
      if (invalid) answers.push(JSON.stringify(invalid));
      else {
        slots.push(answers.length);
        answers.push('');
        toServer.push(request);
      }
    }
    const protocolVersion = req.headers['mcp-protocol-version'];
    if (toServer.length > 0) {
      const served = await this.answers.answer(toServer, protocolVersion, (misses) => this.dispatcher.answer(misses, closed.signal));
      if (closed.signal.aborted) return;
      served.forEach((json, i) => (answers[slots[i]] = json ?? ''));
    }
    if (batch) withinAnswerBudget(requests, answers);
    const body = batch ? `[${answers.join(',')}]` : answers[0];
    res.status(200).setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
    if (!batch && toServer.length === 1) this.answers.recordVerdict(req.headers, req.body);
  }

  /** A POST of the 2026-07-28 era, answered by the SDK's entry for it (its status, headers and body). */
  private async answerModern(req: Request, res: Response): Promise<void> {
    const closed = new AbortController();
    res.once('close', () => res.writableFinished || closed.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await this.dispatcher.answerModern(`http://localhost${req.originalUrl}`, headers, req.body, closed.signal);
    if (closed.signal.aborted) return;
    res.status(answer.status);
    for (const [name, value] of answer.headers) if (name !== 'content-length') res.setHeader(name, value);
    res.setHeader('Content-Length', Buffer.byteLength(answer.body));
    res.end(answer.body);
  }

  /** GET (no SSE stream to open), DELETE (no session to end) and anything else. */
  @All()
  refuse(@Req() req: Request): never {
    throw mcpMethodNotAllowed(req.method);
  }
}
