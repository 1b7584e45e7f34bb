import { McpAnswerCache } from '../src/mcp/mcp-answer-cache';
import { rawRequest, type RawResponse } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';

const ACCEPT = 'application/json, text/event-stream';
const JSON_HEADERS = { accept: ACCEPT, 'content-type': 'application/json' };
const VOLATILE = ['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive', 'transfer-encoding'];
const stable = (headers: RawResponse['headers']) => Object.fromEntries(Object.entries(headers).filter(([k]) => !VOLATILE.includes(k)));
const duplicated = (raw: string[]) => {
  const names = raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  return names.filter((n, i) => names.indexOf(n) !== i);
};
const call = (id: number | string, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const MODERN = '2026-07-28';
const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/**
 * The replay cache in front of Express (FrontDoor) answers a POST of one JSON-RPC request to /mcp
 * whose verdict and answer the controller recorded (McpAnswerCache.recordVerdict). A body sent
 * chunked, without Content-Length, is never read there, so it shows what the controller answers for
 * the same request.
 */
describe('MCP calls answered at the door', () => {
  let t: TestApp;
  let cache: McpAnswerCache;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000', MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
    cache = t.app.get(McpAnswerCache);
  });
  afterAll(() => t.close());

  const send = (body: string, headers: Record<string, string>, chunked: boolean) => rawRequest(`${t.baseUrl}/mcp`, headers, 'POST', { data: body, chunked });

  /** The same POST through the controller (chunked) and then with its length (the door may answer). */
  async function bothWays(body: string, headers: Record<string, string> = JSON_HEADERS) {
    const viaController = await send(body, headers, true);
    const controller = jest.spyOn(cache, 'answer');
    try {
      const withLength = await send(body, headers, false);
      return { viaController, withLength, controllerCalls: controller.mock.calls.length };
    } finally {
      controller.mockRestore();
    }
  }

  function expectSameAnswer({ viaController, withLength }: { viaController: RawResponse; withLength: RawResponse }) {
    expect(withLength.status).toBe(viaController.status);
    expect(withLength.body.toString()).toBe(viaController.body.toString());
    expect(stable(withLength.headers)).toEqual(stable(viaController.headers));
    expect(duplicated(withLength.rawHeaders)).toEqual([]);
  }

  it.each([
    ['a tool call', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), JSON_HEADERS],
    ['a tool call with a declared protocol version', JSON.stringify(call('x', 'find_vps_plans', { minRamGb: 4, currency: 'EUR' })), { ...JSON_HEADERS, 'mcp-protocol-version': '2025-06-18' }],
    ['initialize', JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'door', version: '1' } } }), JSON_HEADERS],
    ['a call from an allowed browser origin', JSON.stringify(call(3, 'list_vps_providers', {})), { ...JSON_HEADERS, origin: 'https://app.example.com' }],
  ])('answers %s, once remembered, with the status, headers and bytes the controller writes, without the controller', async (_kind, body, headers) => {
    const ways = await bothWays(body, headers);
    expect(ways.viaController.status).toBe(200);
    expect(ways.controllerCalls).toBe(0);
    expectSameAnswer(ways);
    expect(ways.withLength.headers['content-type']).toBe('application/json');
    expect(ways.withLength.headers['ratelimit-limit']).toBe('100000');
  });

  it('leaves a batch to the controller, which counts every call of it against the limit', async () => {
    const body = JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, call(2, 'search_guides', { query: 'wireguard' }), call(3, 'list_vps_providers', {})]);
    await send(body, JSON_HEADERS, false);
    const before = Number((await send(JSON.stringify(call(9, 'get_vps_provider', { id: 'hetzner' })), JSON_HEADERS, false)).headers['ratelimit-remaining']);
    const controller = jest.spyOn(cache, 'answer');
    try {
      const batch = await send(body, JSON_HEADERS, false);
      expect(batch.status).toBe(200);
      expect((JSON.parse(batch.body.toString()) as unknown[]).length).toBe(3);
      expect(controller).toHaveBeenCalledTimes(1);
      expect(before - Number(batch.headers['ratelimit-remaining'])).toBe(3);
    } finally {
      controller.mockRestore();
    }
  });

  it.each([
    ['malformed JSON', '{"jsonrpc":"2.0","id":1,', JSON_HEADERS, 400],
    ['an empty body', '', JSON_HEADERS, 400],
    ['a body that is not a JSON-RPC message', '{"hello":"world"}', JSON_HEADERS, 400],
    ['another JSON-RPC version', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }), JSON_HEADERS, 400],
    ['an id that is neither string nor number', JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }), JSON_HEADERS, 400],
    ['a media type that is not JSON', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), { ...JSON_HEADERS, 'content-type': 'text/plain' }, 415],
    ['a charset JSON does not allow', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), { ...JSON_HEADERS, 'content-type': 'application/json; charset=latin1' }, 415],
    ['a Content-Encoding the parser does not read', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), { ...JSON_HEADERS, 'content-encoding': 'compress' }, 415],
    ['an Accept without the event stream', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), { ...JSON_HEADERS, accept: 'application/json' }, 406],
    ['an unsupported protocol version', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), { ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' }, 400],
    ['a Host that is not this server', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), { ...JSON_HEADERS, host: 'evil.example' }, 403],
    ['an Origin not allowed', JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' })), { ...JSON_HEADERS, origin: 'https://evil.example' }, 403],
    ['invalid params', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }), JSON_HEADERS, 200],
    ['notifications only', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), JSON_HEADERS, 202],
    ['a request of revision 2026-07-28', JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope } }), { ...JSON_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }, 200],
  ])('hands %s to the controller, read once, for the answer it gives', async (_kind, body, headers, status) => {
    // Twice: a remembered answer, were there one, would be met the second time.
    await send(body, headers, false);
    const ways = await bothWays(body, headers);
    expect(ways.viaController.status).toBe(status);
    expectSameAnswer(ways);
  });

  it('answers a call it has vetted once under any well-formed id, with the bytes the controller writes', async () => {
    const args = { minVcpus: 2, currency: 'USD' };
    // The first POST with a length is checked in full at the door; the later ones differ only in their id.
    await send(JSON.stringify(call(1, 'find_vps_plans', args)), JSON_HEADERS, false);
    for (const id of ['req-2', 3, 0, -4, 'x'.repeat(40)]) {
      const ways = await bothWays(JSON.stringify(call(id, 'find_vps_plans', { currency: 'USD', minVcpus: 2 })));
      expect(ways.controllerCalls).toBe(0);
      expectSameAnswer(ways);
      expect((JSON.parse(ways.withLength.body.toString()) as { id: unknown }).id).toBe(id);
    }
  });

  it.each([
    ['a fractional id', { ...call(1, 'get_vps_provider', { id: 'upcloud' }), id: 1.5 }, JSON_HEADERS, 400],
    ['an id past the safe integers', { ...call(1, 'get_vps_provider', { id: 'upcloud' }), id: 2 ** 53 }, JSON_HEADERS, 400],
    ['a null id', { ...call(1, 'get_vps_provider', { id: 'upcloud' }), id: null }, JSON_HEADERS, 400],
    ['a member of its own', { ...call(1, 'get_vps_provider', { id: 'upcloud' }), extra: 1 }, JSON_HEADERS, 400],
    ['another JSON-RPC version', { ...call(1, 'get_vps_provider', { id: 'upcloud' }), jsonrpc: '2.1' }, JSON_HEADERS, 400],
    ['an Accept without the event stream', call(1, 'get_vps_provider', { id: 'upcloud' }), { ...JSON_HEADERS, accept: 'application/json' }, 406],
    ['an unsupported protocol version', call(1, 'get_vps_provider', { id: 'upcloud' }), { ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' }, 400],
    ['the 2026-07-28 method header', call(1, 'get_vps_provider', { id: 'upcloud' }), { ...JSON_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }, 400],
  ])('after vetting a call, still answers the same call with %s as the controller does', async (_kind, body, headers, status) => {
    const vetted = JSON.stringify(call(1, 'get_vps_provider', { id: 'upcloud' }));
    await send(vetted, JSON_HEADERS, false);
    await send(vetted, JSON_HEADERS, false);
    const ways = await bothWays(JSON.stringify(body), headers);
    expect(ways.viaController.status).toBe(status);
    expectSameAnswer(ways);
  });

  it('answers a batch with one call it has not seen through the controller, every answer in order', async () => {
    const seen = call(1, 'get_vps_provider', { id: 'vultr' });
    await send(JSON.stringify(seen), JSON_HEADERS, false);
    const controller = jest.spyOn(cache, 'answer');
    try {
      const res = await send(JSON.stringify([seen, call(2, 'get_vps_provider', { id: 'linode' })]), JSON_HEADERS, false);
      expect(res.status).toBe(200);
      expect((JSON.parse(res.body.toString()) as { id: number; result: { structuredContent: { provider: { id: string } } } }[]).map((a) => [a.id, a.result.structuredContent.provider.id])).toEqual([
        [1, 'vultr'],
        [2, 'linode'],
      ]);
      expect(controller).toHaveBeenCalledTimes(1);
    } finally {
      controller.mockRestore();
    }
  });

  it('leaves a body larger than it reads to the controller, which answers it', async () => {
    // Whitespace makes the body larger than the replay cache reads (64 KiB) with params well within
    // the 16 KiB an MCP call may carry.
    const big = `${JSON.stringify(call(9, 'search_guides', { query: 'wireguard big body' }))}${' '.repeat(70 * 1024)}`;
    const controller = jest.spyOn(cache, 'answer');
    try {
      await send(big, JSON_HEADERS, false);
      const second = await send(big, JSON_HEADERS, false);
      expect(second.status).toBe(200);
      expect(controller).toHaveBeenCalledTimes(2);
    } finally {
      controller.mockRestore();
    }
  });
});

describe('MCP calls at the door, over the limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '3' });
  });
  afterAll(() => t.close());

  it('counts a remembered call like any other and refuses it over the limit with the 429 the controller path gives', async () => {
    const body = JSON.stringify(call(1, 'get_vps_provider', { id: 'hetzner' }));
    const post = (chunked: boolean) => rawRequest(`${t.baseUrl}/mcp`, JSON_HEADERS, 'POST', { data: body, chunked });
    const answers = [await post(false), await post(false), await post(false), await post(false), await post(true)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0', '0']);
    const [atDoor, viaController] = answers.slice(3);
    expect(atDoor.body.toString()).toBe(viaController.body.toString());
    expect(stable(atDoor.headers)).toEqual(stable(viaController.headers));
    expect(atDoor.headers['retry-after']).toBeDefined();
  });
});
