import { Injectable } from '@nestjs/common';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { AppConfig } from '../config/app-config.js';
import { DatasetService } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';

/**
 * Methods whose answer is a function of the request (method and params) and the dataset version:
 * every tool is read-only, lists and resources come from the dataset, and initialize answers by the
 * protocol version it is asked for.
 */
const CACHEABLE: ReadonlySet<string> = new Set([
  'initialize',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
]);

/**
 * Error codes that are a function of the request alone (method not found, invalid params) and so may
 * be remembered; an internal error (-32603) or a shutdown (-32000) never is.
 */
const DETERMINISTIC_ERRORS: ReadonlySet<number> = new Set([-32601, -32602]);

/** What the server answered, as the dispatcher serializes it: `{"jsonrpc":"2.0","id":<id>,...}`. */
const HEAD = '{"jsonrpc":"2.0","id":';

/** A remembered answer: `{"jsonrpc":"2.0","id":<the caller's id>` and the UTF-8 bytes after it. */
export interface RememberedAnswer {
  head: string;
  tail: Buffer;
}

/** Answers requests the cache could not: in order, undefined where the client went away. */
export type Serve = (requests: readonly JSONRPCRequest[]) => Promise<(string | undefined)[]>;

/**
 * The serialized answers of MCP requests, remembered per dataset version and keyed by the canonical
 * request: the method, its params with every object's keys sorted (the id left out), and the
 * MCP-Protocol-Version header the request declared. A miss is answered by the server (full SDK input
 * and output validation) and its bytes after the id are kept; a hit is those bytes behind the
 * caller's id, without the SDK. An LRU bounded by MCP_ANSWER_CACHE_BYTES (0 turns it off), dropped
 * when another dataset version is published. Only results and deterministic errors are kept.
 */
@Injectable()
export class McpAnswerCache {
  private readonly budget: number;
  private entries = new Map<string, Buffer>();
  private bytes = 0;
  private snapshot?: DatasetSnapshot;

  constructor(
    config: AppConfig,
    private readonly dataset: DatasetService,
  ) {
    this.budget = config.mcp.answerCacheBytes;
  }

  /** What the remembered keys (characters, mostly ASCII) and answers (UTF-8 bytes) hold. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * Answers `requests` (already checked by the transport rules and for valid params), in order: from
   * memory where it can, through `serve` for the rest.
   */
  async answer(requests: readonly JSONRPCRequest[], protocolVersion: string | string[] | undefined, serve: Serve): Promise<(string | undefined)[]> {
    if (this.budget === 0) return serve(requests);
    const snapshot = this.current();
    const answers: (string | undefined)[] = new Array(requests.length);
    const missing: JSONRPCRequest[] = [];
    const missingAt: number[] = [];
    const keys: (string | undefined)[] = [];
    for (let i = 0; i < requests.length; i++) {
      const request = requests[i];
      const key = CACHEABLE.has(request.method) ? keyOf(request, protocolVersion) : undefined;
      const tail = key === undefined ? undefined : this.hit(key);
      if (tail !== undefined) answers[i] = HEAD + JSON.stringify(request.id) + tail.toString();
      else {
        missing.push(request);
        missingAt.push(i);
        keys.push(key);
      }
    }
    if (missing.length === 0) return answers;
    const served = await serve(missing);
    for (let j = 0; j < served.length; j++) {
      const json = served[j];
      answers[missingAt[j]] = json;
      const key = keys[j];
      // An answer computed while another dataset version was published is not kept.
      if (key !== undefined && json !== undefined && this.snapshot === snapshot && this.dataset.current === snapshot) this.keep(key, missing[j], json);
    }
    return answers;
  }

  /**
   * The answers of `requests` when every one is remembered, in order, or undefined: the front door
   * (McpDoor) answers only a POST it can answer whole. Each answer is its head with the caller's id
   * and the remembered bytes after it, to be written one after the other without joining them.
   */
  remembered(requests: readonly JSONRPCRequest[], protocolVersion: string | string[] | undefined): RememberedAnswer[] | undefined {
    const answers: RememberedAnswer[] = new Array(requests.length);
    for (let i = 0; i < requests.length; i++) {
      const request = requests[i];
      const key = CACHEABLE.has(request.method) ? keyOf(request, protocolVersion) : undefined;
      const answer = key === undefined ? undefined : this.rememberedByKey(key, request.id);
      if (answer === undefined) return undefined;
      answers[i] = answer;
    }
    return answers;
  }

  /** The answer remembered under a request's canonical key (`canonicalKey`), behind the caller's id, or undefined. */
  rememberedByKey(key: string, id: string | number): RememberedAnswer | undefined {
    if (this.budget === 0) return undefined;
    this.current();
    const tail = this.hit(key);
    return tail === undefined ? undefined : { head: HEAD + JSON.stringify(id), tail };
  }

  private current(): DatasetSnapshot {
    const current = this.dataset.current;
    if (this.snapshot !== current) {
      this.snapshot = current;
      this.entries = new Map();
      this.bytes = 0;
    }
    return current;
  }

  private hit(key: string): Buffer | undefined {
    const tail = this.entries.get(key);
    if (tail === undefined) return undefined;
    // Least recently used first: a hit moves to the end.
    this.entries.delete(key);
    this.entries.set(key, tail);
    return tail;
  }

  private keep(key: string, request: JSONRPCRequest, json: string): void {
    const head = HEAD + JSON.stringify(request.id);
    if (!json.startsWith(head) || !rememberable(json, head.length)) return;
    const tail = Buffer.from(json.slice(head.length));
    const size = key.length + tail.length;
    if (size > this.budget || this.entries.has(key)) return;
    this.entries.set(key, tail);
    this.bytes += size;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= oldest.length + value.length;
    }
  }
}

/** A result, or an error whose code depends on the request alone. */
function rememberable(json: string, from: number): boolean {
  if (json.startsWith(',"result":', from)) return true;
  if (!json.startsWith(',"error":', from)) return false;
  const code = (JSON.parse(json) as { error?: { code?: unknown } }).error?.code;
  return typeof code === 'number' && DETERMINISTIC_ERRORS.has(code);
}

/** The key of a request, or undefined for one too deeply nested to canonicalize (the server refuses it). */
function keyOf(request: JSONRPCRequest, protocolVersion: string | string[] | undefined): string | undefined {
  try {
    return canonicalKey(request, protocolVersion);
  } catch {
    return undefined;
  }
}

/** The request without its id: method, params with sorted keys, and the declared protocol version. */
export function canonicalKey(request: JSONRPCRequest, protocolVersion: string | string[] | undefined): string {
  const version = typeof protocolVersion === 'string' ? protocolVersion : Array.isArray(protocolVersion) ? protocolVersion.join(',') : '';
  return `${version}\n${request.method}\n${canonicalJson(request.params ?? null)}`;
}

/**
 * JSON with every object's keys in sorted order, so that argument order does not split the cache.
 * Built by appending (no per-key arrays) because the front door computes it for every remembered call.
 */
function canonicalJson(value: unknown): string {
  // A number the parser read as non-finite (`1e400` is Infinity) is not `null`, though JSON.stringify writes
  // both so: it keys as a token no JSON text produces, so it never shares an answer with `null`.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!inOrder(keys)) keys.sort();
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** Whether `keys` are already in the order `sort()` would give them (code unit order). */
function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}
