import type { AppConfig } from '../config/app-config';
import type { DatasetService } from '../dataset/dataset.service';
import { McpAnswers } from './mcp-answers';

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
  const dataset = { current: { version: 'a' } as unknown };
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
