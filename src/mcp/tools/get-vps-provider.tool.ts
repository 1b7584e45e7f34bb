import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { pick, responseFormatInput, RESPONSE_FORMATS } from '../response-format.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { providerSchema } from './schemas.js';

/** The record's fields in a concise answer: who the provider is and what the review says; the rest is detailed. */
const CONCISE_FIELDS = [
  'id',
  'name',
  'rating',
  'ratings',
  'summary',
  'verdict',
  'pros',
  'cons',
  'startingPrice',
  'currency',
  'monthToMonthStartingPrice',
  'pricingNotes',
  'priceAge',
  'planListComplete',
  'uptime',
  'support',
  'supportChannels',
  'locations',
  'bestFor',
  'features',
  'founded',
  'headquarters',
  'website',
  'url',
  'affiliateUrl',
  'statusPageUrl',
  'self',
] as const;

const lineSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  plans: z.number().int().describe('How many of its plans the record lists.'),
  discontinued: z.boolean(),
});

export const getVpsProviderTool = defineTool({
  name: 'get_vps_provider',
  title: 'Get one VPS provider',
  description:
    'One provider by id (any case). Concise (the default): the review (summary, verdict, ratings, pros, cons, pricing notes), entry prices, price age, SLA, support, features, links, and its plan lines with their plan counts. ' +
    '"detailed": the full record as GET /api/providers/{id}.json serves it (every plan, regional prices, data centres, add-on prices, tax rules, sources). For plans by resources use find_vps_plans with providers: [id].',
  inputSchema: {
    id: z
      .string({ error: 'Pass "id": a provider id such as "hetzner" (list_vps_providers lists them all).' })
      .min(1, { error: 'Pass "id": a provider id such as "hetzner" (list_vps_providers lists them all).' })
      .max(64)
      .describe('Provider id, any case, e.g. "hetzner" or "DigitalOcean".'),
    responseFormat: responseFormatInput('the review, prices in brief and plan lines, without the plans'),
  },
  outputSchema: z.object({
    provider: providerSchema
      .partial()
      .required({ id: true, name: true, rating: true })
      .extend({
        planLines: z
          .array(z.union([providerSchema.shape.planLines.element, lineSummarySchema]))
          .optional()
          .describe('Detailed: every line; concise: id, name, how many plans, discontinued.'),
      }),
    datasetVersion: z.string().describe('The dataset version (release day, YYYY-MM-DD) the record is from.'),
    responseFormat: z.enum(RESPONSE_FORMATS),
  }),
  annotations: READ_ONLY,
  handler: ({ id, responseFormat = 'concise' }, { providers }) =>
    withDomainErrors(
      () => {
        const { provider, version } = providers.get(id).value;
        if (responseFormat === 'detailed') return structured({ provider, datasetVersion: version, responseFormat });
        const planLines = provider.planLines.map((line) => ({
          id: line.id,
          name: line.name,
          plans: provider.plans.filter((plan) => plan.line === line.id).length,
          discontinued: line.discontinued !== undefined,
        }));
        return structured({
          provider: { ...pick(provider, CONCISE_FIELDS), planLines },
          datasetVersion: version,
          responseFormat,
        });
      },
      {
        list: 'Call list_vps_providers to see them with their plans.',
      },
    ),
});
