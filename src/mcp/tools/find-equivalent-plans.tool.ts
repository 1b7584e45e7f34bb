import { z } from 'zod';
import { STALE_AFTER_DAYS } from '../../dataset/price-age.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';

const figures = {
  vcpus: z.number().nullable(),
  ramGb: z.number().nullable(),
  storageGb: z.number().nullable(),
  bandwidthTb: z.number().nullable().describe('Included traffic in TB; null when unmetered or not a volume.'),
  storageType: z.string().nullable(),
};

export const findEquivalentPlansTool = defineTool({
  name: 'find_equivalent_plans',
  title: 'Find equivalent plans at other providers',
  description:
    'Given a plan the user has (providerId + planName) or its figures (vcpus, ramGb, storageGb), lists the plans at other providers with at least as many vCPUs, as much RAM and as much disk, cheapest first by the no-commitment monthly price in one currency. ' +
    'Each result gives its figures beside the reference, the price difference in percent, and lowerThanReference names any figure below the reference (traffic allowance can be), so never present a result as equal without saying what is lower. ' +
    'When to use: "what is the same for less?", for a plan the user already has or one found by find_vps_plans or recommend_vps_for_workload; call describe_filters first when unsure of a provider id, and list_vps_providers (detailed) for plan names. ' +
    'Every price says when the provider showed it (observedAt) and whether it is stale; say so when a result rests on a stale price. ' +
    'Next: estimate_monthly_cost on a candidate for the full bill. Plans sold only on a prepaid term, and plans of lines the provider no longer sells, are not listed.',
  inputSchema: {
    providerId: z.string().max(64).optional().describe('Provider id of the reference plan, e.g. "digitalocean"; with planName.'),
    planName: z.string().max(120).optional().describe('Name of the reference plan, e.g. "Basic 4 GB".'),
    vcpus: z.number().int().positive().max(1024).optional().describe('Without a plan: vCPUs to meet.'),
    ramGb: z.number().positive().max(4096).optional().describe('Without a plan: memory in GB to meet.'),
    storageGb: z.number().positive().max(1_000_000).optional().describe('Without a plan: disk in GB to meet.'),
    currency: z.string().max(8).optional().describe('ISO 4217 code to compare prices in (default USD).'),
    limit: z.number().int().min(1).max(50).optional().describe('How many plans to return, 1-50 (default 10).'),
  },
  outputSchema: z.object({
    reference: z.object({
      providerId: z.string().optional(),
      planName: z.string().optional(),
      price: z.number().optional(),
      currency: z.string().optional(),
      normalizedPrice: z.number().optional(),
      observedAt: z.string().optional().describe('With a reference plan: the day the provider showed its price.'),
      stale: z.boolean().optional().describe('With a reference plan: whether its price is stale.'),
      ...figures,
    }),
    comparedOn: z.literal('no-commitment'),
    currency: z.string(),
    exchangeRatesDate: z.string(),
    totalMatches: z.number().int(),
    equivalents: z.array(
      z.object({
        providerId: z.string(),
        planName: z.string(),
        price: z.number().describe('Monthly price as billed, in `currency` of the plan.'),
        currency: z.string(),
        normalizedPrice: z.number().describe('No-commitment monthly price in the answer\'s currency.'),
        observedAt: z.string().describe('The day the provider showed this price.'),
        stale: z.boolean().describe(`True when the price was seen more than ${STALE_AFTER_DAYS} days before the dataset version, or before a price change the provider reported.`),
        priceDifferencePercent: z.number().optional().describe('Against the reference; negative is cheaper. Absent when the reference has no no-commitment price.'),
        ...figures,
        lowerThanReference: z.array(z.string()).describe('Figures below the reference.'),
        notComparable: z.array(z.string()).describe('Figures unmetered or not stated as a volume on one side only.'),
      }),
    ),
  }),
  annotations: READ_ONLY,
  handler: (args, { equivalents }) =>
    withDomainErrors(() => structured({ ...equivalents.find(args) }), { list: 'Call list_vps_providers for providers and their plans.' }),
});
