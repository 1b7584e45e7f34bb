import { Injectable } from '@nestjs/common';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { AppConfig } from '../config/app-config.js';
import type { IncomingHttpHeaders } from 'node:http';
import { DatasetService } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { canonicalKey, vettingKeyOf } from './mcp-request-keys.js';

/** Verdicts (below) remembered at most per dataset version; each key is at most 2 KiB. */
const VERDICTS = 256;

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
 *
 * Beside the answers it keeps the controller's verdicts (`recordVerdict`): the single requests it
 * answered in full, by what its rules read of them (`vettingKeyOf`: Host, Origin, Accept,
 * Content-Type and the request without its id). The replay cache in front of Express answers a POST
 * whose verdict and answer are both remembered (`replay`) without applying the rules again; anything
 * else goes to the controller. This is the one MCP cache: a repeated call does no rule checks, no
 * tool work and no serialization.
 */
@Injectable()
export class McpAnswerCache {
  private readonly budget: number;
  private entries = new Map<string, Buffer>();
  private verdicts = new Set<string>();
  private bytes = 0;
  private snapshot?: DatasetSnapshot;

  constructor(
    config: AppConfig,
    private readonly dataset: DatasetService,
  ) {
    this.budget = 8_388_608;
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

  /** The answer remembered under a request's canonical key (`canonicalKey`), behind the caller's id, or undefined. */
  private rememberedByKey(key: string, id: string | number): RememberedAnswer | undefined {
    if (this.budget === 0) return undefined;
    this.current();
    const tail = this.hit(key);
    return tail === undefined ? undefined : { head: HEAD + JSON.stringify(id), tail };
  }

  /**
   * Records that the controller answered this single request (its body and the headers its rules
   * read), after every rule passed; the answer itself was kept by `answer`.
   */
  recordVerdict(headers: IncomingHttpHeaders, body: unknown): void {
    if (this.budget === 0) return;
    const vetting = vettingKeyOf(headers, body);
    if (vetting === undefined) return;
    this.current();
    if (this.verdicts.has(vetting.key)) return;
    if (this.verdicts.size >= VERDICTS) this.verdicts.delete(this.verdicts.values().next().value!);
    this.verdicts.add(vetting.key);
  }

  /**
   * The controller's answer to a POST of one request, replayed behind the caller's id, when the
   * controller answered a request with the same verdict key and its answer is still remembered.
   */
  replay(headers: IncomingHttpHeaders, body: unknown): RememberedAnswer | undefined {
    if (this.budget === 0) return undefined;
    const vetting = vettingKeyOf(headers, body);
    if (vetting === undefined) return undefined;
    this.current();
    if (!this.verdicts.has(vetting.key)) return undefined;
    return this.rememberedByKey(vetting.canonical, (body as JSONRPCRequest).id);
  }

  private current(): DatasetSnapshot {
    const current = this.dataset.current;
    if (this.snapshot !== current) {
      this.snapshot = current;
      this.entries = new Map();
      this.verdicts = new Set();
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
