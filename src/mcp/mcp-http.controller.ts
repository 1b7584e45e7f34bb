import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { mcpMethodNotAllowed } from '../common/errors/problems.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { invalidParams } from './request-params.js';

/**
 * The MCP endpoint over Streamable HTTP, stateless: each POST gets a fresh server and transport (no
 * session ids), so any replica can answer any request without sticky sessions. Answers are plain
 * JSON responses. Nest has already parsed the body (1 MB limit); it is handed to the transport.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpHttpController {
  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    const invalid = invalidParams(req.body);
    if (invalid) {
      res.status(200).json(invalid);
      return;
    }
    const server = this.servers.create();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** GET (no SSE stream to open), DELETE (no session to end) and anything else. */
  @All()
  refuse(@Req() req: Request): never {
    throw mcpMethodNotAllowed(req.method);
  }
}
