import { All, Controller, Logger, type OnApplicationShutdown, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createMcpHandler, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import express, { type Request, type Response } from 'express';
import { mcpMethodNotAllowed } from '../common/errors/problems.js';
import { MCP_PATH } from '../common/http/mcp-path.js';
import { McpAccessGuard } from './mcp-access.guard.js';
import { isLegacyPost } from './mcp-era.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { McpTransportRules } from './mcp-transport-rules.js';
import { isDiscover, withEveryProtocolVersion } from './server-discover.js';

/** Largest JSON-RPC body accepted on /mcp; larger ones get 413 before they are read in full. */
export const MCP_BODY_LIMIT = '1mb';

/** The one body parser of /mcp (Express's: limit, charset, media type, decoding and their errors). */
const readJson = express.json({ limit: MCP_BODY_LIMIT });

/**
 * The MCP endpoint: Streamable HTTP without sessions, each POST answered on its own, so any replica
 * answers any request. The rate-limit guard has counted the POST and McpAccessGuard checked Host and
 * Origin before the handler runs; the handler then reads the body (1 MB) and hands the POST to the
 * SDK, as its reference servers do:
 *
 * - the 2025 era (initialize handshake, 2025-11-25 back to 2024-11-05): a fresh server and a
 *   stateless Streamable HTTP transport answering in JSON (the SDK's stateless idiom), both closed
 *   once the POST is answered or the client goes away, after the few rules the SDK leaves to us
 *   (McpTransportRules);
 * - the 2026-07-28 era (server/discover, a `_meta` envelope on every request): the SDK's own entry,
 *   `createMcpHandler`, strict about that era.
 *
 * The SDK's own classification decides which, as the entry itself would, and the SDK's Node adapter
 * (`toNodeHandler`) writes either answer; the headers the interceptor set stay on it. The web-standard
 * transport is used rather than the Node one so that an answer can be mended before it is written
 * (McpTransportRules.batchAnswer).
 */
@ApiExcludeController()
@Controller(MCP_PATH)
@UseGuards(McpAccessGuard)
export class McpHttpController implements OnApplicationShutdown {
  private readonly logger = new Logger('Mcp');
  private readonly modern = createMcpHandler(() => this.factory.create(), {
    legacy: 'reject',
    // Refusals are answered to the client; only failures of the server are worth a log line.
    onerror: (error) => error.message.startsWith('Rejected') || this.logger.warn(`2026-07-28 request failed: ${error.message}`),
  });
  /** The 2026-07-28 entry as a Node handler (the SDK's adapter writes its answer to the response). */
  private readonly answerModern: NodeMcpRequestHandler = toNodeHandler({
    fetch: async (request, options) => {
      const answer = await this.modern.fetch(request, options);
      return isDiscover(options?.parsedBody) ? withEveryProtocolVersion(answer) : answer;
    },
  });

  /** The 2025-era answer: a fresh server and stateless transport for this POST, closed once it answered. */
  private readonly answerLegacy: NodeMcpRequestHandler = toNodeHandler({
    fetch: async (request, options) => {
      const server = this.factory.create();
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const close = () => {
        void transport.close();
        void server.close();
      };
      request.signal.addEventListener('abort', close, { once: true });
      try {
        await server.connect(transport);
        this.rules.refuseOversizedParams(transport);
        return this.rules.batchAnswer(options?.parsedBody, await transport.handleRequest(request, { parsedBody: options?.parsedBody }));
      } finally {
        close();
      }
    },
  });

  constructor(
    private readonly factory: McpServerFactory,
    private readonly rules: McpTransportRules,
  ) {}

  @Post()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    await new Promise<void>((resolve, reject) => readJson(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error))));
    const body: unknown = req.body;
    this.rules.checkBody(req.headers['content-type'], body);
    if (!isLegacyPost(req.headers, body)) return this.answerModern(req, res, body);
    await this.rules.admit(req, res, body);
    return this.answerLegacy(req, res, body);
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
