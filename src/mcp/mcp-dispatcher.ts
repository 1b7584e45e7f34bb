import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createMcpHandler, type JSONRPCRequest, type McpHttpHandler, type McpServer, type RequestId } from '@modelcontextprotocol/server';
import { InProcessTransport, type Answer } from './in-process-transport.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { PROTOCOL_VERSIONS } from './server-info.js';

/** What the 2026-07-28 entry answered: status, headers and body, ready to write. */
export interface ModernAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * Serves both protocol eras. The 2025 era (initialize handshake, 2025-11-25 back to 2025-03-26):
 * one MCP server for the process, built at start and connected to the in-process transport. It
 * holds no per-client state: tools read the dataset version being served, the server declares no
 * capability that would need a stream back to the client, and client notifications (initialized,
 * cancelled, progress) are not forwarded, so one client can never touch another's requests. This
 * replaces a server and a Streamable HTTP transport built for every POST (the SDK's stateless
 * pattern), which cost most of an MCP call: see docs/performance.md.
 *
 * The 2026-07-28 era (server/discover, a `_meta` envelope on every request, no handshake): the
 * SDK's own entry, `createMcpHandler`, which checks the envelope and the standard headers and
 * binds a server to the revision for each request. Its servers come from a pool of instances the
 * same factory built, so the tools, schemas, validator and memo are the legacy server's.
 */
@Injectable()
export class McpDispatcher implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Mcp');
  private readonly transport = new InProcessTransport();
  private server?: McpServer;
  private readonly idle: McpServer[] = [];
  private readonly modern: McpHttpHandler;

  constructor(private readonly factory: McpServerFactory) {
    this.modern = createMcpHandler(() => this.pooledServer(), {
      legacy: 'reject',
      // Refusals are answered to the client; only failures of the server are worth a log line.
      onerror: (error) => error.message.startsWith('Rejected') || this.logger.warn(`2026-07-28 request failed: ${error.message}`),
    });
  }

  async onModuleInit(): Promise<void> {
    this.server = this.factory.create();
    await this.server.connect(this.transport);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.modern.close();
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

  /** Answers one POST of the 2026-07-28 era through the SDK's entry; `body` is the JSON Nest parsed. */
  async answerModern(url: string, headers: Headers, body: unknown, signal: AbortSignal): Promise<ModernAnswer> {
    const response = await this.modern.fetch(new Request(url, { method: 'POST', headers, signal }), { parsedBody: body });
    const answer = { status: response.status, headers: [...response.headers], body: await response.text() };
    return isDiscover(body) ? withEveryProtocolVersion(answer) : answer;
  }

  /**
   * A server for one 2026-07-28 exchange: an idle one from the pool, or a new one. The entry binds
   * it to the revision and connects it; it goes back to the pool when the exchange closes it.
   */
  private pooledServer(): McpServer {
    const server = this.idle.pop() ?? this.factory.create();
    const previous = server.server.onclose;
    server.server.onclose = () => {
      server.server.onclose = previous;
      previous?.();
      if (this.idle.length < POOL_SIZE) this.idle.push(server);
    };
    return server;
  }

  private serialize(id: RequestId, answer: Answer): string {
    return JSON.stringify({ jsonrpc: '2.0', id, ...answer });
  }
}

const isDiscover = (body: unknown) => typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'server/discover';

/**
 * A server/discover answer whose `supportedVersions` names every version this server speaks. The
 * SDK lists only the 2026-era revisions there (the 2025 ones are negotiated at initialize), but a
 * client deciding how to talk to this endpoint should see both eras, as the server card does.
 * Clients pick from the list the revisions they know, so the added 2025 versions change no choice.
 */
function withEveryProtocolVersion(answer: ModernAnswer): ModernAnswer {
  let message: { result?: { supportedVersions?: unknown } };
  try {
    message = JSON.parse(answer.body);
  } catch {
    return answer; // not a JSON answer (an event stream): left as the SDK wrote it
  }
  const listed = message.result?.supportedVersions;
  if (!Array.isArray(listed)) return answer;
  message.result!.supportedVersions = [...new Set([...listed, ...PROTOCOL_VERSIONS])];
  return { ...answer, headers: answer.headers.filter(([name]) => name.toLowerCase() !== 'content-length'), body: JSON.stringify(message) };
}

/** Idle 2026-07-28 servers kept for reuse: enough for the requests two cores serve at once. */
const POOL_SIZE = 16;
