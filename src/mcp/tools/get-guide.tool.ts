import { z } from 'zod';
import { DEFAULT_CHUNK_CHARS, MAX_CHUNK_CHARS } from '../../guides/guides.service.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';

export const getGuideTool = defineTool({
  name: 'get_guide',
  title: 'Read a guide',
  description:
    "A guide's markdown by slug, in chunks: read from `offset` up to `maxChars` characters and call again with `nextOffset` until it is null. " +
    'Each chunk carries the published and updated dates and the author; site links are absolute. Slugs come from search_guides (reviews: "<id>-review").',
  inputSchema: {
    slug: z
      .string({ error: 'Pass "slug": a guide slug from search_guides, e.g. "first-login-ssh-keys".' })
      .min(1, { error: 'Pass "slug": a guide slug from search_guides, e.g. "first-login-ssh-keys".' })
      .max(200)
      .describe('Guide slug, e.g. "hetzner-review" or "wireguard-vpn-server".'),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Character offset to start from (default 0); use the previous answer's nextOffset."),
    maxChars: z
      .number()
      .int()
      .min(1)
      .max(MAX_CHUNK_CHARS)
      .optional()
      .describe(`Most characters to return (default ${DEFAULT_CHUNK_CHARS}, at most ${MAX_CHUNK_CHARS}).`),
  },
  outputSchema: z.object({
    slug: z.string(),
    title: z.string(),
    url: z.string(),
    published: z.string().describe('Day of publication (YYYY-MM-DD).'),
    updated: z.string().describe('Day of the last substantive change; equal to published when there was none.'),
    author: z.string().describe("The author's name."),
    markdown: z.string().describe('This chunk of the markdown; links to this site are absolute.'),
    totalChars: z.number(),
    nextOffset: z.number().nullable().describe('Offset of the next chunk, or null when this chunk ends the guide.'),
  }),
  annotations: READ_ONLY,
  handler: ({ slug, offset, maxChars }, { guides }) =>
    withDomainErrors(() => structured({ ...guides.read(slug, offset, maxChars) }), {
      list: 'Call search_guides to find guides by topic.',
    }),
});
