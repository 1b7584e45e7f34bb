import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * How a client connects: `legacy` is the 2025 initialize handshake (offering `protocolVersion`, the
 * SDK's newest by default), `modern` pins protocol revision 2026-07-28 (server/discover, then a
 * `_meta` envelope on every request, no handshake).
 */
export type McpEra = { era: 'legacy'; protocolVersion?: string } | { era: 'modern' };

/** The official SDK client, connected over Streamable HTTP to an app's /mcp. */
export async function connectMcp(baseUrl: string, how: McpEra = { era: 'legacy' }): Promise<Client> {
  const client =
    how.era === 'modern'
      ? new Client({ name: 'vpsapi-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
      : new Client(
          { name: 'vpsapi-e2e', version: '1.0.0' },
          how.protocolVersion ? { supportedProtocolVersions: [how.protocolVersion] } : {},
        );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  return client;
}
