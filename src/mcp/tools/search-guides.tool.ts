import { z } from 'zod';
import { GUIDE_TYPES } from '../../dataset/dto/guide.dto.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../guides/guides.service.js';
import { MAX_QUERY_LENGTH } from '../../search/search-index.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';

export const searchGuidesTool = defineTool({
  name: 'search_guides',
  title: 'Search the guides',
  description:
    'Full-text search over every guide and provider review: titles, keywords, descriptions and the markdown bodies. Ranked by relevance, tolerant of prefixes and typos ("wiregard" finds WireGuard), ' +
    'each result with a snippet around the best match and the URLs of its page and raw markdown. Use it to find how-tos (SSH keys, firewalls, backups, Docker, WireGuard), comparisons ("hetzner vs digitalocean") or reviews; ' +
    'then call get_guide with a result\'s slug to read it.',
  inputSchema: {
    query: z
      .string({ error: 'Pass "query": a few keywords, e.g. "wireguard vpn".' })
      .trim()
      .min(1, { error: 'The query is empty: pass a few keywords, e.g. "wireguard vpn" or "hetzner vs digitalocean".' })
      .max(MAX_QUERY_LENGTH, { error: `The query is too long: keep it under ${MAX_QUERY_LENGTH} characters; a few keywords work best.` })
      .describe('Keywords or a short question.'),
    type: z.enum(GUIDE_TYPES).optional().describe(`Only guides of this type: ${GUIDE_TYPES.join(', ')}.`),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`How many results, 1-${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}).`),
  },
  outputSchema: z.object({
    results: z.array(
      z.object({
        slug: z.string().describe('Pass to get_guide.'),
        title: z.string(),
        type: z.enum(GUIDE_TYPES),
        description: z.string(),
        url: z.string(),
        markdownUrl: z.string(),
        score: z.number(),
        snippet: z.string(),
      }),
    ),
  }),
  annotations: READ_ONLY,
  handler: ({ query, type, limit }, { guides }) => withDomainErrors(() => structured({ results: guides.search(query, { type, limit }) })),
});
