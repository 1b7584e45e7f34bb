import { z } from 'zod';
import { DEFAULT_PLAN_LIMIT, MAX_PLAN_LIMIT } from '../../plans/plans.service.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { anyCase, planPricingShape, planTextShape } from './schemas.js';

const positive = (max: number) => z.number().positive().max(max).optional();

export const findVpsPlansTool = defineTool({
  name: 'find_vps_plans',
  title: 'Find VPS plans',
  description:
    'Finds plans across all providers that meet every constraint you give (minimum RAM, disk and vCPUs, a price ceiling, disk type, a set of providers), cheapest first. ' +
    'By default plans are ranked and bounded by what they cost month to month with no commitment; plans sold only on a prepaid term (e.g. Hostinger\'s 24-month rates) are left out and counted in leftOutNeedingCommitment. ' +
    'Pass includeCommitments: true to rank by the lowest effective monthly price instead; every result says its priceBasis, termMonths and renewalPrice, so tell the user when a price needs a commitment or renews higher. ' +
    'Prices are converted into one currency (USD unless you ask for another) with the dataset\'s dated ECB exchange rates, so plans billed in EUR and USD compare fairly; ' +
    'each result keeps the price and currency it is billed in. Use it to answer "what is the cheapest server with at least X"; use recommend_vps_for_workload when the user describes a workload instead of resources. ' +
    `Returns at most ${MAX_PLAN_LIMIT} plans (default ${DEFAULT_PLAN_LIMIT}); totalMatches says how many met the constraints.`,
  inputSchema: {
    minRamGb: positive(4096).describe('Minimum memory in GB, e.g. 4 or 0.5.'),
    minStorageGb: positive(1_000_000).describe('Minimum disk in GB, e.g. 80.'),
    minVcpus: z.number().int().positive().max(1024).optional().describe('Minimum number of vCPUs.'),
    maxMonthlyPrice: positive(1_000_000).describe('Highest acceptable monthly price, in `currency`.'),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, { error: 'currency must be a three-letter ISO 4217 code such as USD or EUR' })
      .optional()
      .describe('ISO 4217 code to compare and bound prices in (default USD); EUR, GBP, CHF, JPY, CAD, AUD and other ECB currencies work.'),
    storageType: z
      .string()
      .regex(anyCase('nvme', 'ssd', 'hdd'), { error: 'storageType must be NVMe, SSD or HDD' })
      .optional()
      .describe('Disk technology: "NVMe", "SSD" or "HDD" (any case).'),
    providers: z
      .array(z.string().max(64))
      .max(8)
      .optional()
      .describe('Only these provider ids, e.g. ["hetzner", "vultr"]; all providers when omitted.'),
    limit: z.number().int().min(1).max(MAX_PLAN_LIMIT).optional().describe(`How many plans to return, 1-${MAX_PLAN_LIMIT} (default ${DEFAULT_PLAN_LIMIT}).`),
    includeCommitments: z
      .boolean()
      .optional()
      .describe('false (default): rank by the no-commitment monthly price and leave out plans that need a prepaid term. true: rank by the lowest effective monthly price, prepaid terms and promotional rates included.'),
  },
  outputSchema: z.object({
    plans: z.array(
      z.object({
        providerId: z.string(),
        providerName: z.string(),
        planName: z.string(),
        price: z.number().describe('Monthly price as billed, in `currency`.'),
        currency: z.string(),
        normalizedPrice: z.number().describe('The compared monthly price (see comparedOn) converted to `normalizedCurrency`.'),
        normalizedCurrency: z.string(),
        ...planTextShape,
        vcpus: z.number().nullable(),
        ramGb: z.number().nullable(),
        storageGb: z.number().nullable(),
        bandwidthTb: z.number().nullable().describe('Included traffic in TB; null when unmetered or not stated as a volume.'),
        ...planPricingShape,
        url: z.string().describe('Review page of the provider.'),
      }),
    ),
    totalMatches: z.number(),
    comparedOn: z.enum(['no-commitment', 'lowest-effective']).describe('Which monthly price ranked and bounded the plans; normalizedPrice is that price converted.'),
    leftOutNeedingCommitment: z.number().int().describe('Plans that met every constraint but have no no-commitment price, so were left out; pass includeCommitments: true to see them.'),
    currency: z.string(),
    exchangeRatesDate: z.string().describe('Day of the exchange rates used for conversion.'),
  }),
  annotations: READ_ONLY,
  handler: (args, { plans }) =>
    withDomainErrors(() => structured({ ...plans.find(args) }), { list: 'Call list_vps_providers to see every provider.' }),
});
