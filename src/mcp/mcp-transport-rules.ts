import { Injectable } from '@nestjs/common';
import {
  isJsonContentType,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from 'express';
import { RateLimiter } from '../common/rate-limit/rate-limiter.js';
import { HttpProblem } from '../common/errors/http-problem.js';
import { payloadTooLarge } from '../common/errors/problems.js';
import { MCP_BODY_LIMIT_BYTES } from '../common/http/mcp-path.js';
import { TOOLS } from './tools/index.js';

/**
 * The most messages one batch may hold: the SDK transport's own bound (its `MAX_BATCH_SIZE`, not
 * exported), checked here as well because a batch is counted against the limit before the transport
 * reads it, and a batch the transport will refuse must not cost its sender a hundred requests.
 */
export const MAX_BATCH_SIZE = 100;

/** The first protocol revision without JSON-RPC batching (2025-06-18 removed it; 2025-03-26 had it). */
export const FIRST_BATCHLESS_VERSION = '2025-06-18';

/**
 * The largest params one request may carry, as JSON. The longest argument of any tool (a search query,
 * a workload description) is a few hundred characters; this bounds what one call of a batch may ask
 * the server to parse and validate.
 */
export const MAX_PARAMS_BYTES = 16 * 1024;

/**
 * The deepest a /mcp body may nest arrays and objects. No MCP message of this server's nests beyond a
 * dozen levels; a deeper body is refused from its bytes, before JSON.parse spends time on it (a 1 MB
 * nested array took some 300 ms to parse) and before the SDK's Node adapter writes it out again
 * (`toWebRequest`, which overflows the stack a few thousand levels down).
 */
export const MAX_BODY_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether JSON text nests arrays and objects more than `max` levels deep, read from its bytes in one
 * pass without parsing (brackets inside strings do not count). Text that is not JSON is left to the parser.
 */
export function nestsDeeperThan(json: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (OPENERS.has(byte)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(byte)) depth--;
  }
  return false;
}

/** The refusals of these rules, answered as JSON-RPC errors by the error filter like every other /mcp problem. */
const mcpProblems = {
  unsupportedMediaType: () =>
    new HttpProblem(
      415,
      'bad_request',
      'Unsupported Media Type: Content-Type must be application/json.',
      'Send the JSON-RPC message as a JSON body with Content-Type: application/json.',
    ),
  batchTooLarge: (max: number) =>
    new HttpProblem(
      400,
      'bad_request',
      `Invalid Request: a batch may hold at most ${max} messages.`,
      `Split the batch into batches of at most ${max}.`,
    ),
  batchRemoved: (version: string) =>
    new HttpProblem(
      400,
      'bad_request',
      `Invalid Request: protocol revision ${version} has no JSON-RPC batches.`,
      'Send one JSON-RPC message per POST (batches exist only in revision 2025-03-26, the default when no MCP-Protocol-Version header is sent).',
    ),
  nestedTooDeeply: (max: number) =>
    new HttpProblem(
      400,
      'bad_request',
      `Invalid Request: the body nests more than ${max} levels deep.`,
      'Send arguments as flat values, lists and small objects.',
    ),
  prototypeArgument: (tool: string, valid: readonly string[]) =>
    new HttpProblem(
      400,
      'bad_request',
      `Invalid params: Unknown argument "__proto__" for tool ${tool}.`,
      `Leave it out. Valid arguments: ${valid.join(', ')}.`,
      {},
      -32602,
    ),
  duplicateIds: () =>
    new HttpProblem(
      400,
      'bad_request',
      'Invalid Request: two requests of the batch have the same id.',
      'Give every request of a batch its own id.',
    ),
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isRequest = (value: unknown): value is { id: string | number; method: string; params?: unknown } =>
  isObject(value) && typeof value.method === 'string' && (typeof value.id === 'string' || typeof value.id === 'number');

/**
 * The one body parser of /mcp (Express's: limit, charset, media type, decoding and their errors), with
 * the depth read from the bytes before they are parsed (a refusal thrown by `verify` keeps its status).
 */
const readJson = express.json({
  limit: MCP_BODY_LIMIT_BYTES,
  verify: (_req, _res, bytes) => {
    if (nestsDeeperThan(bytes, MAX_BODY_DEPTH)) throw mcpProblems.nestedTooDeeply(MAX_BODY_DEPTH);
  },
});

/**
 * What the SDK does not do at /mcp, in one place, each rule with its reason: reading the body
 * (media type, size and depth, both eras), then for the 2025 era the batch rules and the count of a batch's further calls (`admit`),
 * an oversized request's params (`refuseOversizedParams`) and the answer to a batch of one
 * (`batchAnswer`). Everything else (Accept, JSON-RPC validation, initialize alone, the protocol
 * version header, notifications-only POSTs, params validity, the answers) is the SDK's.
 */
@Injectable()
export class McpTransportRules {
  constructor(private readonly limiter: RateLimiter) {}

  /**
   * Reads the JSON body of a POST of either era, after the guards counted it and before the SDK
   * classifies it. In order, each before anything costlier: the media type (a composition routing on
   * the SDK's `isLegacyRequest` checks it itself, the SDK's documentation says: the era cannot be read
   * from a body that is not JSON); the size its Content-Length announces (413 at once, the body never
   * read, the connection closed after the answer; a body sent without a length is cut off by the parser
   * at the same limit); the depth, from the bytes (MAX_BODY_DEPTH); then the parse.
   */
  /**
   * A 2026-07-28 `tools/call` whose arguments name `__proto__`: the SDK's own entry copies the arguments
   * before the tool's strict schema sees them, and the copy turns that key into a prototype (or drops
   * it), so the schema never refuses it as it refuses every other unknown argument. Refused here instead,
   * as invalid params (-32602). The 2025-era transport is given the same rule on its messages
   * (McpServerFactory.refusePrototypeArguments).
   */
  refusePrototypeArguments(body: unknown): void {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    const { method, params } = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
    const args = params?.arguments;
    if (method !== 'tools/call' || typeof args !== 'object' || args === null || !Object.hasOwn(args, '__proto__'))
      return;
    const tool = TOOLS.find((t) => t.name === params?.name);
    if (tool) throw mcpProblems.prototypeArgument(tool.name, Object.keys(tool.inputSchema));
  }

  async readBody(req: ExpressRequest, res: ExpressResponse): Promise<unknown> {
    if (!isJsonContentType(req.headers['content-type'])) throw mcpProblems.unsupportedMediaType();
    if (Number(req.headers['content-length']) > MCP_BODY_LIMIT_BYTES) throw payloadTooLarge();
    await new Promise<void>((resolve, reject) =>
      readJson(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error))),
    );
    return req.body as unknown;
  }

  /**
   * Checks a 2025-era POST before the transport reads it; throws the problem that answers it.
   *
   * - A batch over MAX_BATCH_SIZE: refused before it is counted (see MAX_BATCH_SIZE).
   * - A batch under a revision that removed batches (2025-06-18 and later, named by the
   *   MCP-Protocol-Version header): the SDK transport still answers it. A version the SDK does not
   *   support is left to the transport, which names the supported ones.
   * - Two requests of one batch with the same id: the SDK transport keys answers by id and would
   *   answer such a batch with a single object, losing the other answer.
   * - A batch's further requests are counted against the client's limit (the guard counted the POST
   *   once): a batch counted as one request let one client at a third of its quota keep a core busy.
   */
  async admit(req: ExpressRequest, res: ExpressResponse, body: unknown): Promise<void> {
    if (!Array.isArray(body)) return;
    if (body.length > MAX_BATCH_SIZE) throw mcpProblems.batchTooLarge(MAX_BATCH_SIZE);
    const version = req.headers['mcp-protocol-version'];
    if (
      typeof version === 'string' &&
      version >= FIRST_BATCHLESS_VERSION &&
      SUPPORTED_PROTOCOL_VERSIONS.includes(version)
    ) {
      throw mcpProblems.batchRemoved(version);
    }
    const ids = body.filter(isRequest).map((request) => request.id);
    if (new Set(ids).size < ids.length) throw mcpProblems.duplicateIds();
    if (ids.length > 1) await this.limiter.countMore(req, res, ids.length - 1);
  }

  /**
   * A 2025-era answer as JSON-RPC 2.0 writes it: a batch holding a single request answered with an
   * array of one. The SDK transport answers a POST whose requests got one answer with that answer
   * alone, batch or not, and a client matching a batch's answers expects an array.
   */
  async batchAnswer(body: unknown, answer: Response): Promise<Response> {
    if (!Array.isArray(body) || body.filter(isRequest).length !== 1 || answer.status !== 200) return answer;
    const text = await answer.text();
    return new Response(text.startsWith('[') ? text : `[${text}]`, { status: answer.status, headers: answer.headers });
  }

  /**
   * Makes a connected transport answer a request whose params are larger than MAX_PARAMS_BYTES as
   * JSON itself, with -32602, in its place among the answers of a
   * batch, without handing it to the server: the SDK reads params of any size the body allows, and a
   * batch of such calls would have the server parse and validate up to 1 MB a hundred times over.
   * (Params that do not fit a method's schema are the SDK server's: it answers them with -32602.)
   */
  refuseOversizedParams(transport: Transport): void {
    const deliver = transport.onmessage;
    if (!deliver) throw new Error('refuseOversizedParams needs a transport connected to a server');
    transport.onmessage = (message, extra) => {
      const invalid = oversizedParams(message);
      if (invalid) void transport.send(invalid).catch(() => undefined);
      else deliver(message, extra);
    };
  }
}

/** The -32602 answer to a request whose params are over the ceiling, or undefined. */
export function oversizedParams(message: unknown): JSONRPCMessage | undefined {
  if (!isRequest(message) || message.params === undefined) return undefined;
  if (!oversized(message.params)) return undefined;
  const text = `Invalid params for ${message.method}: params: larger than ${MAX_PARAMS_BYTES} bytes as JSON`;
  return { jsonrpc: '2.0', id: message.id, error: { code: ProtocolErrorCode.InvalidParams, message: text } };
}

/** Whether params are larger than MAX_PARAMS_BYTES as JSON (the body's depth is already bounded, so they can be written out). */
const oversized = (params: unknown): boolean => Buffer.byteLength(JSON.stringify(params) ?? '') > MAX_PARAMS_BYTES;
