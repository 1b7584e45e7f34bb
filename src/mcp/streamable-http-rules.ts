import {
  classifyInboundRequest,
  isJsonContentType,
  specTypeSchemas,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpProblem } from '../common/errors/http-problem.js';
import { mcpProblems } from './mcp-problems.js';

/** What the transport rules read of a POST to the MCP endpoint. */
export interface McpPost {
  accept: string | undefined;
  contentType: string | undefined;
  protocolVersion: string | string[] | undefined;
  /** The `Mcp-Method` and `Mcp-Name` headers clients send with 2026-07-28 requests. */
  mcpMethod?: string | string[];
  mcpName?: string | string[];
  /** The parsed JSON body. */
  body: unknown;
}

/** What the rules read of a POST: its headers and the parsed body. */
export function mcpPostOf(headers: IncomingHttpHeaders, body: unknown): McpPost {
  return {
    accept: headers.accept,
    contentType: headers['content-type'],
    protocolVersion: headers['mcp-protocol-version'],
    mcpMethod: headers['mcp-method'],
    mcpName: headers['mcp-name'],
    body,
  };
}

/** What to do with a POST. */
export type McpPostReading =
  | { kind: 'refuse'; problem: HttpProblem }
  /** Notifications or responses only: 202, nothing is handed to the server. */
  | { kind: 'accept' }
  /** Requests to answer, in order; `batch` says whether to answer with an array. */
  | { kind: 'answer'; batch: boolean; requests: JSONRPCRequest[] }
  /**
   * A message of protocol revision 2026-07-28 (its `_meta` envelope names the revision), or one the
   * SDK's era classification refuses (a modern MCP-Protocol-Version header without the envelope, a
   * batch holding a modern request): the SDK's 2026-07-28 entry answers it, refusals included.
   */
  | { kind: 'modern' };

/** The batch limit of the SDK's Streamable HTTP transport (`MAX_BATCH_SIZE` in its requestBody.ts, not exported by v2). */
export const MAX_BATCH_SIZE = 100;

/** The first protocol revision without JSON-RPC batching (2025-06-18 removed it; 2025-03-26 had it). */
export const FIRST_BATCHLESS_VERSION = '2025-06-18';

/** Protocol versions of the 2025 era (initialize handshake): the SDK's list, which names no 2026 revision. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;

/**
 * The Streamable HTTP transport's rules for a POST (MCP 2025-06-18 and 2025-11-25, "Sending messages
 * to the server"), with the SDK's own schema, media-type check, era classification and protocol
 * versions, as a pure function: the client must accept JSON and an event stream; the body must be
 * JSON; a batch holds at most MAX_BATCH_SIZE valid JSON-RPC messages, and only under a revision that
 * has batches (none declared, or 2025-03-26); a message of the 2026-07-28
 * era goes to the SDK's entry for it; initialize comes alone; any other request names a supported
 * MCP-Protocol-Version or none (the default); a POST of notifications only is accepted with nothing
 * to answer.
 */
export function readMcpPost(post: McpPost): McpPostReading {
  const accept = post.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return refuse(mcpProblems.notAcceptable());
  if (!isJsonContentType(post.contentType)) return refuse(mcpProblems.unsupportedMediaType());
  const batch = Array.isArray(post.body);
  const raw: unknown[] = batch ? (post.body as unknown[]) : [post.body];
  if (raw.length > MAX_BATCH_SIZE) return refuse(mcpProblems.batchTooLarge(MAX_BATCH_SIZE));
  const messages: JSONRPCMessage[] = [];
  for (const item of raw) {
    const parsed = specTypeSchemas.JSONRPCMessage['~standard'].validate(item);
    if (parsed instanceof Promise || parsed.issues) return refuse(mcpProblems.invalidMessage());
    messages.push(parsed.value as JSONRPCMessage);
  }
  if (messages.length === 0) return refuse(mcpProblems.invalidMessage());
  const era = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: single(post.protocolVersion),
    mcpMethodHeader: single(post.mcpMethod),
    mcpNameHeader: single(post.mcpName),
    body: post.body,
  });
  if (era.kind !== 'legacy') return { kind: 'modern' };
  const requests = messages.filter(isRequest);
  if (requests.some((m) => m.method === 'initialize')) {
    if (messages.length > 1) return refuse(mcpProblems.lonelyInitialize());
  } else if (typeof post.protocolVersion === 'string' && !LEGACY_PROTOCOL_VERSIONS.includes(post.protocolVersion)) {
    return refuse(mcpProblems.unsupportedVersion(post.protocolVersion, LEGACY_PROTOCOL_VERSIONS));
  }
  // ISO dates compare as strings.
  if (batch && typeof post.protocolVersion === 'string' && post.protocolVersion >= FIRST_BATCHLESS_VERSION) {
    return refuse(mcpProblems.batchRemoved(post.protocolVersion));
  }
  // Nothing is kept per client, so notifications are not handed to the server: a cancellation could
  // otherwise name another client's request.
  if (requests.length === 0) return { kind: 'accept' };
  return { kind: 'answer', batch, requests };
}

const single = (header: string | string[] | undefined) => (Array.isArray(header) ? header.join(', ') : header);
const refuse = (problem: HttpProblem): McpPostReading => ({ kind: 'refuse', problem });
