import { z } from 'zod';
import { GUIDE_TYPES } from '../../dataset/dto/guide.dto.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../guides/guides.service.js';
import { MAX_QUERY_LENGTH } from '../../search/search-index.js';
import {
  ANSWER_SIZE_NOTE,
  listingOutputShape,
  pick,
  responseFormatInput,
  structuredWithin,
} from '../response-format.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { withDomainErrors } from '../tool-results.js';

/** The fields of a result in a concise answer; the rest are detailed-only. */
const CONCISE_FIELDS = ['slug', 'title', 'type', 'score'] as const;

export const searchGuidesTool = defineTool({
  name: 'search_guides',
  title: 'Search the guides',
  description:
    'Full-text search over every guide and provider review (titles, keywords, descriptions, bodies), ranked, tolerant of prefixes and typos ("wiregard" finds WireGuard): slug, title, type, score; "detailed" adds description, snippet and URLs. ' +
    'For how-tos, comparisons, reviews; prices: find_vps_plans or recommend_vps_for_workload. ' +
    `Next: get_guide with a slug. ${ANSWER_SIZE_NOTE}`,
  inputSchema: {
    query: z
      .string({ error: 'Pass "query": a few keywords, e.g. "wireguard vpn".' })
      .trim()
      .min(1, { error: 'The query is empty: pass a few keywords, e.g. "wireguard vpn" or "hetzner vs digitalocean".' })
      .max(MAX_QUERY_LENGTH, {
        error: `The query is too long: keep it under ${MAX_QUERY_LENGTH} characters; a few keywords work best.`,
      })
      .describe('Keywords or a short question.'),
    type: z
      .enum(GUIDE_TYPES)
      .optional()
      .describe(`Only guides of this type: ${GUIDE_TYPES.join(', ')}.`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .optional()
      .describe(`How many results, 1-${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}).`),
    responseFormat: responseFormatInput('per result its slug, title, type and score'),
  },
  outputSchema: z.object({
    results: z.array(
      z.object({
        slug: z.string().describe('Pass to get_guide.'),
        title: z.string(),
        type: z.enum(GUIDE_TYPES),
        score: z.number(),
        description: z.string().optional().describe('Detailed only.'),
        url: z.string().optional().describe('Detailed only: the HTML page.'),
        markdownUrl: z.string().optional().describe('Detailed only: the raw markdown.'),
        snippet: z.string().optional().describe('Detailed only: the text around the best match.'),
      }),
    ),
    ...listingOutputShape,
  }),
  annotations: READ_ONLY,
  handler: ({ query, type, limit, responseFormat = 'concise' }, { guides }) =>
    withDomainErrors(() => {
      const results = guides.search(query, { type, limit });
      const shown = responseFormat === 'detailed' ? results : results.map((r) => pick(r, CONCISE_FIELDS));
      return structuredWithin({ results: shown, responseFormat }, 'results', responseFormat);
    }),
});
