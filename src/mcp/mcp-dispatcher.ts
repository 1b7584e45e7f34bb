import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { McpServerFactory } from './mcp-server.factory.js';

/** What the server answered to one request: a result or an error, without its id. */
type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

/**
 * The SDK's Transport interface, fed in process by the HTTP endpoint: one connected server answers
 * the requests of every POST. Each request gets an id of its own on the way in (callers reuse ids
 * freely, so theirs would collide) and the answer is matched back by that id.
 */
class InProcessTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private nextId = 0;
  private readonly pending = new Map<number, (answer: Answer) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const resolve of this.pending.values()) resolve({ error: { code: -32000, message: 'The server is shutting down.' } });
    this.pending.clear();
    this.onclose?.();
  }

  /** Hands one request to the server; resolves with its answer, or undefined if `signal` fired first. */
  request(message: JSONRPCRequest, signal: AbortSignal): Promise<Answer | undefined> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const abandon = () => {
        if (!this.pending.delete(id)) return;
        resolve(undefined);
        // The handler's AbortSignal fires; whatever it would still answer is dropped.
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'The HTTP request was closed.' } });
      };
      this.pending.set(id, (answer) => {
        signal.removeEventListener('abort', abandon);
        resolve(answer);
      });
      signal.addEventListener('abort', abandon, { once: true });
      this.onmessage?.({ ...message, id });
    });
  }

  /**
   * Called by the server with its answers. Notifications and requests from the server have no stream
   * to travel on in a stateless POST/JSON exchange, and none are promised (no listChanged, no
   * sampling), so they are dropped.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message || !('id' in message)) return;
    const resolve = this.pending.get(message.id as number);
    if (!resolve) return;
    this.pending.delete(message.id as number);
    resolve('result' in message ? { result: message.result as Record<string, unknown> } : { error: message.error });
  }
}

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
