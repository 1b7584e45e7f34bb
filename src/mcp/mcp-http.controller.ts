import {
  All,
  Controller,
  HttpCode,
  Logger,
  type OnApplicationShutdown,
  Post,
  Req,
  Res,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createMcpHandler, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { toWebRequest } from '@modelcontextprotocol/node';
import type { Request, Response } from 'express';
import { mcpMethodNotAllowed } from '../common/errors/problems.js';
import { MCP_PATH } from '../common/http/mcp-path.js';
import { clientKey } from '../common/rate-limit/client-key.js';
import { McpAccessGuard } from './mcp-access.guard.js';
import { isLegacyPost } from './mcp-era.js';
import { McpAnswers } from './mcp-answers.js';
import { McpCallLanes } from './mcp-call-lanes.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { McpTransportRules } from './mcp-transport-rules.js';
import { isDiscover, withEveryProtocolVersion } from './server-discover.js';

/**
 * The MCP endpoint: Streamable HTTP without sessions, each POST answered on its own, so any replica
 * answers any request. The rate-limit guard has counted the POST, McpAccessGuard checked Host and
 * Origin and the interceptor set the common headers before the handler runs; the handler then reads
 * the body (McpTransportRules.readBody: 64 KiB, 64 levels deep) and hands the POST to the SDK, as its reference servers do:
 *
 * - the 2025 era (initialize handshake, 2025-11-25 back to 2024-11-05): a fresh server and a
 *   stateless Streamable HTTP transport answering in JSON (the SDK's stateless idiom), both closed
 *   once the POST is answered or the client goes away, after the few rules the SDK leaves to us
 *   (McpTransportRules); a single read-only request answered before is answered from McpAnswers;
 * - the 2026-07-28 era (server/discover, a `_meta` envelope on every request): the SDK's own entry,
 *   `createMcpHandler`, strict about that era.
 *
 * The SDK's own classification decides which, as the entry itself would. Either answer is a web
 * `Response` the handler returns and Nest writes (its status and headers, with the common headers the
 * interceptor set); the handler takes the response only to read the body and count a batch
 * (`passthrough`), so an answer the interceptor gives instead (a redirect) is written by Nest too.
 */
@ApiExcludeController()
@Controller(MCP_PATH)
@UseGuards(McpAccessGuard)
export class McpHttpController implements OnApplicationShutdown {
  private readonly logger = new Logger('Mcp');
  private readonly modern = createMcpHandler(() => this.factory.create(), {
    legacy: 'reject',
    // Refusals are answered to the client; only failures of the server are worth a log line.
    onerror: (error) =>
      error.message.startsWith('Rejected') || this.logger.warn(`2026-07-28 request failed: ${error.message}`),
  });

  constructor(
    private readonly factory: McpServerFactory,
    private readonly rules: McpTransportRules,
    private readonly answers: McpAnswers,
    private readonly lanes: McpCallLanes,
  ) {}

  @Post()
  // A remembered answer is bytes Nest sends with the route's status; the SDK's Response carries its own.
  @HttpCode(200)
  async handle(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<globalThis.Response | StreamableFile> {
    const body = await this.rules.readBody(req, res);
    if (!isLegacyPost(req.headers, body)) {
      this.rules.refusePrototypeArguments(body);
      const answer = await this.modern.fetch(await this.webRequest(req, res), { parsedBody: body });
      return isDiscover(body) ? withEveryProtocolVersion(answer) : answer;
    }
    await this.rules.admit(req, res, body);
    const key = this.answers.keyOf(req.headers, body);
    if (key === undefined) return this.answerLegacy(req, await this.webRequest(req, res), body);
    return (
      this.answers.answer(key, body) ??
      this.answers.remember(key, await this.answerLegacy(req, await this.webRequest(req, res), body))
    );
  }

  /** The POST as the SDK reads it; its signal fires if the client goes away before the answer is written. */
  private webRequest(req: Request, res: Response): Promise<globalThis.Request> {
    const gone = new AbortController();
    res.once('close', () => res.writableFinished || gone.abort());
    return toWebRequest(req, req.body, { signal: gone.signal });
  }

  /**
   * The 2025-era answer: a fresh server and stateless transport for this POST, closed once it answered;
   * its calls run in the client's lane (McpCallLanes).
   */
  private async answerLegacy(req: Request, request: globalThis.Request, body: unknown): Promise<globalThis.Response> {
    const server = this.factory.create();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const close = () => {
      void transport.close();
      void server.close();
    };
    request.signal.addEventListener('abort', close, { once: true });
    try {
      await server.connect(transport);
      this.rules.refuseOversizedParams(transport);
      this.factory.refusePrototypeArguments(transport);
      this.lanes.pace(transport, clientKey(req), request.signal);
      return this.rules.batchAnswer(body, await transport.handleRequest(request, { parsedBody: body }));
    } finally {
      close();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.modern.close();
  }

  /** GET (no SSE stream to open), DELETE (no session to end) and anything else. */
  @All()
  refuse(@Req() req: Request): never {
    throw mcpMethodNotAllowed(req.method);
  }
}
