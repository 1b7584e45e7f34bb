import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { locationSchema, planSchema } from './schemas.js';

const score = z.number().min(0).max(5);

export const getVpsProviderTool = defineTool({
  name: 'get_vps_provider',
  title: 'Get one VPS provider',
  description:
    'Returns the full review record of one provider: summary, editorial verdict, overall and per-area ratings, pros and cons, pricing notes, every plan, locations, features, support channels, ' +
    'and links (review page, sign-up page, status page) with the sources of the figures. Use it after list_vps_providers or when the user names a provider. ' +
    'Ids are lowercase: hetzner, digitalocean, vultr, linode, ovhcloud, contabo, hostinger, upcloud.',
  inputSchema: {
    id: z
      .string({ error: 'Pass "id": a provider id such as "hetzner" (list_vps_providers lists them all).' })
      .min(1, { error: 'Pass "id": a provider id such as "hetzner" (list_vps_providers lists them all).' })
      .max(64)
      .describe('Provider id, lowercase, e.g. "hetzner" or "digitalocean".'),
  },
  outputSchema: z.object({
    provider: z.object({
      id: z.string(),
      name: z.string(),
      summary: z.string(),
      verdict: z.string(),
      rating: score,
      ratings: z.object({ performance: score, value: score, support: score, easeOfUse: score, features: score }),
      startingPrice: z.number(),
      currency: z.string(),
      pricingNotes: z.string(),
      founded: z.number(),
      headquarters: z.object({ city: z.string(), country: z.string() }),
      website: z.string(),
      affiliateUrl: z.string(),
      statusUrl: z.string(),
      url: z.string().describe('Review page.'),
      locations: z.array(locationSchema),
      bestFor: z.array(z.string()),
      pros: z.array(z.string()),
      cons: z.array(z.string()),
      features: z.record(z.string(), z.boolean()),
      support: z.array(z.string()),
      plans: z.array(planSchema),
      sources: z.array(z.object({ url: z.string(), retrievedAt: z.string() })),
    }),
  }),
  annotations: READ_ONLY,
  handler: ({ id }, { providers }) =>
    withDomainErrors(() => structured({ provider: providers.get(id).value.provider }), {
      list: 'Call list_vps_providers to see them with their plans.',
    }),
});
