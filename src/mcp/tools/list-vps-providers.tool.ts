import { z } from 'zod';
import { PROVIDER_SORTS } from '../../providers/provider-documents.js';
import { ANSWER_LIMITS, listingOutputShape, pick, responseFormatInput, structuredWithin } from '../response-format.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { STALE_AFTER_DAYS } from '../../dataset/price-age.js';
import { SUPPORT_CHANNELS } from '../../dataset/dto/provider.dto.js';
import { locationSchema, planSchema, priceAgeSchema } from './schemas.js';

/**
 * A plan in the listing: the matrix without what get_vps_provider gives per plan (its source, the
 * reason a price is stale, the unconfirmed list, the provider's own id, the prepaid and promotional
 * terms, the setup fee, the age in days and a successor), so that all eight providers fit in one
 * detailed answer; `observedAt`, `stale` and `discontinued` stay on every plan.
 */
export const LISTING_LEAVES_OUT = {
  source: true,
  staleReason: true,
  unconfirmed: true,
  providerPlanId: true,
  termMonths: true,
  promotional: true,
  renewalPrice: true,
  setupFee: true,
  priceAgeDays: true,
  successor: true,
  availability: true,
  orderable: true,
  orderableObservedAt: true,
  orderableSourceUrl: true,
} as const;
const listedPlanSchema = planSchema.omit(LISTING_LEAVES_OUT);
const listedPlan = (plan: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(plan).filter(([key]) => !(key in LISTING_LEAVES_OUT)));

/** The fields of a provider in a concise answer; the rest are detailed-only. */
const CONCISE_FIELDS = [
  'id',
  'name',
  'rating',
  'startingPriceUsd',
  'monthToMonthStartingPriceUsd',
  'priceAge',
  'uptime',
  'lineUptimes',
  'support',
  'supportChannels',
  'locations',
  'bestFor',
] as const;

/**
 * The format answered when none is asked for. Concise: a default answer is sized for a model's
 * context (the detailed one, with every plan, is seven times larger); the HTTP API serves the
 * contract's full list. The description, the schema and the server's instructions all say so (a
 * test reads the three).
 */
export const LIST_PROVIDERS_DEFAULT_FORMAT = 'concise';

const thousands = (n: number) => n.toLocaleString('en-US');

export const listVpsProvidersTool = defineTool({
  name: 'list_vps_providers',
  title: 'List VPS providers',
  description:
    'All eight reviewed providers with rating (0-5), entry prices in USD (monthToMonthStartingPriceUsd: no commitment; "price" sorts on it), priceAge (oldest and newest observedAt, stale count), uptime SLA ("unknown" where not confirmed; lineUptimes), support, locations, best-for use cases, by default (responseFormat "concise"); "detailed" adds currency, data centres, review URL and every plan. ' +
    'For overviews and comparisons. Next: get_vps_provider, find_vps_plans, recommend_vps_for_workload. Monthly prices excluding VAT. ' +
    `Answers stay under ${thousands(ANSWER_LIMITS.concise)} characters with responseFormat "concise" and under ${thousands(ANSWER_LIMITS.detailed)} with "detailed"; a longer list is cut from the end, and \`truncated\` counts what was left out.`,
  inputSchema: {
    sortBy: z
      .enum(PROVIDER_SORTS)
      .optional()
      .describe(
        'Order of the list: "rating" (best first, the default), "price" (cheapest no-commitment entry price in USD first; providers with none last) or "name" (A-Z).',
      ),
    responseFormat: responseFormatInput(
      'per provider its id, name, rating, entry prices in USD, price age, uptime SLA, support, number of locations and best-for use cases',
      LIST_PROVIDERS_DEFAULT_FORMAT,
    ),
  },
  outputSchema: z.object({
    providers: z.array(
      z.object({
        id: z.string().describe('Stable provider id for get_vps_provider and find_vps_plans.'),
        name: z.string(),
        rating: z.number(),
        startingPriceUsd: z.number(),
        monthToMonthStartingPriceUsd: z
          .number()
          .nullable()
          .describe('Cheapest price with no commitment, in USD; null when none is confirmed.'),
        priceAge: priceAgeSchema,
        uptime: z
          .string()
          .describe(
            'Advertised uptime SLA as the provider states it, e.g. "99.99%"; "no published SLA", or "unknown" where it could not be confirmed.',
          ),
        lineUptimes: z
          .array(z.object({ line: z.string(), uptime: z.string() }))
          .describe('Plan lines whose advertised SLA differs from `uptime`; empty when none does.'),
        support: z
          .string()
          .describe('Support channels and hours in words; starts with "unknown" where they could not be confirmed.'),
        supportChannels: z
          .array(z.enum(SUPPORT_CHANNELS))
          .describe('Support channels offered; `support` says the hours.'),
        locations: z.number().int().describe('Number of data-centre locations.'),
        bestFor: z.array(z.string()).describe('Use-case slugs, as accepted by recommend_vps_for_workload.'),
        startingPrice: z.number().optional().describe('Detailed only: the entry price in `currency`.'),
        currency: z.string().optional().describe('Detailed only: the currency the provider bills in.'),
        monthToMonthStartingPrice: z
          .number()
          .nullable()
          .optional()
          .describe('Detailed only: cheapest price with no commitment, in `currency`.'),
        datacenters: z.array(locationSchema).optional().describe('Detailed only.'),
        url: z.string().optional().describe('Detailed only: review page.'),
        plans: z
          .array(listedPlanSchema)
          .optional()
          .describe(
            'Detailed only: the plan matrix, each plan with its price basis, no-commitment price, observedAt, stale and discontinued; get_vps_provider gives every plan field (source, staleReason, terms, setup fee, successor).',
          ),
      }),
    ),
    datasetVersion: z
      .string()
      .describe(
        'The dataset version (release day, YYYY-MM-DD) these prices are from; describe_filters gives the licence to cite.',
      ),
    ...listingOutputShape,
  }),
  annotations: READ_ONLY,
  handler: ({ sortBy, responseFormat = LIST_PROVIDERS_DEFAULT_FORMAT }, { providers }) => {
    const list = providers.summaries(sortBy);
    const shown =
      responseFormat === 'detailed'
        ? list.map((p) => ({
            ...p,
            plans: p.plans.map((plan) => listedPlan(plan as unknown as Record<string, unknown>)),
          }))
        : list.map((p) => pick(p, CONCISE_FIELDS));
    return structuredWithin(
      { providers: shown, datasetVersion: providers.list().value.version, responseFormat },
      'providers',
      responseFormat,
    );
  },
});
