import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { InProcessTransport, type Answer } from './in-process-transport.js';
import { McpServerFactory } from './mcp-server.factory.js';

/**
 * One MCP server for the process, built at start and connected to the in-process transport. It
 * holds no per-client state: tools read the dataset version being served, the server declares no
 * capability that would need a stream back to the client, and client notifications (initialized,
 * cancelled, progress) are not forwarded, so one client can never touch another's requests. This
 * replaces a server and a Streamable HTTP transport built for every POST (the SDK's stateless
 * pattern), which cost most of an MCP call: see the README's Performance section.
 */
@Injectable()
export class McpDispatcher implements OnModuleInit, OnApplicationShutdown {
  private readonly transport = new InProcessTransport();
  private server?: McpServer;

  constructor(private readonly factory: McpServerFactory) {}

  async onModuleInit(): Promise<void> {
    this.server = this.factory.create();
    await this.server.connect(this.transport);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }

  /**
   * Answers the requests of one POST, in order, as JSON-RPC responses carrying the caller's ids. An
   * answer still missing when `signal` fires (the client went away) is undefined.
   */
  async answer(requests: readonly JSONRPCRequest[], signal: AbortSignal): Promise<(string | undefined)[]> {
    const answers = await Promise.all(requests.map((message) => this.transport.request(message, signal)));
    return answers.map((answer, i) => answer && this.serialize(requests[i].id, answer));
  }

  private serialize(id: RequestId, answer: Answer): string {
    return JSON.stringify({ jsonrpc: '2.0', id, ...answer });
  }
}
