import { Injectable } from '@nestjs/common';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { MCP_PATH } from '../common/http/mcp-path.js';
import { AppConfig } from '../config/app-config.js';
import { DatasetService } from '../dataset/dataset.service.js';
import { McpAccessMiddleware } from './mcp-access.middleware.js';
import { canonicalKey, McpAnswerCache, type RememberedAnswer } from './mcp-answer-cache.js';
import type { JsonChunks } from '../common/http/front-door.js';
import { readMcpBody } from './mcp-body.js';
import { invalidParams } from './request-params.js';
import { mcpPostOf, readMcpPost } from './streamable-http-rules.js';

/**
 * Bodies up to this size are read at the door; a larger POST (a long batch) goes to Express
 * unread. Every single call of the published tools fits in far less.
 */
const DOOR_BODY_BYTES = 64 * 1024;

/** Messages vetted (below) at most, and the longest vetted key: at most 512 KiB of keys in all. */
const VETTED_MESSAGES = 256;
const VETTED_KEY_CHARS = 2048;

/**
 * Remembered MCP answers at the front door (request-pipeline.ts, step 2), so a repeated call costs
 * about what a remembered document does instead of Express, Nest's middleware and the controller.
 * It applies the endpoint's own rules in the endpoint's order and hands everything it does not
 * answer to Express, which then applies them again:
 *
 * - before the body is read: an exact `POST /mcp` (no query), Host and Origin allowed
 *   (McpAccessMiddleware), a `Content-Length` within DOOR_BODY_BYTES, no content coding;
 * - the body, read by the endpoint's own parser (`readMcpBody`: limit, charset, media type); the
 *   outcome goes on with the request, so Express does not read it again;
 * - the transport rules (`readMcpPost`: Accept, media type, message schema, era, protocol version,
 *   batch size) and each request's params (`invalidParams`), as the controller applies them;
 * - every request of the POST remembered (McpAnswerCache, same key and bytes as the controller).
 *
 * The rules' verdict on a single request depends on its headers, its id's type and the request
 * without its id, nothing else; so once a request has passed them, a later one that differs only in
 * a well-formed id (`vetted`) skips the schema checks, the costliest part of a remembered call.
 *
 * Only then is the POST answered here, after the count and the admission decision like any answer
 * at the door. The answer is the controller's: status 200, `Content-Type: application/json`, the
 * same body (a test compares the two paths' bytes and headers). The access log's duration starts
 * once the body is in.
 */
@Injectable()
export class McpDoor {
  private readonly enabled: boolean;
  /** Requests that passed every rule, by Accept, Content-Type and canonical request (most recent last). */
  private readonly vetted = new Set<string>();

  constructor(
    config: AppConfig,
    private readonly dataset: DatasetService,
    private readonly access: McpAccessMiddleware,
    private readonly answers: McpAnswerCache,
  ) {
    this.enabled = config.mcp.answerCacheBytes > 0;
  }

  /** The route template the controller's answers are logged and counted under. */
  readonly route = MCP_PATH;

  /** Whether to read this request's body at the door: headers only, nothing is read yet. */
  wants(req: IncomingMessage): boolean {
    if (!this.enabled || req.method !== 'POST' || req.url !== MCP_PATH || !this.dataset.isLoaded) return false;
    const headers = req.headers;
    const length = headers['content-length'];
    if (length === undefined || !(Number(length) <= DOOR_BODY_BYTES)) return false;
    if (headers['content-encoding'] !== undefined && headers['content-encoding'] !== 'identity') return false;
    return this.access.allows(headers);
  }

  /**
   * Reads the body and calls `done` with the answer to write when every request of the POST is
   * remembered, or with undefined to hand the request (its body read) to Express.
   */
  answer(req: IncomingMessage, res: ServerResponse, done: (body: JsonChunks | undefined) => void): void {
    readMcpBody(req, res, (error) => done(error === undefined ? this.remembered(req) : undefined));
  }

  private remembered(req: IncomingMessage): JsonChunks | undefined {
    const headers = req.headers;
    const body = (req as IncomingMessage & { body?: unknown }).body;
    const vetting = vettingKeyOf(headers, body);
    if (vetting !== undefined && this.vetted.has(vetting.key)) {
      const answer = this.answers.rememberedByKey(vetting.canonical, (body as JSONRPCRequest).id);
      return answer && chunksOf(false, [answer]);
    }
    const reading = readMcpPost(mcpPostOf(headers, body));
    if (reading.kind !== 'answer') return undefined;
    const { batch, requests } = reading;
    for (const request of requests) if (invalidParams(request)) return undefined;
    const answers = this.answers.remembered(requests, headers['mcp-protocol-version']);
    if (answers === undefined) return undefined;
    if (vetting !== undefined) this.vet(vetting.key);
    return chunksOf(batch, answers);
  }

  private vet(key: string): void {
    if (this.vetted.size >= VETTED_MESSAGES) this.vetted.delete(this.vetted.values().next().value!);
    this.vetted.add(key);
  }
}

/**
 * What the transport rules' verdict on a single request depends on, as one string (`key`; with the
 * answer cache's key of the request, `canonical`, inside it), or undefined
 * when the door must apply them in full: a batch; a body with other members than `jsonrpc`, `id`,
 * `method` and `params`; an id the message schema would not take as it is (a string or a safe
 * integer); `params` that is not an object (null is keyed as absent); the 2026-07-28 method headers;
 * a key too long to keep. The rest of the verdict rests on the headers and the request without its
 * id, which the key holds: Accept, Content-Type, and the answer cache's canonical key (the declared
 * protocol version, the method, the params with sorted keys).
 */
export function vettingKeyOf(headers: IncomingHttpHeaders, body: unknown): { key: string; canonical: string } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return undefined;
  const message = body as Record<string, unknown>;
  let members = 0;
  for (const name in message) {
    if (name !== 'jsonrpc' && name !== 'id' && name !== 'method' && name !== 'params') return undefined;
    members++;
  }
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || members !== (params === undefined ? 3 : 4)) return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return undefined;
  let canonical: string;
  try {
    canonical = canonicalKey(message as unknown as JSONRPCRequest, headers['mcp-protocol-version']);
  } catch {
    return undefined;
  }
  const key = `${headers.accept}\n${headers['content-type']}\n${canonical}`;
  return key.length <= VETTED_KEY_CHARS ? { key, canonical } : undefined;
}

/** A JSON-RPC answer (a batch's in brackets) as pieces: each answer's head with the id, then its remembered bytes. */
function chunksOf(batch: boolean, answers: readonly RememberedAnswer[]): JsonChunks {
  // The remembered bytes are written as they are, behind each caller's id: no string is built.
  const chunks: (string | Buffer)[] = [];
  let length = 0;
  const add = (chunk: string | Buffer) => {
    chunks.push(chunk);
    length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  };
  if (batch) add('[');
  answers.forEach(({ head, tail }, i) => {
    if (i > 0) add(',');
    add(head);
    add(tail);
  });
  if (batch) add(']');
  return { chunks, length };
}
