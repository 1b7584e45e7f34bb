import { z } from 'zod';
import { STALE_AFTER_DAYS } from '../../dataset/price-age.js';
import { MAX_SHARED_ALTERNATIVES } from '../../plans/equivalent-plans.service.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { cpuTypeSchema, figureInput, priceUnknownAtLocationSchema, soldInShape, cpuTypeInput } from './schemas.js';

const figures = {
  vcpus: z.number().nullable(),
  ramGb: z.number().nullable(),
  storageGb: z.number().nullable(),
  bandwidthTb: z.number().nullable().describe('Included traffic in TB; null when unmetered or not a volume.'),
  storageType: z.string().nullable(),
  unmetered: z.boolean().describe('True when traffic is not metered: it meets any volume, as in find_vps_plans.'),
};

const equivalentShape = {
  providerId: z.string(),
  planName: z.string(),
  price: z.number().describe('Monthly price as billed, in `currency` of the plan.'),
  currency: z.string(),
  normalizedPrice: z
    .number()
    .describe("No-commitment monthly price in the answer's currency (at the location's price with a location)."),
  cpuType: cpuTypeSchema,
  observedAt: z.string().describe('The day the provider showed this price.'),
  stale: z
    .boolean()
    .describe(
      `True when the price was seen more than ${STALE_AFTER_DAYS} days before today (UTC), or before a price change the provider reported.`,
    ),
  orderable: z
    .literal(false)
    .optional()
    .describe('false for a plan the provider does not let anyone order (only with includeUnorderable).'),
  priceDifferencePercent: z
    .number()
    .optional()
    .describe('Against the reference; negative is cheaper. Absent when the reference has no no-commitment price.'),
  ...figures,
  lowerThanReference: z
    .array(z.string())
    .describe(
      'What is below the reference: figures (e.g. bandwidthTb), and cpuType for a shared plan against a dedicated reference.',
    ),
  notComparable: z
    .array(z.string())
    .describe('Figures one side does not state (a traffic allowance neither a volume nor unmetered).'),
  ...soldInShape,
  datacenters: z
    .array(z.string())
    .optional()
    .describe('With a location or country: the data centres there where the plan is sold at normalizedPrice.'),
  regionalPriceFactor: z
    .number()
    .optional()
    .describe('With a location or country: the listed price times this is the price there, when not 1.'),
};

// Listed twice (equivalents, and the shared-vCPU alternatives with their reason): an id publishes it once, under $defs.
const equivalentSchema = z.object(equivalentShape).meta({ id: 'Equivalent' });

export const findEquivalentPlansTool = defineTool({
  name: 'find_equivalent_plans',
  title: 'Find equivalent plans at other providers',
  description:
    'Given a plan (providerId + planName) or figures (vcpus, ramGb, storageGb, cpuType; never both), lists plans still sold month to month (orderable unless includeUnorderable) at other providers with at least its vCPUs, RAM and disk, cheapest first in one currency, with the difference in percent. ' +
    'A dedicated reference is met only by dedicated plans; cheaper shared ones are apart in sharedCpuAlternatives. lowerThanReference names anything lower (traffic can be; unmetered meets any volume): never call a result equal without it. ' +
    'location or country: plans sold there, at the price there; a price the dataset lacks puts a plan in priceUnknownAtLocation. emptyReason says what to relax. Each result has soldIn, observedAt and stale. Next: estimate_monthly_cost.',
  inputSchema: {
    providerId: z
      .string()
      .max(64)
      .optional()
      .describe('Provider id of the reference plan, e.g. "digitalocean"; with planName.'),
    planName: z.string().max(120).optional().describe('Name of the reference plan, e.g. "Basic 4 GB".'),
    vcpus: figureInput('vcpus', 'vCPUs', 2, 1024, true).describe('Without a plan: vCPUs to meet.'),
    ramGb: figureInput('ramGb', 'GB', 8, 4096).describe('Without a plan: memory in GB to meet.'),
    storageGb: figureInput('storageGb', 'GB', 80, 1_000_000).describe('Without a plan: disk in GB to meet.'),
    cpuType: cpuTypeInput(
      'Without a plan: "dedicated" to be met only by dedicated-vCPU plans, "shared" for any. With a plan it is refused: the plan\'s own CPU type applies.',
    ),
    location: z
      .string()
      .max(64)
      .optional()
      .describe(
        'Only plans sold in this data-centre city, e.g. "New York" (any case, accents optional), at the price there.',
      ),
    country: z
      .string()
      .max(64)
      .optional()
      .describe(
        'Only plans sold in a data centre in this country: ISO 3166-1 alpha-2 or a name, e.g. "US" or "Germany".',
      ),
    currency: z.string().max(8).optional().describe('ISO 4217 code to compare prices in (default USD).'),
    limit: z.number().int().min(1).max(50).optional().describe('How many plans to return, 1-50 (default 10).'),
    includeUnorderable: z
      .boolean()
      .optional()
      .describe('true: list plans nobody can order (sold out, legacy) too, flagged orderable: false.'),
  },
  outputSchema: z.object({
    reference: z.object({
      providerId: z.string().optional(),
      planName: z.string().optional(),
      price: z.number().optional(),
      currency: z.string().optional(),
      normalizedPrice: z
        .number()
        .optional()
        .describe("The reference's no-commitment list price in the answer's currency."),
      observedAt: z.string().optional().describe('With a reference plan: the day the provider showed its price.'),
      stale: z.boolean().optional().describe('With a reference plan: whether its price is stale.'),
      ...figures,
      cpuType: cpuTypeSchema.optional().describe("The reference plan's CPU type, or the cpuType given with figures."),
    }),
    comparedOn: z.literal('no-commitment'),
    currency: z.string(),
    exchangeRatesDate: z.string(),
    datasetVersion: z
      .string()
      .describe(
        "The dataset version (release day, YYYY-MM-DD) the prices are from; each price's observedAt says when the provider showed it.",
      ),
    location: z
      .object({ location: z.string().optional(), country: z.string().optional() })
      .optional()
      .describe('With location or country: where the plans must be sold, as the dataset spells it.'),
    totalMatches: z.number().int(),
    equivalents: z.array(equivalentSchema),
    sharedCpuAlternatives: z
      .array(
        equivalentSchema.and(z.object({ reason: z.string().describe('Why the plan is lower than the reference.') })),
      )
      .optional()
      .describe(
        `Only for a dedicated-vCPU reference: up to ${MAX_SHARED_ALTERNATIVES} of the cheapest shared-vCPU plans that meet its figures. Lower, never equal.`,
      ),
    sharedCpuLeftOut: z
      .number()
      .int()
      .optional()
      .describe('With sharedCpuAlternatives: how many shared-vCPU plans meet the figures in all.'),
    priceUnknownAtLocation: priceUnknownAtLocationSchema,
    emptyReason: z.string().optional().describe('Only when no plan qualifies: why, and which constraint to relax.'),
  }),
  annotations: READ_ONLY,
  handler: (args, { equivalents }) =>
    withDomainErrors(() => structured({ ...equivalents.find(args) }), {
      list: 'Call list_vps_providers for providers and their plans.',
    }),
});
