import { z } from 'zod';
import { PROVIDER_SORTS } from '../../providers/provider-documents.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured } from '../tool-results.js';
import { locationSchema, planSchema } from './schemas.js';

export const listVpsProvidersTool = defineTool({
  name: 'list_vps_providers',
  title: 'List VPS providers',
  description:
    'Lists all eight reviewed VPS providers with their editorial rating (0-5), entry price, data-center locations, the workloads they suit best and their full plan matrix. ' +
    'Use it for an overview or to compare providers side by side; use get_vps_provider for one provider\'s verdict, pros and cons, and find_vps_plans to filter plans by resources or budget. ' +
    'Prices are monthly, excluding VAT, in the currency each provider bills in; startingPriceUsd converts the entry price to USD. ' +
    'startingPrice may need a prepaid term (see each plan\'s priceBasis); monthToMonthStartingPrice is the entry price with no commitment, and the "price" order sorts on it.',
  inputSchema: {
    sortBy: z
      .enum(PROVIDER_SORTS)
      .optional()
      .describe('Order of the list: "rating" (best first, the default), "price" (cheapest no-commitment entry price in USD first; providers with none last) or "name" (A-Z).'),
  },
  outputSchema: z.object({
    providers: z.array(
      z.object({
        id: z.string().describe('Stable provider id for get_vps_provider and find_vps_plans.'),
        name: z.string(),
        rating: z.number(),
        startingPrice: z.number(),
        currency: z.string(),
        startingPriceUsd: z.number(),
        monthToMonthStartingPrice: z.number().nullable().describe('Cheapest price with no commitment, in `currency`; null when none is confirmed.'),
        monthToMonthStartingPriceUsd: z.number().nullable(),
        locations: z.number().int().describe('Number of data-centre locations.'),
        datacenters: z.array(locationSchema),
        bestFor: z.array(z.string()).describe('Use-case slugs, as accepted by recommend_vps_for_workload.'),
        url: z.string().describe('Review page.'),
        plans: z.array(planSchema),
      }),
    ),
  }),
  annotations: READ_ONLY,
  handler: ({ sortBy }, { providers }) => structured({ providers: [...providers.summaries(sortBy)] }),
});
