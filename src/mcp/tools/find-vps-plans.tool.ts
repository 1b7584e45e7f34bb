import { z } from 'zod';
import { MAX_CLOSEST, PLAN_CONSTRAINTS } from '../../plans/closest-plans.js';
import { SOURCE_METHODS } from '../../dataset/dto/source.dto.js';
import { STALE_AFTER_DAYS } from '../../dataset/price-age.js';
import { STORAGE_TYPES } from '../../plans/dto/plan-table-row.dto.js';
import {
  DEFAULT_PLAN_LIMIT,
  MAX_PLAN_LIMIT,
  type PlanMatch,
  type PlanSearchResult,
} from '../../plans/plans.service.js';
import {
  ANSWER_SIZE_NOTE,
  listingOutputShape,
  pick,
  responseFormatInput,
  structuredWithin,
} from '../response-format.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { withDomainErrors } from '../tool-results.js';
import {
  anyCase,
  architectureSchema,
  cpuTypeSchema,
  figureInput,
  planPricingShape,
  planTextShape,
  priceUnknownAtLocationSchema,
  soldInShape,
  cpuTypeInput,
} from './schemas.js';
import { CPU_TYPES } from '../../dataset/dto/plan.dto.js';
import { ARCHITECTURES } from '../../dataset/dto/plan-line.dto.js';

/** The fields of a plan in a concise answer; the rest are detailed-only. */
const CONCISE_PLAN_FIELDS = [
  'providerId',
  'planName',
  'normalizedPrice',
  'vcpus',
  'ramGb',
  'storageGb',
  'cpuType',
  'soldIn',
  'notSoldIn',
  'regionalPriceFactor',
  'observedAt',
  'stale',
] as const satisfies readonly (keyof PlanMatch)[];
const detailedOnly = <T extends z.ZodType>(schema: T) =>
  schema.optional().describe(`${schema.description ? `${schema.description} ` : ''}Detailed only.`);
const figure = z.union([z.number(), z.string(), z.array(z.string())]);

/** A search result as the tool answers it: concise drops the detailed-only fields. */
function present(result: PlanSearchResult, format: 'concise' | 'detailed') {
  if (format === 'detailed') return { ...result, responseFormat: format };
  // comparedOn: filters.includeCommitments says the same. stalePriceNote: each plan's `stale` and the stalePrices count carry the fact.
  const { comparedOn, stalePriceNote, ...rest } = result; // eslint-disable-line @typescript-eslint/no-unused-vars
  // A discontinued or unorderable plan (listed only when asked for) says so in either format.
  // With a transfer filter, the allowance each plan was matched on is part of the short answer too.
  const transfer = result.filters.minTransferTb !== undefined;
  const concise = (p: PlanMatch) => ({
    ...pick(p, CONCISE_PLAN_FIELDS),
    // The architecture where the data states one; "unknown" is said in detailed answers only (it is most plans).
    ...(p.architecture !== 'unknown' ? { architecture: p.architecture } : {}),
    ...(transfer ? { bandwidthTb: p.bandwidthTb, unmetered: p.unmetered } : {}),
    ...(p.discontinued ? { discontinued: true, successor: p.successor } : {}),
    ...(p.orderable === false && !p.discontinued ? { orderable: false, successor: p.successor } : {}),
  });
  return { ...rest, plans: result.plans.map(concise), responseFormat: format };
}

export const findVpsPlansTool = defineTool({
  name: 'find_vps_plans',
  title: 'Find VPS plans',
  description:
    'Plans meeting every constraint given (RAM, disk, vCPUs, monthly transfer, price ceiling, disk type, CPU type, architecture, providers, city or country), cheapest first by no-commitment monthly price in one currency (USD default; dated ECB rates). For stated resources or a budget; a workload in words: recommend_vps_for_workload. ' +
    'Each plan has cpuType, architecture (where stated; only those match its filter), soldIn, observedAt and stale (confirm a stale price). ' +
    'Counted, not listed: prepaid-only plans (leftOutNeedingCommitment; includeCommitments), discontinued lines (includeDiscontinued), plans nobody can order (leftOutUnorderable; includeUnorderable), allowances stated neither as a volume nor unmetered under minTransferTb (leftOutTransferUnknown). ' +
    'With location or country, a plan sold there at a price the dataset lacks is in priceUnknownAtLocation, never ranked. No match: closestMatches says what each near plan misses; beyondDataset the largest figures. ' +
    `Next: find_equivalent_plans, estimate_monthly_cost. At most ${MAX_PLAN_LIMIT} plans (default ${DEFAULT_PLAN_LIMIT}). ${ANSWER_SIZE_NOTE}`,
  inputSchema: {
    minRamGb: figureInput('minRamGb', 'GB', 8, 4096).describe('Minimum memory in GB, e.g. 4 or 0.5.'),
    minStorageGb: figureInput('minStorageGb', 'GB', 80, 1_000_000).describe('Minimum disk in GB, e.g. 80.'),
    minVcpus: figureInput('minVcpus', 'vCPUs', 2, 1024, true).describe('Minimum number of vCPUs.'),
    minTransferTb: figureInput('minTransferTb', 'TB a month', 2, 100_000).describe(
      'Minimum monthly traffic in decimal TB, e.g. 2; unmetered plans meet any figure.',
    ),
    maxMonthlyPrice: figureInput('maxMonthlyPrice', 'the currency a month', 20, 1_000_000).describe(
      'Highest acceptable monthly price, in `currency`.',
    ),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, { error: 'currency must be a three-letter ISO 4217 code such as USD or EUR' })
      .optional()
      .describe('ISO 4217 code to compare prices in (default USD), e.g. EUR, GBP.'),
    storageType: z
      .string()
      .regex(anyCase('nvme', 'ssd', 'hdd'), { error: 'storageType must be NVMe, SSD or HDD' })
      .optional()
      .describe('Disk technology: "NVMe", "SSD" or "HDD" (any case).'),
    cpuType: cpuTypeInput(
      '"dedicated" (vCPUs reserved for the server) or "shared" (cores shared with other tenants), any case.',
    ),
    architecture: z
      .string()
      .regex(anyCase('x86_64', 'arm64'), { error: 'architecture must be "x86_64" or "arm64"' })
      .optional()
      .describe('"arm64" or "x86_64", any case.'),
    providers: z
      .array(z.string().max(64))
      .max(8)
      .optional()
      .describe('Only these provider ids, e.g. ["hetzner", "vultr"].'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_PLAN_LIMIT)
      .optional()
      .describe(`How many plans to return, 1-${MAX_PLAN_LIMIT} (default ${DEFAULT_PLAN_LIMIT}).`),
    includeCommitments: z
      .boolean()
      .optional()
      .describe('true: rank by the lowest effective price, prepaid terms included.'),
    maxPriceAgeDays: z
      .number({ error: 'maxPriceAgeDays must be a whole number of days, 1 or more' })
      .int({ error: 'maxPriceAgeDays must be a whole number of days, 1 or more' })
      .positive({ error: 'maxPriceAgeDays must be a whole number of days, 1 or more' })
      .max(36_500)
      .optional()
      .describe(`Leave out prices seen more than this many days ago, e.g. ${STALE_AFTER_DAYS}.`),
    includeDiscontinued: z
      .boolean()
      .optional()
      .describe('true: list plans of discontinued lines too, flagged with their successor.'),
    includeUnorderable: z
      .boolean()
      .optional()
      .describe('true: list plans nobody can order (sold out, legacy) too, flagged orderable: false.'),
    location: z
      .string()
      .max(64)
      .optional()
      .describe(
        'A data-centre city, e.g. "Frankfurt" or "Sao Paulo" (any case, accents optional): plans sold there, at the price there.',
      ),
    country: z
      .string()
      .max(64)
      .optional()
      .describe(
        'A country, ISO 3166-1 alpha-2 or a name (e.g. "DE", "United Kingdom"): plans sold there, at the lowest price there.',
      ),
    responseFormat: responseFormatInput(
      'per plan its id, name, price, vCPUs, RAM, disk, CPU type and architecture, where sold, observedAt, stale',
    ),
  },
  outputSchema: z.object({
    filters: z
      .object({
        minVcpus: z.number().optional(),
        minRamGb: z.number().optional(),
        minStorageGb: z.number().optional(),
        minTransferTb: z.number().optional(),
        maxMonthlyPrice: z.number().optional(),
        currency: z.string(),
        storageType: z.enum(STORAGE_TYPES).optional(),
        cpuType: z.enum(CPU_TYPES).optional(),
        architecture: z.enum(ARCHITECTURES).optional(),
        providers: z.array(z.string()).optional(),
        location: z.string().optional().describe('The city as the dataset spells it.'),
        country: z.string().optional(),
        includeCommitments: z.boolean(),
        maxPriceAgeDays: z.number().int().optional(),
        includeDiscontinued: z.boolean(),
        includeUnorderable: z.boolean(),
        limit: z.number().int(),
      })
      .describe('The filters applied, normalized (defaults filled in, names as the dataset spells them).'),
    plans: z.array(
      z.object({
        providerId: z.string(),
        planName: z.string(),
        normalizedPrice: z
          .number()
          .describe(
            "The compared monthly price, in the answer's currency (at the location's price when one is given).",
          ),
        vcpus: z.number().nullable(),
        ramGb: z.number().nullable(),
        storageGb: z.number().nullable(),
        cpuType: cpuTypeSchema,
        architecture: architectureSchema
          .optional()
          .describe('x86_64 or arm64 where the data states it; concise answers leave "unknown" out.'),
        ...soldInShape,
        regionalPriceFactor: z
          .number()
          .optional()
          .describe('With a location: the listed price times this is the price there (e.g. 1.5 in São Paulo).'),
        observedAt: z.string().describe('The day the provider showed this price (YYYY-MM-DD).'),
        stale: z
          .boolean()
          .describe(
            `True when the price is older than ${STALE_AFTER_DAYS} days today (UTC), or a later price change was reported: confirm it at the provider.`,
          ),
        discontinued: z
          .boolean()
          .optional()
          .describe("True when the plan's line is no longer sold (only with includeDiscontinued)."),
        successor: z
          .string()
          .nullable()
          .optional()
          .describe("For a discontinued or unorderable plan: what replaces it, in the provider's words."),
        orderable: z
          .union([z.boolean(), z.literal('unknown')])
          .optional()
          .describe(
            'Whether it can be ordered, as last read ("unknown" without a reading); concise answers carry it only when false.',
          ),
        priceAgeDays: detailedOnly(z.number().int().describe('Whole days from observedAt to today (UTC).')),
        staleReason: detailedOnly(z.string().nullable().describe('Why the price is stale; null when it is not.')),
        priceSourceMethod: detailedOnly(
          z.enum(SOURCE_METHODS).describe('How the price was read: catalogue API, page, a dated copy, or an editor.'),
        ),
        providerName: detailedOnly(z.string()),
        price: detailedOnly(z.number().describe('Listed monthly price as billed, in `currency` of the plan.')),
        currency: detailedOnly(z.string()),
        normalizedCurrency: detailedOnly(z.string()),
        cpu: detailedOnly(planTextShape.cpu),
        ram: detailedOnly(planTextShape.ram),
        storage: detailedOnly(planTextShape.storage),
        bandwidth: detailedOnly(planTextShape.bandwidth),
        bandwidthTb: z
          .number()
          .nullable()
          .optional()
          .describe(
            'Included traffic in TB; null when unmetered or not stated as a volume. In concise answers only with minTransferTb.',
          ),
        unmetered: z
          .boolean()
          .optional()
          .describe(
            "True when the provider does not meter the plan's traffic. In concise answers only with minTransferTb.",
          ),
        priceBasis: detailedOnly(planPricingShape.priceBasis),
        termMonths: detailedOnly(planPricingShape.termMonths),
        promotional: detailedOnly(planPricingShape.promotional),
        renewalPrice: detailedOnly(planPricingShape.renewalPrice),
        monthToMonthPrice: detailedOnly(planPricingShape.monthToMonthPrice),
        url: detailedOnly(z.string().describe('Review page of the provider.')),
        datacenters: detailedOnly(
          z
            .array(z.string())
            .describe('With a location: the data centres there where the plan is sold at normalizedPrice.'),
        ),
        regionalPriceNote: detailedOnly(z.string()),
      }),
    ),
    totalMatches: z.number().int().describe('Plans that met every filter, before limit.'),
    comparedOn: detailedOnly(
      z.enum(['no-commitment', 'lowest-effective']).describe('Which monthly price ranked and bounded the plans.'),
    ),
    leftOutNeedingCommitment: z
      .number()
      .int()
      .describe('Plans meeting every constraint sold only on a prepaid term; includeCommitments: true lists them.'),
    leftOutDiscontinued: z
      .number()
      .int()
      .describe('Plans meeting every constraint of a line no longer sold; includeDiscontinued: true lists them.'),
    leftOutUnorderable: z
      .number()
      .int()
      .describe('Plans meeting every constraint that nobody can order; includeUnorderable: true lists them.'),
    leftOutTransferUnknown: z
      .number()
      .int()
      .optional()
      .describe(
        'With minTransferTb: plans meeting every other filter whose allowance is stated neither as a volume nor unmetered.',
      ),
    transferNote: z
      .string()
      .optional()
      .describe('Only when leftOutTransferUnknown is above 0: what to tell the user about those plans.'),
    stalePrices: z.number().int().describe('How many of the totalMatches plans rest on a stale price.'),
    stalePriceNote: detailedOnly(
      z.string().describe('Only when stalePrices is above 0: what a stale price means for the user.'),
    ),
    currency: z.string(),
    exchangeRatesDate: z.string().describe('Day of the oldest rate used.'),
    datasetVersion: z
      .string()
      .describe(
        "The dataset version (release day, YYYY-MM-DD) the prices are from; each price's observedAt says when the provider showed it.",
      ),
    priceUnknownAtLocation: priceUnknownAtLocationSchema,
    closestMatches: z
      .array(
        z.object({
          providerId: z.string(),
          planName: z.string(),
          normalizedPrice: z.number(),
          vcpus: z.number().nullable(),
          ramGb: z.number().nullable(),
          storageGb: z.number().nullable(),
          storageType: z.string().nullable(),
          cpuType: cpuTypeSchema,
          observedAt: z.string().describe('The day the provider showed this price.'),
          stale: z.boolean(),
          misses: z.array(
            z.object({
              constraint: z.enum(PLAN_CONSTRAINTS),
              required: figure,
              actual: figure.nullable(),
              by: z
                .number()
                .optional()
                .describe("How far off, in the constraint's unit (vCPUs, GB, the answer's currency)."),
              byPercent: z.number().optional().describe('`by` as a percentage of `required`.'),
            }),
          ),
        }),
      )
      .optional()
      .describe(
        `Only when nothing matched: up to ${MAX_CLOSEST} plans missing the fewest constraints by the least, each with what it misses and by how much; with maxMonthlyPrice, those missing only the budget first (half, rounded up).`,
      ),
    beyondDataset: z
      .object({
        misses: z.array(
          z.object({
            constraint: z.enum(['minVcpus', 'minRamGb', 'minStorageGb', 'minTransferTb']),
            required: z.number(),
            largest: z.number(),
          }),
        ),
        largest: z
          .object({
            vcpus: z.number(),
            ramGb: z.number(),
            storageGb: z.number(),
            transferTb: z.number(),
            unmeteredTransfer: z.boolean(),
          })
          .describe('Among plans still sold; transferTb: the largest stated volume.'),
      })
      .optional()
      .describe('Only when nothing matched and a minimum is beyond every plan still sold.'),
    ...listingOutputShape,
  }),
  annotations: READ_ONLY,
  handler: ({ responseFormat = 'concise', ...query }, { plans }) =>
    withDomainErrors(() => structuredWithin(present(plans.find(query), responseFormat), 'plans', responseFormat), {
      list: 'Call list_vps_providers or describe_filters to see every provider.',
    }),
});
