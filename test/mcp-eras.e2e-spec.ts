import type { Client, Tool } from '@modelcontextprotocol/client';
import Ajv from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { connectMcp, type McpEra } from './support/mcp-client';
import { documentedCalls, documentedValues } from './support/mcp-examples';
import { documentedExchange, shapeProblems } from './support/mcp-exchange';
import { toolCaller } from './support/mcp-tool-caller';
import { rawGuides, rawProviders } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';
import { TOOL_NAMES } from './support/tool-names';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

const ERAS: McpEra[] = [
  { era: 'legacy', protocolVersion: '2025-11-25' },
  { era: 'legacy', protocolVersion: '2025-06-18' },
  { era: 'legacy', protocolVersion: '2025-03-26' },
  { era: 'modern' },
];
const MODERN = '2026-07-28';
const ACCEPT = 'application/json, text/event-stream';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The documented call of each tool (the docs' example, or no arguments for a tool they show none for). */
const callOf = (tool: string) =>
  documentedCalls().find((c) => c.tool === tool) ?? { tool, args: {}, where: 'no arguments' };

describe('MCP protocol eras', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) => {
    let req = t.http.post('/mcp').set('Accept', ACCEPT).set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return req.send(JSON.stringify(body));
  };
  /** A request of revision 2026-07-28 as its specification writes it: envelope in `_meta`, standard headers. */
  const modern = (method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    post(
      { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: envelope } },
      { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...headers },
    );

  describe.each(ERAS)('the SDK client with %j', (how) => {
    let client: Client;
    let tools: Tool[] = [];
    beforeAll(async () => {
      client = await connectMcp(t.baseUrl, how);
      tools = (await client.listTools()).tools;
    });
    afterAll(() => client.close());
    const { call, errorText } = toolCaller(
      () => client,
      () => tools,
    );

    it('negotiates the era and revision it asked for', () => {
      expect(client.getProtocolEra()).toBe(how.era);
      expect(client.getNegotiatedProtocolVersion()).toBe(how.era === 'modern' ? MODERN : how.protocolVersion);
    });

    it('lists every tool', () => {
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    });

    it.each(TOOL_NAMES)(
      'calls %s with its documented arguments, the answer matching the output schema',
      async (name) => {
        const result = await call(name, callOf(name).args);
        expect(result.isError).toBeFalsy();
      },
    );

    it('answers an unknown guide slug saying it is a slug', async () => {
      expect(errorText(await call('get_guide', { slug: 'no-such-guide' }))).toMatch(
        /^No guide has the slug "no-such-guide"\./,
      );
    });

    it('lists every guide and provider as a resource, over pages', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual(
        [
          ...rawGuides.map((g) => `guide://${g.slug}`),
          ...rawProviders.providers.map((p) => `provider://${p.id}`),
        ].sort(),
      );
    });
  });

  describe('protocol revision 2026-07-28 on the wire', () => {
    it('answers server/discover with the revision, the capabilities and the instructions', async () => {
      const res = await modern('server/discover').expect(200);
      expect(res.body.result).toMatchObject({
        supportedVersions: expect.arrayContaining([MODERN]),
        capabilities: { tools: {}, resources: {} },
        instructions: expect.any(String),
      });
    });

    it('lists in server/discover every protocol version it speaks, both eras, each one it negotiates at initialize', async () => {
      const { supportedVersions } = (await modern('server/discover').expect(200)).body.result;
      expect(supportedVersions[0]).toBe(MODERN);
      expect(supportedVersions).toEqual(
        expect.arrayContaining(ERAS.flatMap((how) => (how.era === 'legacy' ? [how.protocolVersion] : []))),
      );
      for (const version of supportedVersions.filter((v: string) => v !== MODERN)) {
        const init = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        };
        expect([version, (await post(init).expect(200)).body.result.protocolVersion]).toEqual([version, version]);
      }
      const card = (await t.http.get('/.well-known/mcp/server-card.json').expect(200)).body;
      expect(card.protocolVersions).toEqual(supportedVersions);
    });

    it.each([
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      // The standard headers name what a request acts on: the resource for resources/read.
      ['resources/read', { uri: 'guide://swap-file' }, { 'Mcp-Name': 'guide://swap-file' }],
      ['server/discover', {}],
    ] as [string, Record<string, unknown>, Record<string, string>?][])(
      'marks %s cacheable by anyone for as long as the HTTP API lets a document be cached',
      async (method, params, headers = {}) => {
        const maxAge = Number(
          /max-age=(\d+)/.exec((await t.http.get('/api/providers.json').expect(200)).headers['cache-control'])![1],
        );
        const { result } = (await modern(method, params, headers).expect(200)).body;
        expect({ ttlMs: result.ttlMs, cacheScope: result.cacheScope }).toEqual({
          ttlMs: maxAge * 1000,
          cacheScope: 'public',
        });
        expect(maxAge).toBeGreaterThan(0);
      },
    );

    it('lists the tools in the same order every time, in both eras', async () => {
      const names = async (send: () => ReturnType<typeof post>) =>
        (await send().expect(200)).body.result.tools.map((tool: Tool) => tool.name);
      const first = await names(() => modern('tools/list'));
      for (let i = 0; i < 4; i++) expect(await names(() => modern('tools/list'))).toEqual(first);
      expect(await names(() => post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).toEqual(first);
      expect([...first].sort()).toEqual(TOOL_NAMES);
    });

    describe.each(documentedExchange())('the documented exchange: $method', ({ request, answer }) => {
      it('is answered as docs/mcp.md shows', async () => {
        let req = t.http.post(request.path);
        for (const [name, value] of request.headers) req = req.set(name, value);
        const res = await req.send(request.body);
        expect(res.status).toBe(answer.status);
        for (const [name, value] of answer.headers)
          expect([name, res.headers[name.toLowerCase()]]).toEqual([name, value]);
        expect(shapeProblems(answer.body, JSON.parse(res.text))).toEqual([]);
      });
    });

    it('serves a tool call that names 2026-07-28 in MCP-Protocol-Version', async () => {
      const res = await modern(
        'tools/call',
        { name: 'describe_filters', arguments: {} },
        { 'Mcp-Name': 'describe_filters' },
      ).expect(200);
      expect(res.body.result.structuredContent.storageTypes).toEqual(['NVMe', 'SSD', 'HDD']);
    });

    it('refuses MCP-Protocol-Version 2026-07-28 without the envelope with invalid params, saying what is missing', async () => {
      const res = await post(
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { 'MCP-Protocol-Version': MODERN },
      ).expect(400);
      expect(res.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('_meta') });
    });
  });

  describe('resources/list pages', () => {
    const everyUri = [
      ...rawGuides.map((g) => `guide://${g.slug}`),
      ...rawProviders.providers.map((p) => `provider://${p.id}`),
    ];
    const pages = async (list: (cursor?: string) => Promise<{ resources: { uri: string }[]; nextCursor?: string }>) => {
      const seen: number[] = [];
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(cursor);
        seen.push(page.resources.length);
        uris.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
      } while (cursor);
      return { seen, uris };
    };

    it.each([
      [
        '2025 era',
        (cursor?: string) =>
          post({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: cursor ? { cursor } : {} }),
      ],
      ['2026-07-28', (cursor?: string) => modern('resources/list', cursor ? { cursor } : {})],
    ])('holds at most 50 resources each in the %s, every resource once', async (_era, send) => {
      const { seen, uris } = await pages(async (cursor) => (await send(cursor).expect(200)).body.result);
      expect(everyUri.length).toBeGreaterThan(50);
      expect(seen.every((n) => n <= 50)).toBe(true);
      expect(seen.length).toBe(Math.ceil(everyUri.length / 50));
      expect(uris.sort()).toEqual([...everyUri].sort());
    });

    const cursorOf = (position: unknown) => Buffer.from(JSON.stringify(position)).toString('base64url');
    it.each([
      ['made up', () => 'abc', 'not a cursor from this server'],
      ['of another dataset version', () => cursorOf(['1999-01-01', 50]), 'dataset version 1999-01-01'],
      ['past the end', (version: string) => cursorOf([version, 100000]), 'past the end'],
    ])('refuses a cursor %s with -32602 saying what to do', async (_n, cursor, says) => {
      const first = (await post({ jsonrpc: '2.0', id: 1, method: 'resources/list' }).expect(200)).body.result;
      const version = JSON.parse(Buffer.from(first.nextCursor, 'base64url').toString())[0];
      const res = await post({
        jsonrpc: '2.0',
        id: 2,
        method: 'resources/list',
        params: { cursor: cursor(version) },
      }).expect(200);
      expect(res.body.error).toMatchObject({ code: -32602, message: expect.stringContaining(says) });
    });
  });

  describe('published schemas', () => {
    let tools: Tool[] = [];
    beforeAll(async () => {
      tools = (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200)).body.result.tools;
    });
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

    it('accept every example value the parameter descriptions give', () => {
      const values = documentedValues(tools as never);
      // The descriptions a model reads name these, among others.
      expect(values).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ tool: 'find_vps_plans', parameter: 'storageType', value: 'NVMe' }),
        ]),
      );
      const refused = values.filter(({ tool, parameter, value }) => {
        const schema = tools.find((x) => x.name === tool)!.inputSchema.properties![parameter] as object;
        return !ajv.validate(schema, value);
      });
      expect(refused).toEqual([]);
    });

    it('accept every call the README and docs/mcp.md show (tools by inputSchema, prompts by their arguments)', async () => {
      const prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] = (
        await post({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }).expect(200)
      ).body.result.prompts;
      const accepts = ({ tool, args }: { tool: string; args: Record<string, unknown> }) => {
        const asTool = tools.find((x) => x.name === tool);
        if (asTool) return ajv.validate(asTool.inputSchema, args);
        const asPrompt = prompts.find((x) => x.name === tool);
        if (!asPrompt) return false;
        const declared = asPrompt.arguments ?? [];
        return (
          Object.entries(args).every(
            ([name, value]) => typeof value === 'string' && declared.some((a) => a.name === name),
          ) && declared.every((a) => !a.required || a.name in args)
        );
      };
      const calls = documentedCalls();
      expect(calls.length).toBeGreaterThanOrEqual(9);
      expect(calls.filter((call) => !accepts(call))).toEqual([]);
    });

    it('accept "NVMe", "ssd" and "Hdd" for storageType, as the tool does, and refuse "tape"', () => {
      const schema = tools.find((x) => x.name === 'find_vps_plans')!.inputSchema;
      for (const storageType of ['NVMe', 'nvme', 'ssd', 'SSD', 'Hdd'])
        expect(ajv.validate(schema, { storageType })).toBe(true);
      expect(ajv.validate(schema, { storageType: 'tape' })).toBe(false);
    });

    it('use no type arrays and no untyped values in output schemas', () => {
      for (const tool of tools) {
        const json = JSON.stringify(tool.outputSchema);
        expect({
          tool: tool.name,
          typeArrays: json.match(/"type":\[[^\]]*\]/g) ?? [],
          untyped: json.match(/:\{\}/g) ?? [],
        }).toEqual({ tool: tool.name, typeArrays: [], untyped: [] });
      }
    });
  });

  it('names no Mcp-Session-Id among the headers a browser may read (none is ever sent)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
    expect(res.headers['access-control-expose-headers']).not.toMatch(/mcp-session-id/i);
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });
});
