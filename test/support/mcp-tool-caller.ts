import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import Ajv from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { connectMcp } from './mcp-client';
import { DATA_DIR } from './raw-data';
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
 * connected to it and its tool list, closed after the suite; with `toolCaller`'s helpers. With
 * `editData`, the app serves a copy of the embedded dataset that the function edits first (the copy
 * is removed after the suite; `dataDir()` names it).
 */
export function mcpSuite(options: { editData?: (dir: string) => Promise<void> } = {}) {
  const state: { app?: TestApp; client?: Client; tools: Tool[]; dir?: string } = { tools: [] };
  beforeAll(async () => {
    let env: Record<string, string> = {};
    if (options.editData) {
      state.dir = await mkdtemp(join(tmpdir(), 'vpsapi-data-'));
      await cp(DATA_DIR, state.dir, { recursive: true });
      await options.editData(state.dir);
      env = { DATA_DIR: state.dir };
    }
    state.app = await startTestApp({ ...env, RATE_LIMIT_REQUESTS: '100000' });
    state.client = await connectMcp(state.app.baseUrl);
    state.tools = (await state.client.listTools()).tools;
  });
  afterAll(async () => {
    await state.client?.close();
    await state.app?.close();
    if (state.dir) await rm(state.dir, { recursive: true, force: true });
  });
  return {
    app: () => state.app!,
    client: () => state.client!,
    tools: () => state.tools,
    dataDir: () => state.dir!,
    ...toolCaller(
      () => state.client!,
      () => state.tools,
    ),
  };
}
