import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type McpServer,
  type Resource,
} from '@modelcontextprotocol/server';
import type { ToolServices } from '../tool-definition.js';

const MAX_COMPLETIONS = 100;

/** Every guide as a resource, in slug order (resources/list pages through it, see resource-pages.ts). */
export function guideResources({ guides }: ToolServices): Resource[] {
  return guides.slugs().map((slug) => {
    const entry = guides.entry(slug)!;
    return {
      uri: `guide://${slug}`,
      name: slug,
      title: entry.title,
      description: entry.description,
      mimeType: 'text/markdown',
    };
  });
}

/** Every guide as `guide://{slug}`, markdown, with slug completion. */
export function registerGuideResources(server: McpServer, { guides }: ToolServices): void {
  const template = new ResourceTemplate('guide://{slug}', {
    list: undefined,
    complete: {
      slug: (value) => {
        const prefix = String(value ?? '').toLowerCase();
        const matches = guides
          .slugs()
          .filter((s) => s.startsWith(prefix))
          .sort();
        return (matches.length > 0 ? matches : guides.closest(prefix)).slice(0, MAX_COMPLETIONS);
      },
    },
  });
  server.registerResource(
    'guide',
    template,
    { title: 'Guide', description: 'A VPS guide or provider review as markdown.', mimeType: 'text/markdown' },
    (uri, { slug }) => {
      const entry = guides.entry(String(slug));
      if (!entry) {
        const closest = guides.closest(String(slug));
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No guide at ${uri.href}.${closest.length ? ` Closest: ${closest.map((s) => `guide://${s}`).join(', ')}.` : ''}`,
        );
      }
      return {
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `# ${entry.title}\n\n${entry.markdown}` }],
      };
    },
  );
}
