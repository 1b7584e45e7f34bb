import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { mcpMethodNotAllowed } from '../common/errors/problems.js';
import { McpDispatcher } from './mcp-dispatcher.js';
import { mcpProblems } from './mcp-problems.js';
import { invalidParams } from './request-params.js';

const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;

/**
 * The MCP endpoint: Streamable HTTP without sessions, answering each POST with a JSON response (the
 * transport's JSON response mode). Any replica answers any request; there is nothing to resume and
 * no stream to open. The transport's rules are applied here, with the SDK's own schema, media-type
 * check, batch limit and protocol versions, and the messages go to the one in-process server
 * (McpDispatcher). Nest has already parsed the body (1 MB limit) and checked Host and Origin.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpHttpController {
  constructor(private readonly dispatcher: McpDispatcher) {}

  @Post()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) throw mcpProblems.notAcceptable();
    if (!isJsonContentType(req.headers['content-type'])) throw mcpProblems.unsupportedMediaType();
    const batch = Array.isArray(req.body);
    const raw: unknown[] = batch ? req.body : [req.body];
    if (raw.length > MAX_BATCH_SIZE) throw mcpProblems.batchTooLarge(MAX_BATCH_SIZE);
    const messages: JSONRPCMessage[] = [];
    for (const item of raw) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success) throw mcpProblems.invalidMessage();
      messages.push(parsed.data);
    }
    if (messages.length === 0) throw mcpProblems.invalidMessage();
    const requests = messages.filter(isRequest);
    if (requests.some((m) => m.method === 'initialize')) {
      if (messages.length > 1) throw mcpProblems.lonelyInitialize();
    } else {
      // After initialize, a client names the protocol version it negotiated (absent: the default).
      const version = req.headers['mcp-protocol-version'];
      if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) throw mcpProblems.unsupportedVersion(version, SUPPORTED_PROTOCOL_VERSIONS);
    }
    // Notifications and responses only: accepted, nothing to answer. Nothing is kept per client, so
    // they are not handed to the server (a cancellation could otherwise name another client's request).
    if (requests.length === 0) {
      res.status(202).setHeader('Content-Length', '0');
      res.end();
      return;
    }

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
    if (toServer.length > 0) {
      const served = await this.dispatcher.answer(toServer, closed.signal);
      if (closed.signal.aborted) return;
      served.forEach((json, i) => (answers[slots[i]] = json ?? ''));
    }
    const body = batch ? `[${answers.join(',')}]` : answers[0];
    res.status(200).setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  }

  /** GET (no SSE stream to open), DELETE (no session to end) and anything else. */
  @All()
  refuse(@Req() req: Request): never {
    throw mcpMethodNotAllowed(req.method);
  }
}
