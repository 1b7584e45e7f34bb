import { Injectable, StreamableFile } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { IncomingHttpHeaders } from 'node:http';
import { AppConfig } from '../config/app-config.js';
import { DatasetService } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';

/** Methods whose answer is a function of the request and the dataset version alone (every tool is read-only). */
const REMEMBERED_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
]);

/**
 * What a remembered entry costs the heap besides its two strings: the strings' headers and the cache's
 * own bookkeeping (map entry, list slots). Measured at about 170 bytes with lru-cache 11 on Node 20
 * (the heap a cache of small answers grew by, less their characters); rounded up.
 */
export const ENTRY_OVERHEAD_BYTES = 256;

/** Characters outside Latin-1 make V8 store the whole string with two bytes a character. */
const TWO_BYTE = /[^\u0000-\u00ff]/;

/** Bytes V8 keeps a flat string's characters in: one a character, two if any is outside Latin-1. */
export const heapBytesOf = (text: string): number => (TWO_BYTE.test(text) ? 2 : 1) * text.length;

type JsonRpcId = string | number;
type SingleRequest = { jsonrpc: '2.0'; id: JsonRpcId; method: string; params?: unknown };

const isSingleRequest = (body: unknown): body is SingleRequest => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const message = body as Partial<SingleRequest>;
  return (
    message.jsonrpc === '2.0' &&
    typeof message.method === 'string' &&
    (typeof message.id === 'string' || typeof message.id === 'number')
  );
};

/**
 * Answers of the 2025 era remembered as bytes, so a repeated call skips building a server and running
 * the tool (docs/performance.md has the benchmark row that justifies it). An ordinary bounded LRU
 * (`lru-cache`, `maxSize` in bytes: MCP_ANSWER_CACHE_BYTES, each entry counted at the heap it takes),
 * emptied when a reload starts and whenever another snapshot is served. Only a single request of a read-only method is remembered, and only the SDK transport's
 * successful answer (200, a `result`); the key is everything that answer depends on: the method and
 * params, and the headers the transport reads (MCP-Protocol-Version, Accept, Content-Type). The id is
 * the caller's own, put back into each answer.
 */
@Injectable()
export class McpAnswers {
  private readonly cache?: LRUCache<string, string>;
  /** The snapshot the answers were built from, held weakly: a cache must not keep a replaced dataset alive. */
  private servedFor?: WeakRef<DatasetSnapshot>;

  constructor(
    config: AppConfig,
    private readonly dataset: DatasetService,
  ) {
    const maxSize = config.mcp.answerCacheBytes;
    if (maxSize > 0) {
      const cache = new LRUCache<string, string>({
        maxSize,
        sizeCalculation: (result, key) => heapBytesOf(result) + heapBytesOf(key) + ENTRY_OVERHEAD_BYTES,
      });
      this.cache = cache;
      dataset.onReplace(() => cache.clear());
    }
  }

  /** The key of a POST whose answer may be remembered, or undefined. */
  keyOf(headers: IncomingHttpHeaders, body: unknown): string | undefined {
    if (!this.cache || !isSingleRequest(body) || !REMEMBERED_METHODS.has(body.method)) return undefined;
    return JSON.stringify([
      headers['mcp-protocol-version'] ?? null,
      headers.accept ?? null,
      headers['content-type'] ?? null,
      body.method,
      body.params ?? null,
    ]);
  }

  /** The remembered answer for `key`, with the caller's id, or undefined. */
  answer(key: string, body: unknown): StreamableFile | undefined {
    const result = this.current()?.get(key);
    if (result === undefined) return undefined;
    const text = `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify((body as SingleRequest).id)}}`;
    return new StreamableFile(Buffer.from(text), { type: 'application/json; charset=utf-8' });
  }

  /** Remembers the transport's answer to the request of `key` when it is a success; returns an answer to send. */
  async remember(key: string, answer: globalThis.Response): Promise<globalThis.Response> {
    const cache = this.current();
    if (!cache || answer.status !== 200 || !answer.headers.get('content-type')?.startsWith('application/json'))
      return answer;
    const text = await answer.text();
    const message = JSON.parse(text) as { result?: unknown };
    if (message.result !== undefined) cache.set(key, JSON.stringify(message.result));
    return new Response(text, { status: answer.status, headers: answer.headers });
  }

  /** Bytes the remembered answers hold, as the cache counts them. */
  get size(): number {
    return this.cache?.calculatedSize ?? 0;
  }

  /**
   * The cache, emptied first if another snapshot is served than the one its answers were built from
   * (the daily ageing; a reload has emptied it already, through DatasetService.onReplace).
   */
  private current(): LRUCache<string, string> | undefined {
    const snapshot = this.dataset.current;
    if (this.cache && this.servedFor?.deref() !== snapshot) {
      this.cache.clear();
      this.servedFor = new WeakRef(snapshot);
    }
    return this.cache;
  }
}
