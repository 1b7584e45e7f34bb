import { Socket } from 'node:net';
import { logSink } from './support/log-sink';
import { rawRequest } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Small edges of serving: a method Node never hands to the application, an argument name that is an
 * object's prototype, and a batch with more calls than an emitter's default listener count.
 */
const MCP = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

describe('serving edges', () => {
  let t: TestApp;
  const logs = logSink();
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1000', LOG_LEVEL: 'info' }, 0, { log: logs.stream });
  });
  afterAll(() => t.close());

  const post = (body: unknown) =>
    rawRequest(`${t.baseUrl}/mcp`, MCP, 'POST', { data: JSON.stringify(body) }).then((res) => ({
      status: res.status,
      body: JSON.parse(res.body.toString()) as unknown,
    }));

  it('answers CONNECT with 405 in the envelope, counts it and logs it, instead of closing the socket', async () => {
    const { port } = new URL(t.baseUrl);
    const before = await rawRequest(`${t.baseUrl}/api/index.json`, {});
    const reply = await new Promise<string>((resolve) => {
      const socket = new Socket();
      let data = '';
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('close', () => resolve(data));
      socket.on('error', () => undefined);
      socket.connect(Number(port), '127.0.0.1', () =>
        socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      );
    });
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(reply).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/i);
    expect(reply).toMatch(/\r\nRateLimit-Remaining: \d+\r\n/i);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
      status: 405,
      code: 'method_not_allowed',
    });
    // Counted: the next request of the same client sees two fewer than before (CONNECT and itself).
    const after = await rawRequest(`${t.baseUrl}/api/index.json`, {});
    expect(Number(after.headers['ratelimit-remaining'])).toBe(Number(before.headers['ratelimit-remaining']) - 2);
    const line = await logs.waitForLine((l) => l.req?.method === 'CONNECT');
    expect(line.res).toMatchObject({ status: 405 });
  });

  it('refuses __proto__ as a tool argument like any other unknown argument', async () => {
    const call = (args: string) =>
      rawRequest(`${t.baseUrl}/mcp`, MCP, 'POST', {
        data: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_vps_plans","arguments":${args}}}`,
      }).then(
        (res) => JSON.parse(res.body.toString()) as { result: { isError?: boolean; content: { text: string }[] } },
      );
    for (const name of ['__proto__', 'constructor', 'minRam']) {
      const answer = await call(`{"${name}":{"maxMonthlyPrice":1}}`);
      expect([name, answer.result.isError]).toEqual([name, true]);
      expect(answer.result.content[0].text).toContain(`Unknown argument "${name}"`);
    }
    expect(({} as Record<string, unknown>).maxMonthlyPrice).toBeUndefined();
  });

  it('refuses __proto__ as a tool argument in the 2026-07-28 era too, naming the valid arguments', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const call = (args: string) =>
      rawRequest(
        `${t.baseUrl}/mcp`,
        { ...MCP, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_vps_provider' },
        'POST',
        {
          data: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_vps_provider","arguments":${args},"_meta":${JSON.stringify(meta)}}}`,
        },
      ).then((res) => ({ status: res.status, body: JSON.parse(res.body.toString()) }));
    const refused = await call('{"id":"hetzner","__proto__":{"x":1}}');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32602 });
    expect(refused.body.error.message).toContain('Unknown argument "__proto__"');
    expect(JSON.stringify(refused.body)).toContain('Valid arguments: id, responseFormat');
    // Another unknown argument is refused by the tool's own schema, and a clean call answers.
    const other = await call('{"id":"hetzner","bogus":1}');
    expect(other.body.result).toMatchObject({ isError: true });
    expect(other.body.result.content[0].text).toContain('Unknown argument "bogus"');
    const clean = await call('{"id":"hetzner"}');
    expect(clean.body.result.isError).toBeUndefined();
  });

  it('answers a batch of 100 calls without a MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const batch = Array.from({ length: 100 }, (_, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'get_vps_provider', arguments: { id: 'hetzner' } },
      }));
      const res = await post(batch);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(100);
      // A warning is emitted on the next tick after the listener that passes the count is added.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });
});
