import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import Ajv from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { connectMcp } from './mcp-client';
import { startTestApp, type TestApp } from './test-app';

/** Calls tools through the real SDK client and checks every success against the tool's advertised outputSchema. */
export function toolCaller(client: () => Client, tools: () => Tool[]) {
  // The SDK (v2) publishes tool schemas as JSON Schema draft 2020-12.
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
    const result = (await client().callTool({ name, arguments: args })) as CallToolResult;
    if (!result.isError) {
      const validate = ajv.compile(tools().find((x) => x.name === name)!.outputSchema!);
      expect(validate(result.structuredContent) ? [] : validate.errors).toEqual([]);
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    }
    return result;
  };
  const data = (r: CallToolResult) => r.structuredContent as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  const errorText = (r: CallToolResult) => {
    expect(r.isError).toBe(true);
    return (r.content[0] as { text: string }).text;
  };
  return { call, data, errorText };
}

/**
 * The set-up every MCP tool suite shares: the real app (limit out of the way), the SDK client
 * connected to it and its tool list, closed after the suite; with `toolCaller`'s helpers.
 */
export function mcpSuite() {
  const state: { app?: TestApp; client?: Client; tools: Tool[] } = { tools: [] };
  beforeAll(async () => {
    state.app = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
    state.client = await connectMcp(state.app.baseUrl);
    state.tools = (await state.client.listTools()).tools;
  });
  afterAll(async () => {
    await state.client?.close();
    await state.app?.close();
  });
  return {
    app: () => state.app!,
    client: () => state.client!,
    tools: () => state.tools,
    ...toolCaller(() => state.client!, () => state.tools),
  };
}
