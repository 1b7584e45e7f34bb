import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolServices } from '../tool-definition.js';
import { RESOURCE_NOT_FOUND } from './guide.resource.js';

/** Every provider as `provider://{id}`, its JSON record, with id completion. */
export function registerProviderResources(server: McpServer, { providers }: ToolServices): void {
  const template = new ResourceTemplate('provider://{id}', {
    list: () => ({
      resources: providers.summaries('name').map((p) => ({
        uri: `provider://${p.id}`,
        name: p.id,
        title: p.name,
        description: `${p.name}: rated ${p.rating}/5, from ${p.startingPrice} ${p.currency} a month.`,
        mimeType: 'application/json',
      })),
    }),
    complete: { id: (value) => providers.ids().filter((id) => id.startsWith(String(value ?? '').toLowerCase())) },
  });
  server.registerResource(
    'provider',
    template,
    { title: 'Provider', description: 'A reviewed VPS provider as JSON.', mimeType: 'application/json' },
    (uri, { id }) => {
      if (!providers.ids().includes(String(id))) {
        throw new McpError(RESOURCE_NOT_FOUND, `No provider at ${uri.href}. Valid: ${providers.ids().map((p) => `provider://${p}`).join(', ')}.`);
      }
      const { provider } = providers.get(String(id)).value;
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(provider) }] };
    },
  );
}
