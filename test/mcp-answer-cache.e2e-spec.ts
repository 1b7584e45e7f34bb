import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCRequest } from '@modelcontextprotocol/server';
import { McpAnswerCache } from '../src/mcp/mcp-answer-cache';
import { canonicalKey } from '../src/mcp/mcp-request-keys';
import { McpDispatcher } from '../src/mcp/mcp-dispatcher';
import { copyData, datasetEdits } from './support/operations';
import { startTestApp, type TestApp } from './support/test-app';
import { scaled } from './support/time';

const ACCEPT = 'application/json, text/event-stream';
type Call = { method: string; params?: Record<string, unknown>; version?: string };

const tool = (name: string, args?: Record<string, unknown>): Call => ({ method: 'tools/call', params: args === undefined ? { name } : { name, arguments: args } });

/**
 * Every tool, arguments in odd orders, defaults spelled out and left out, invalid arguments, unknown
 * tools, the lists, resources and initialize per protocol version.
 */
const CORPUS: Call[] = [
  ...SUPPORTED_PROTOCOL_VERSIONS.map((v) => ({ method: 'initialize', params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 'corpus', version: '1' } } })),
  { method: 'initialize', params: { clientInfo: { version: '1', name: 'corpus' }, capabilities: {}, protocolVersion: '2025-06-18' } },
  { method: 'tools/list' },
  { method: 'tools/list', params: {} },
  { method: 'tools/list', version: '2025-06-18' },
  { method: 'resources/list' },
  { method: 'resources/templates/list' },
  { method: 'resources/read', params: { uri: 'provider://hetzner' } },
  { method: 'resources/read', params: { uri: 'provider://nobody' } },
  { method: 'prompts/list' },
  tool('list_vps_providers'),
  tool('list_vps_providers', {}),
  tool('get_vps_provider', { id: 'hetzner' }),
  tool('get_vps_provider', { id: 'nobody' }),
  tool('get_vps_provider', { id: 42 }),
  tool('get_vps_provider', {}),
  tool('find_vps_plans', { minRamGb: 4, currency: 'EUR' }),
  tool('find_vps_plans', { currency: 'EUR', minRamGb: 4 }),
  tool('find_vps_plans', { currency: 'EUR', minRamGb: 4, includeCommitments: false }),
  tool('find_vps_plans', { minRamGb: 4, currency: 'USD', storageType: 'nvme', providers: ['vultr', 'hetzner'], limit: 3 }),
  tool('find_vps_plans', { limit: 3, providers: ['vultr', 'hetzner'], storageType: 'nvme', currency: 'USD', minRamGb: 4 }),
  tool('find_vps_plans', { minRamGb: -1 }),
  tool('find_vps_plans', { currency: 'euros' }),
  tool('recommend_vps_for_workload', { workload: 'wordpress' }),
  tool('recommend_vps_for_workload', { workload: '  a small wordpress blog  ' }),
  tool('recommend_vps_for_workload', { workload: '' }),
  tool('search_guides', { query: 'wireguard vpn' }),
  tool('search_guides', { query: 'hetzner vs digitalocean' }),
  tool('search_guides', {}),
  tool('get_guide', { slug: 'swap-file' }),
  tool('get_guide', { maxChars: 500, slug: 'swap-file' }),
  tool('get_guide', { slug: 'no-such-guide' }),
  tool('get_dataset_changes'),
  tool('get_dataset_changes', { since: '2026-01-01' }),
  tool('get_dataset_changes', { since: 'yesterday' }),
  tool('estimate_monthly_cost', { providerId: 'hetzner', planName: 'CX23', country: 'DE' }),
  tool('estimate_monthly_cost', { country: 'DE', planName: 'CX23', providerId: 'hetzner', ipv4: true, backups: false, business: false }),
  tool('estimate_monthly_cost', { minRamGb: 8, country: 'US', currency: 'EUR', trafficTb: 2 }),
  tool('estimate_monthly_cost', { providerId: 'hetzner' }),
  tool('find_equivalent_plans', { providerId: 'digitalocean', planName: 'Basic 4 GB' }),
  tool('find_equivalent_plans', { planName: 'Basic 4 GB', providerId: 'digitalocean', currency: 'USD', limit: 10 }),
  tool('find_equivalent_plans', { ramGb: 0 }),
  tool('describe_filters'),
  tool('describe_filters', { unexpected: true }),
  tool('no_such_tool', { id: 'hetzner' }),
  { method: 'tools/call', params: { arguments: { id: 'hetzner' } } },
  { method: 'no/such/method' },
  { method: 'ping' },
];

describe(McpAnswerCache.name, () => {
  let cached: TestApp;
  let uncached: TestApp;
  /** The cached app's DATA_DIR: a copy of the embedded dataset, which the reload test edits and restores. */
  let dir: string;
  beforeAll(async () => {
    dir = await copyData();
    [cached, uncached] = await Promise.all([startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '100000' }), startTestApp({ RATE_LIMIT_REQUESTS: '100000', MCP_ANSWER_CACHE_BYTES: '0' })]);
  }, scaled(60_000));
  afterAll(async () => {
    await Promise.all([cached?.close(), uncached?.close()]);
    await rm(dir, { recursive: true, force: true });
  });
  // The reload test's edit is put back before any later test, which compares with the uncached app's data.
  const edits = datasetEdits();

  async function post(app: TestApp, body: unknown, version?: string): Promise<string> {
    let req = app.http.post('/mcp').set('Accept', ACCEPT).set('Content-Type', 'application/json');
    if (version) req = req.set('MCP-Protocol-Version', version);
    const res = await req.send(JSON.stringify(body)).expect(200);
    return res.text;
  }
  const message = (call: Call, id: string | number) => ({ jsonrpc: '2.0', id, method: call.method, ...(call.params ? { params: call.params } : {}) });
  /** The answer with its id replaced, for comparing answers to differently numbered requests. */
  const withoutId = (text: string, id: string | number) => text.replace(`"id":${JSON.stringify(id)}`, '"id":"?"');

  it('answers every call of the corpus with the same bytes as the uncached server, apart from the id', async () => {
    const dispatch = jest.spyOn(McpDispatcher.prototype, 'answer');
    try {
      for (const [i, call] of CORPUS.entries()) {
        const reference = withoutId(await post(uncached, message(call, i), call.version), i);
        const miss = await post(cached, message(call, `miss-${i}`), call.version);
        const hit = await post(cached, message(call, 1000 + i), call.version);
        expect([call, withoutId(miss, `miss-${i}`)]).toEqual([call, reference]);
        expect([call, withoutId(hit, 1000 + i)]).toEqual([call, reference]);
      }
      // The same requests in one batch, numbered afresh: every answer in order, with its own id.
      const batch = CORPUS.filter((c) => c.method !== 'initialize' && !c.version).map((c, i) => message(c, `b${i}`));
      const fromCache = JSON.parse(await post(cached, batch)) as { id: string }[];
      const reference = JSON.parse(await post(uncached, batch)) as { id: string }[];
      expect(fromCache).toEqual(reference);
    } finally {
      dispatch.mockRestore();
    }
    // Results went to the server once each; a repeated call was answered from memory.
    expect(cached.app.get(McpAnswerCache).size.entries).toBeGreaterThan(30);
  }, scaled(120_000));

  it('keeps a number the parser reads as non-finite (1e400) apart from null: one client\'s call never changes another\'s answer', async () => {
    const raw = async (app: TestApp, text: string) =>
      (await app.http.post('/mcp').set('Accept', ACCEPT).set('Content-Type', 'application/json').send(text).expect(200)).text;
    const call = (id: number, value: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"find_vps_plans","arguments":{"minRamGb":${value}}}}`;
    for (const [first, second] of [['null', '1e400'], ['-1e400', 'null']]) {
      const remembered = await raw(cached, call(1, first));
      expect(remembered).toBe(await raw(uncached, call(1, first)));
      // The second spelling must get its own answer, not the one remembered for the first.
      expect(await raw(cached, call(1, second))).toBe(await raw(uncached, call(1, second)));
    }
  });

  it('does not ask the server again for a remembered call, whatever the order of its arguments', async () => {
    const dispatch = jest.spyOn(McpDispatcher.prototype, 'answer');
    try {
      const call = tool('find_vps_plans', { minVcpus: 2, maxMonthlyPrice: 30 });
      await post(cached, message(call, 1));
      const served = dispatch.mock.calls.length;
      await post(cached, message(tool('find_vps_plans', { maxMonthlyPrice: 30, minVcpus: 2 }), 2));
      await post(cached, message(call, 'three'));
      expect(dispatch.mock.calls.length).toBe(served);
      // Another declared protocol version is another key.
      await post(cached, message(call, 4), '2025-06-18');
      expect(dispatch.mock.calls.length).toBe(served + 1);
    } finally {
      dispatch.mockRestore();
    }
  });

  it('keeps within its byte budget, dropping the least recently used answer first', async () => {
    const [a, b, c] = ['hetzner', 'vultr', 'linode'].map((id) => message(tool('get_vps_provider', { id }), 7));
    // What each answer takes: its key and its UTF-8 bytes after the id. A budget one short of all three holds any two.
    const sizes = await Promise.all(
      [a, b, c].map(async (m) => canonicalKey(m as JSONRPCRequest, undefined).length + Buffer.byteLength(await post(uncached, m)) - '{"jsonrpc":"2.0","id":7'.length),
    );
    const budget = sizes[0] + sizes[1] + sizes[2] - 1;
    const small = await startTestApp({ RATE_LIMIT_REQUESTS: '100000', MCP_ANSWER_CACHE_BYTES: String(budget) });
    const dispatch = jest.spyOn(McpDispatcher.prototype, 'answer');
    try {
      const cache = small.app.get(McpAnswerCache);
      await post(small, a);
      await post(small, b);
      await post(small, a); // a is now the most recently used
      expect(dispatch).toHaveBeenCalledTimes(2);
      await post(small, c); // over budget: b goes, not a
      expect(cache.size).toEqual({ entries: 2, bytes: sizes[0] + sizes[2] });
      await post(small, a);
      expect(dispatch).toHaveBeenCalledTimes(3);
      await post(small, b);
      expect(dispatch).toHaveBeenCalledTimes(4);
      expect(cache.size.bytes).toBeLessThanOrEqual(budget);
    } finally {
      dispatch.mockRestore();
      await small.close();
    }
  }, scaled(60_000));

  it('forgets every answer when another dataset version is published', async () => {
    // On the cached app's copy of the dataset (put back before any later test).
    const call = message(tool('get_vps_provider', { id: 'hetzner' }), 1);
    const before = JSON.parse(await post(cached, call));
    await edits.edit(cached, join(dir, 'providers.json'), (data) => {
      data.providers.find((p: { id: string }) => p.id === 'hetzner').name = 'Hetzner (renamed)';
    });
    const after = JSON.parse(await post(cached, call));
    expect(before.result.structuredContent.provider.name).toBe('Hetzner');
    expect(after.result.structuredContent.provider.name).toBe('Hetzner (renamed)');
  }, scaled(60_000));
});
