import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { documentedCalls } from './support/mcp-examples';
import { rawGuides, rawProviders } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';
import { TOOL_NAMES } from './support/tool-names';

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

/**
 * The MCP SDK v1 client (@modelcontextprotocol/sdk 1.x, what most deployed agents still embed) against
 * the SDK v2 transport this server answers with: the 2025 handshake, every tool, resources over pages.
 */
describe('the MCP SDK v1 client', () => {
  let t: TestApp;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let tools: Tool[];
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
    client = new Client({ name: 'vpsapi-e2e-v1', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`));
    await client.connect(transport);
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });
  // The v2 server publishes its schemas as JSON Schema draft 2020-12.
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

  it('negotiates the newest 2025 revision and lists every tool', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'vpsapi' });
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
  });

  it.each(TOOL_NAMES)('calls %s with its documented arguments, the answer matching the output schema', async (name) => {
    const args = documentedCalls().find((c) => c.tool === name)?.args ?? {};
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBeFalsy();
    const validate = ajv.compile(tools.find((tool) => tool.name === name)!.outputSchema!);
    expect(validate(result.structuredContent) ? [] : validate.errors).toEqual([]);
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(result.structuredContent);
  });

  it('answers an unknown provider with an isError result naming the valid ids', async () => {
    const result = await client.callTool({ name: 'get_vps_provider', arguments: { id: 'aws' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toContain('hetzner');
  });

  it('pages through every resource and reads one', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(uris.sort()).toEqual(
      [...rawGuides.map((g) => `guide://${g.slug}`), ...rawProviders.providers.map((p) => `provider://${p.id}`)].sort(),
    );
    const { contents } = await client.readResource({ uri: 'provider://vultr' });
    expect(JSON.parse(contents[0].text as string).id).toBe('vultr');
  });
});
