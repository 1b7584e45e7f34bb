import type { AppConfig } from '../config/app-config';
import type { DatasetService } from '../dataset/dataset.service';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ENTRY_OVERHEAD_BYTES, heapBytesOf, McpAnswers } from './mcp-answers';

const headers = {
  'mcp-protocol-version': '2025-06-18',
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};
const call = (id: string | number, args: Record<string, unknown> = { id: 'hetzner' }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_vps_provider', arguments: args },
});
const sdkAnswer = (id: string | number, result: unknown, status = 200) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function answers(bytes = 1_000_000) {
  const releases: (() => void)[] = [];
  const dataset = {
    current: { version: 'a' } as unknown,
    onReplace: (release: () => void) => releases.push(release),
    replacing: () => releases.forEach((release) => release()),
  };
  const store = new McpAnswers(
    { mcp: { answerCacheBytes: bytes } } as unknown as AppConfig,
    dataset as unknown as DatasetService,
  );
  return { store, dataset };
}

const text = async (file: { getStream(): NodeJS.ReadableStream } | undefined) => {
  if (!file) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of file.getStream()) chunks.push(Buffer.from(chunk as Buffer));
  return JSON.parse(Buffer.concat(chunks).toString());
};

describe(McpAnswers.name, () => {
  it("answers a repeated call from memory, with the caller's own id", async () => {
    const { store } = answers();
    const key = store.keyOf(headers, call(1))!;
    expect(store.answer(key, call(1))).toBeUndefined();
    await store.remember(key, sdkAnswer(1, { content: [] }));
    expect(await text(store.answer(store.keyOf(headers, call('x'))!, call('x')))).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      result: { content: [] },
    });
  });

  it('keys on everything the answer depends on: params and the headers the transport reads', () => {
    const { store } = answers();
    const key = store.keyOf(headers, call(1));
    expect(store.keyOf(headers, call(1, { id: 'vultr' }))).not.toBe(key);
    expect(store.keyOf({ ...headers, 'mcp-protocol-version': '2025-11-25' }, call(1))).not.toBe(key);
    expect(store.keyOf({ ...headers, accept: 'application/json' }, call(1))).not.toBe(key);
  });

  it('remembers only single requests of read-only methods, and only successful answers', async () => {
    const { store } = answers();
    expect(store.keyOf(headers, [call(1)])).toBeUndefined();
    expect(store.keyOf(headers, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toBeUndefined();
    expect(store.keyOf(headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    const key = store.keyOf(headers, call(1))!;
    await store.remember(
      key,
      new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'no' } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await store.remember(key, sdkAnswer(1, { content: [] }, 400));
    expect(store.answer(key, call(1))).toBeUndefined();
  });

  it('forgets every answer when another dataset version is served', async () => {
    const { store, dataset } = answers();
    const key = store.keyOf(headers, call(1))!;
    await store.remember(key, sdkAnswer(1, { content: [] }));
    dataset.current = { version: 'b' };
    expect(store.answer(key, call(1))).toBeUndefined();
  });

  it('forgets every answer when a replacement of the dataset begins, before the new version is read', async () => {
    const { store, dataset } = answers();
    const key = store.keyOf(headers, call(1))!;
    await store.remember(key, sdkAnswer(1, { content: [] }));
    expect(store.size).toBeGreaterThan(0);
    dataset.replacing();
    expect(store.size).toBe(0);
    expect(store.answer(key, call(1))).toBeUndefined();
  });

  it('counts strings at the bytes V8 keeps them in: two a character once one is outside Latin-1', () => {
    expect(heapBytesOf('abc')).toBe(3);
    expect(heapBytesOf('caf\u00e9')).toBe(4);
    expect(heapBytesOf('a \u2014 b')).toBe(10);
    expect(heapBytesOf('\u{1f600}')).toBe(4);
  });

  it('holds no more heap than its budget says, answers in two-byte strings included', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const budget = 4 * 1024 * 1024;
    const { store } = answers(budget);
    // Answers of a few hundred characters, one of them outside Latin-1 (a dash, as guide texts have).
    const prose = 'Plans are listed cheapest first; '.repeat(15);
    const fill = async (from: number, to: number) => {
      for (let i = from; i < to; i++)
        await store.remember(
          store.keyOf(headers, call(1, { id: `provider-${i}` }))!,
          sdkAnswer(1, { content: [{ type: 'text', text: `${prose}provider-${i} \u2014 ${prose}` }] }),
        );
    };
    await fill(0, 100);
    gc();
    const before = process.memoryUsage().heapUsed;
    const entries = Math.ceil(budget / 1000);
    await fill(100, 100 + entries);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(store.size).toBeGreaterThan(budget * 0.95);
    // What it holds costs the heap no more than the budget (within what the rest of the test allocates).
    expect(grown).toBeLessThan(budget * 1.1);
  }, 60_000);

  it('holds no more bytes than its budget, dropping the least recently used answer', async () => {
    const { store } = answers(2_000);
    const big = { text: 'x'.repeat(600) };
    for (const id of ['hetzner', 'vultr', 'linode', 'ovhcloud'])
      await store.remember(store.keyOf(headers, call(1, { id }))!, sdkAnswer(1, big));
    expect(store.size).toBeLessThanOrEqual(2_000);
    expect(store.answer(store.keyOf(headers, call(1, { id: 'hetzner' }))!, call(1))).toBeUndefined();
    expect(store.answer(store.keyOf(headers, call(1, { id: 'ovhcloud' }))!, call(1))).toBeDefined();
  });

  it('remembers nothing with a budget of 0', () => {
    expect(answers(0).store.keyOf(headers, call(1))).toBeUndefined();
  });
});
