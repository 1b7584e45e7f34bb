import { MAX_BODY_DEPTH } from '../src/mcp/mcp-transport-rules';
import { rawRequest, type RawResponse } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';

const JSON_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const MODERN = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (id: unknown, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const hetzner = call(1, 'get_vps_provider', { id: 'hetzner' });

/** Header names a response carries more than once. */
const duplicated = (raw: string[]) => {
  const names = raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  return names.filter((n, i) => names.indexOf(n) !== i);
};

/**
 * The /mcp endpoint as the SDK's transport answers it behind the guards and the interceptor: every
 * answer, the SDK's own refusals included, carries the common headers once, and a fault of the
 * client is answered with a JSON-RPC error and a 4xx.
 */
describe('the MCP transport', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000', MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
  });
  afterAll(() => t.close());

  const send = (body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    rawRequest(`${t.baseUrl}/mcp`, headers, 'POST', { data: typeof body === 'string' ? body : JSON.stringify(body) });
  const jsonOf = (res: RawResponse) => JSON.parse(res.body.toString());

  function expectCommonHeadersOnce(res: RawResponse) {
    expect(duplicated(res.rawHeaders)).toEqual([]);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['ratelimit-limit']).toBe('100000');
    expect(res.headers['x-request-id']).toBeDefined();
  }

  it.each([
    ['a 2025-era tool call', hetzner, JSON_HEADERS, 200],
    [
      'a tool call under a declared 2025 revision',
      hetzner,
      { ...JSON_HEADERS, 'mcp-protocol-version': '2025-06-18' },
      200,
    ],
    ['a call from an allowed browser origin', hetzner, { ...JSON_HEADERS, origin: 'https://app.example.com' }, 200],
    [
      'a 2026-07-28 request',
      { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope } },
      { ...JSON_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      200,
    ],
  ])('answers %s in JSON with the common headers, each once', async (_kind, body, headers, status) => {
    const res = await send(body, headers);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(jsonOf(res)).toMatchObject({ jsonrpc: '2.0', result: expect.any(Object) });
    expectCommonHeadersOnce(res);
  });

  it.each([
    ['malformed JSON', '{"jsonrpc":"2.0","id":1,', JSON_HEADERS, 400],
    ['an empty body', '', JSON_HEADERS, 400],
    ['a body that is not a JSON-RPC message', '{"hello":"world"}', JSON_HEADERS, 400],
    ['another JSON-RPC version', { ...hetzner, jsonrpc: '1.0' }, JSON_HEADERS, 400],
    ['an id that is neither string nor number', { ...hetzner, id: { a: 1 } }, JSON_HEADERS, 400],
    ['a fractional id', { ...hetzner, id: 1.5 }, JSON_HEADERS, 400],
    ['an id past the safe integers', { ...hetzner, id: 2 ** 53 }, JSON_HEADERS, 400],
    ['a null id', { ...hetzner, id: null }, JSON_HEADERS, 400],
    ['a member of its own', { ...hetzner, extra: 1 }, JSON_HEADERS, 400],
    ['a media type that is not JSON', hetzner, { ...JSON_HEADERS, 'content-type': 'text/plain' }, 415],
    [
      'a charset JSON does not allow',
      hetzner,
      { ...JSON_HEADERS, 'content-type': 'application/json; charset=latin1' },
      415,
    ],
    ['a Content-Encoding the parser does not read', hetzner, { ...JSON_HEADERS, 'content-encoding': 'compress' }, 415],
    ['an Accept without the event stream', hetzner, { ...JSON_HEADERS, accept: 'application/json' }, 406],
    ['an unsupported protocol version', hetzner, { ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' }, 400],
    [
      'the 2026-07-28 headers without the envelope',
      hetzner,
      { ...JSON_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' },
      400,
    ],
    ['a Host that is not this server', hetzner, { ...JSON_HEADERS, host: 'evil.example' }, 403],
    ['an Origin not allowed', hetzner, { ...JSON_HEADERS, origin: 'https://evil.example' }, 403],
    ['an empty batch', [], JSON_HEADERS, 400],
    [
      'a batch with two requests of one id',
      [call(1, 'get_vps_provider', { id: 'vultr' }), call(1, 'get_vps_provider', { id: 'linode' })],
      JSON_HEADERS,
      400,
    ],
  ])('refuses %s with a 4xx and a JSON-RPC error, the common headers once', async (_kind, body, headers, status) => {
    const res = await send(body, headers);
    expect(res.status).toBe(status);
    const answer = jsonOf(res);
    expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
    // The caller's id where the SDK could read one, else null.
    const sent = typeof body === 'object' && !Array.isArray(body) ? (body as { id: unknown }).id : null;
    expect([null, sent]).toContainEqual(answer.id);
    expectCommonHeadersOnce(res);
  });

  it('answers invalid params with -32602 in a 200, and notifications only with 202 and no body', async () => {
    const invalid = await send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } });
    expect(invalid.status).toBe(200);
    expect(jsonOf(invalid)).toMatchObject({ id: 1, error: { code: -32602 } });
    expectCommonHeadersOnce(invalid);
    const notified = await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notified.status).toBe(202);
    expect(notified.body.length).toBe(0);
    expectCommonHeadersOnce(notified);
  });

  it('answers a batch of one request and a notification with an array of one answer', async () => {
    const res = await send([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call('only', 'get_vps_provider', { id: 'vultr' }),
    ]);
    expect(res.status).toBe(200);
    const answers = jsonOf(res);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ id: 'only', result: { structuredContent: { provider: { id: 'vultr' } } } });
  });

  it.each([
    ['2025 era', {}, JSON_HEADERS],
    [
      '2026-07-28',
      { _meta: envelope },
      { ...JSON_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'search_guides' },
    ],
  ])(
    `refuses a body nested more than ${MAX_BODY_DEPTH} levels deep in the %s with 400, and takes one of ${MAX_BODY_DEPTH}`,
    async (_era, meta, headers) => {
      const nested = (depth: number) => JSON.parse('['.repeat(depth - 3) + ']'.repeat(depth - 3));
      // The body, params and arguments are three levels; the query brings the rest.
      const body = (depth: number) => ({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_guides', arguments: { query: nested(depth) }, ...meta },
      });
      const deep = await send(body(MAX_BODY_DEPTH + 1), headers);
      expect(deep.status).toBe(400);
      expect(jsonOf(deep).error.message).toContain(`more than ${MAX_BODY_DEPTH} levels`);
      const within = await send(body(MAX_BODY_DEPTH), headers);
      expect(within.status).toBe(200);
      expect(jsonOf(within).result.isError).toBe(true);
    },
  );
});

describe('the MCP transport, over the limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '2' });
  });
  afterAll(() => t.close());

  it('counts each POST once and refuses the next with 429, Retry-After and a JSON-RPC error, headers once', async () => {
    const post = () => rawRequest(`${t.baseUrl}/mcp`, JSON_HEADERS, 'POST', { data: JSON.stringify(hetzner) });
    const answers = [await post(), await post(), await post()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['1', '0', '0']);
    const refused = answers[2];
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: expect.any(Number) },
    });
    expect(duplicated(refused.rawHeaders)).toEqual([]);
  });
});
