import type { Client } from '@modelcontextprotocol/client';
import { gzipSync } from 'node:zlib';
import { connectMcp } from './support/mcp-client';
import { rawRequest } from './support/raw-request';
import { rawGuides, rawProviders } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

const ACCEPT = 'application/json, text/event-stream';
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('MCP protocol', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
  });
  afterAll(() => t.close());

  const post = (body: unknown, accept = ACCEPT) =>
    t.http
      .post('/mcp')
      .set('Accept', accept)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  describe('resources', () => {
    let client: Client;
    beforeAll(async () => {
      client = await connectMcp(t.baseUrl);
    });
    afterAll(() => client.close());

    it('lists every guide and provider as a resource', async () => {
      const { resources } = await client.listResources();
      const uris = resources.map((r) => r.uri);
      for (const g of rawGuides) expect(uris).toContain(`guide://${g.slug}`);
      for (const p of rawProviders.providers) expect(uris).toContain(`provider://${p.id}`);
      expect(resources.find((r) => r.uri === 'guide://swap-file')).toMatchObject({
        mimeType: 'text/markdown',
        title: expect.any(String),
      });
    });

    it('offers the two resource templates', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((r) => r.uriTemplate).sort()).toEqual(['guide://{slug}', 'provider://{id}']);
    });

    it('reads a guide as markdown', async () => {
      const raw = rawGuides.find((g) => g.slug === 'ufw-firewall-basics')!;
      const { contents } = await client.readResource({ uri: 'guide://ufw-firewall-basics' });
      expect(contents).toEqual([
        {
          uri: 'guide://ufw-firewall-basics',
          mimeType: 'text/markdown',
          text: `# ${raw.title}\n\n${raw.body.trim()}\n`,
        },
      ]);
    });

    it('reads a provider as JSON identical to the API record', async () => {
      const api = await t.http.get('/api/providers/upcloud.json');
      const { contents } = await client.readResource({ uri: 'provider://upcloud' });
      expect(contents[0].mimeType).toBe('application/json');
      expect(JSON.parse(contents[0].text as string)).toEqual(api.body.provider);
    });

    // -32602 since protocol revision 2026-07-28 (earlier revisions suggested -32002; the v2 SDK sends -32602 in both eras).
    it('answers an unknown resource with invalid params, naming what exists', async () => {
      await expect(client.readResource({ uri: 'guide://no-such-guide' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('No guide at guide://no-such-guide'),
      });
      await expect(client.readResource({ uri: 'provider://aws' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('provider://hetzner'),
      });
    });

    it('completes guide slugs and provider ids', async () => {
      const guides = await client.complete({
        ref: { type: 'ref/resource', uri: 'guide://{slug}' },
        argument: { name: 'slug', value: 'hetzner' },
      });
      expect(guides.completion.values).toEqual(
        rawGuides
          .map((g) => g.slug)
          .filter((s) => s.startsWith('hetzner'))
          .sort(),
      );
      const providers = await client.complete({
        ref: { type: 'ref/resource', uri: 'provider://{id}' },
        argument: { name: 'id', value: 'v' },
      });
      expect(providers.completion.values).toEqual(['vultr']);
    });
  });

  describe('transport', () => {
    it('initializes over plain POST without a session id', async () => {
      const res = await post(initialize).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['mcp-session-id']).toBeUndefined();
      expect(res.body.result.serverInfo.name).toBe('vpsapi');
    });

    it('answers each POST independently: a tools/call needs no prior initialize on this instance', async () => {
      const res = await post({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_vps_provider', arguments: { id: 'vultr' } },
      }).expect(200);
      expect(res.body.id).toBe(7);
      expect(res.body.result.structuredContent.provider.id).toBe('vultr');
    });

    it('carries the rate-limit headers and CORS like every response', async () => {
      const res = await post(initialize);
      expect(res.headers['ratelimit-limit']).toBe('100000');
      expect(res.headers['ratelimit-policy']).toBe('100000;w=60');
      expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it.each(['get', 'delete', 'put', 'patch'])(
      'answers %s with 405, Allow: POST and a JSON-RPC error',
      async (method) => {
        const res = await (t.http as any)[method]('/mcp').set('Accept', ACCEPT).expect(405);
        expect(res.headers.allow).toBe('POST');
        expect(res.body).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: expect.stringContaining('POST') },
        });
        expect(res.headers['ratelimit-limit']).toBe('100000');
      },
    );

    it('answers a CORS preflight for POST with the MCP headers allowed', async () => {
      const res = await t.http
        .options('/mcp')
        .set('Origin', 'https://agent.test')
        .set('Access-Control-Request-Method', 'POST')
        .expect(204);
      expect(res.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toMatch(/Mcp-Protocol-Version/);
    });

    it('answers malformed JSON with 400 and a parse error', async () => {
      const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ').expect(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    });

    it('answers a wrong Accept with 406', async () => {
      const res = await post(initialize, 'text/html').expect(406);
      expect(res.body.error).toBeDefined();
    });

    it('answers a body that is not JSON by its Content-Type with 415', async () => {
      const res = await t.http
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify(initialize))
        .expect(415);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringContaining('Content-Type') },
      });
    });

    it('answers a JSON body in a charset other than UTF-8 with 415, naming UTF-8', async () => {
      const res = await t.http
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Content-Type', 'application/json; charset=latin1')
        .send(JSON.stringify(initialize))
        .expect(415);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringContaining('UTF-8') },
      });
    });

    it('answers a body in a Content-Encoding it does not read with 415, and reads a gzip one', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' });
      const res = await post(body).set('Content-Encoding', 'compress').expect(415);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { message: expect.stringContaining('Content-Encoding') },
      });
      // Sent raw: supertest would serialize a Buffer body as JSON.
      const gzipped = await rawRequest(
        `${t.baseUrl}/mcp`,
        { accept: ACCEPT, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        'POST',
        { data: gzipSync(body) },
      );
      expect(gzipped.status).toBe(200);
      expect(JSON.parse(gzipped.body.toString())).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    });

    it('answers an unsupported MCP-Protocol-Version with 400, and accepts supported ones', async () => {
      const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
      const res = await post(ping).set('MCP-Protocol-Version', '1999-01-01').expect(400);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { message: expect.stringContaining('1999-01-01') },
      });
      await post(ping).set('MCP-Protocol-Version', '2025-06-18').expect(200, { jsonrpc: '2.0', id: 2, result: {} });
    });

    it('accepts notifications and responses with 202 and no body', async () => {
      const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }).expect(202);
      expect(res.text).toBe('');
      await post([
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        { jsonrpc: '2.0', id: 9, result: {} },
      ]).expect(202);
    });

    it('answers a batch with an array in request order, invalid members answered in place', async () => {
      const res = await post([
        {
          jsonrpc: '2.0',
          id: 'b',
          method: 'tools/call',
          params: { name: 'get_vps_provider', arguments: { id: 'vultr' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { arguments: {} } },
        { jsonrpc: '2.0', id: 'c', method: 'ping' },
      ]).expect(200);
      expect(res.body.map((m: { id: string }) => m.id)).toEqual(['b', 'a', 'c']);
      expect(res.body[0].result.structuredContent.provider.id).toBe('vultr');
      expect(res.body[1].error.code).toBe(-32602);
      expect(res.body[2]).toEqual({ jsonrpc: '2.0', id: 'c', result: {} });
      // A batch of one is still a batch.
      const one = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }]).expect(200);
      expect(one.body).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    });

    it('refuses an empty batch, a batch over 100 messages and initialize inside a batch with 400', async () => {
      await post([]).expect(400);
      const big = Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
      expect((await post(big).expect(400)).body.error.message).toContain('100');
      await post([initialize, { jsonrpc: '2.0', id: 2, method: 'ping' }]).expect(400);
    });

    it('keeps concurrent callers apart even when they use the same request id', async () => {
      const ids = rawProviders.providers.map((p) => p.id);
      const calls = Array.from({ length: 48 }, (_, i) => ids[i % ids.length]);
      const answers = await Promise.all(
        calls.map((id) =>
          post({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'get_vps_provider', arguments: { id } },
          }).expect(200),
        ),
      );
      answers.forEach((res, i) => {
        expect(res.body.id).toBe(1);
        expect(res.body.result.structuredContent.provider.id).toBe(calls[i]);
      });
    });

    it('answers an unknown method with -32601', async () => {
      const res = await post({ jsonrpc: '2.0', id: 3, method: 'tools/explode', params: {} });
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ id: 3, error: { code: -32601 } });
    });

    it('answers malformed params with -32602', async () => {
      const res = await post({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } });
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ id: 4, error: { code: -32602 } });
    });

    it('answers a body over 64 KiB with 413 and a JSON-RPC error', async () => {
      const big = {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'search_guides', arguments: { query: 'x'.repeat(1_100_000) } },
      };
      const res = await post(big).expect(413);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    });

    it('refuses a foreign Host with 403 (DNS rebinding)', async () => {
      const res = await post(initialize).set('Host', 'attacker.example:80').expect(403);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringContaining('Host') },
      });
    });

    it.each(['localhost:3000', '127.0.0.1', 'vpsapi.test', '[::1]:8080'])('accepts the Host %s', async (host) => {
      await post(initialize).set('Host', host).expect(200);
    });

    it('accepts any Origin by default', async () => {
      await post(initialize).set('Origin', 'https://anywhere.example').expect(200);
    });
  });

  describe('with narrowed hosts and origins', () => {
    let narrow: TestApp;
    beforeAll(async () => {
      narrow = await startTestApp({
        MCP_ALLOWED_HOSTS: 'mcp.example.com',
        MCP_ALLOWED_ORIGINS: 'https://app.example.com',
      });
    });
    afterAll(() => narrow.close());

    const send = () =>
      narrow.http
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Content-Type', 'application/json')
        .set('Host', 'mcp.example.com')
        .send(initialize);

    it('accepts the configured host and origin, and requests without an Origin', async () => {
      await send().set('Origin', 'https://app.example.com').expect(200);
      await send().expect(200);
    });

    it('refuses other origins and hosts with 403', async () => {
      const res = await send().set('Origin', 'https://evil.example').expect(403);
      expect(res.body.error.message).toContain('Origin');
      await narrow.http.post('/mcp').set('Accept', ACCEPT).set('Host', 'localhost').send(initialize).expect(403);
    });
  });

  describe('server card', () => {
    it.each(['/.well-known/mcp/server-card.json', '/mcp/server-card'])('is served at %s', async (path) => {
      const res = await t.http.get(path).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.body).toMatchObject({
        name: 'vpsapi',
        title: 'VPS provider comparison',
        version: '1.0.0',
        description: expect.any(String),
        websiteUrl: `${TEST_BASE_URL}/`,
        endpoints: [{ transport: 'streamable-http', url: `${TEST_BASE_URL}/mcp` }],
        authentication: { type: 'none' },
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, completions: {} },
      });
      expect(res.body.protocolVersions).toEqual(expect.arrayContaining(['2025-06-18', '2025-03-26']));
    });

    it('lists every tool with the input schemas tools/list gives', async () => {
      const client = await connectMcp(t.baseUrl);
      try {
        const { tools } = await client.listTools();
        const card = (await t.http.get('/.well-known/mcp/server-card.json')).body;
        expect(card.tools).toEqual(
          tools.map((tool) => ({
            name: tool.name,
            title: tool.title,
            description: tool.description,
            inputSchema: tool.inputSchema,
            annotations: tool.annotations,
          })),
        );
      } finally {
        await client.close();
      }
    });
  });
});
