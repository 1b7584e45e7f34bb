import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The official SDK client, connected over Streamable HTTP to an app's /mcp. */
export async function connectMcp(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'vpsapi-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  return client;
}
