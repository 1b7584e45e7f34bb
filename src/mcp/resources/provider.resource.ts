import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type McpServer,
  type Resource,
} from '@modelcontextprotocol/server';
import type { ToolServices } from '../tool-definition.js';

/** Every provider as a resource, by name (resources/list pages through it, see resource-pages.ts). */
export function providerResources({ providers }: ToolServices): Resource[] {
  return providers.summaries('name').map((p) => ({
    uri: `provider://${p.id}`,
    name: p.id,
    title: p.name,
    description: `${p.name}: rated ${p.rating}/5, from ${p.startingPrice} ${p.currency} a month.`,
    mimeType: 'application/json',
  }));
}

/** Every provider as `provider://{id}`, its JSON record, with id completion. */
export function registerProviderResources(server: McpServer, { providers }: ToolServices): void {
  const template = new ResourceTemplate('provider://{id}', {
    list: undefined,
    complete: { id: (value) => providers.ids().filter((id) => id.startsWith(String(value ?? '').toLowerCase())) },
  });
  server.registerResource(
    'provider',
    template,
    { title: 'Provider', description: 'A reviewed VPS provider as JSON.', mimeType: 'application/json' },
    (uri, { id }) => {
      if (!providers.ids().includes(String(id))) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No provider at ${uri.href}. Valid: ${providers
            .ids()
            .map((p) => `provider://${p}`)
            .join(', ')}.`,
        );
      }
      const { provider } = providers.get(String(id)).value;
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(provider) }] };
    },
  );
}
