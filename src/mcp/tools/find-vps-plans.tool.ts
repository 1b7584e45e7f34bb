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
import { anyCase, cpuTypeSchema, planPricingShape, planTextShape, soldInShape } from './schemas.js';
import { CPU_TYPES } from '../../dataset/dto/plan.dto.js';

const positive = (max: number) => z.number().positive().max(max).optional();

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
    'Finds plans across all providers that meet every constraint you give (minimum RAM, disk, vCPUs and monthly transfer, a price ceiling, disk type, shared or dedicated vCPUs, a set of providers, a data-centre city or country), cheapest first. ' +
    'Every plan says whether its vCPUs are shared with other tenants or dedicated (cpuType; "unknown" where the data does not say): tell the user when a cheap plan is shared. ' +
    'Every plan names where its line is sold (soldIn: its cities, or "all" of the provider\'s data centres less notSoldIn): without location or country, the cheapest plan may not be sold where the user is, so pass one when it matters. ' +
    'When to use: the user states resources or a budget ("cheapest server with at least 8 GB in Germany under 20 EUR"); for a workload in words use recommend_vps_for_workload; call describe_filters first when unsure of a city, country, currency or provider id. ' +
    'Next: find_equivalent_plans on a result for the same or more elsewhere, and estimate_monthly_cost for its real bill (IPv4, backups, traffic, VAT). ' +
    "By default plans are ranked and bounded by what they cost month to month with no commitment; plans sold only on a prepaid term (e.g. Hostinger's 24-month rates) are left out and counted in leftOutNeedingCommitment. " +
    'Pass includeCommitments: true to rank by the lowest effective monthly price instead, and responseFormat "detailed" to see each priceBasis, termMonths and renewalPrice, so you can tell the user when a price needs a commitment or renews higher. ' +
    `Every plan says when the provider showed its price (observedAt) and whether that price is stale (seen more than ${STALE_AFTER_DAYS} days before today, UTC, or before a price change the provider reported); stalePrices counts the matches resting on stale prices: tell the user to confirm a stale price at the provider (detailed answers add stalePriceNote, a sentence saying so). datasetVersion names the release the prices are read from. Pass maxPriceAgeDays to leave out older prices. ` +
    'minTransferTb matches a plan that includes at least that many TB of traffic a month, or whose traffic is unmetered; a plan whose allowance is not stated as a volume or as unmetered (e.g. "Fair-use allowance") does not match, and is counted in leftOutTransferUnknown with a transferNote to pass on. ' +
    'Plans of lines the provider no longer sells are never matches: they are counted in leftOutDiscontinued, and listed (flagged discontinued, with their successor) only with includeDiscontinued: true. ' +
    'Likewise a plan the provider lists but does not let anyone order (sold out, legacy) is counted in leftOutUnorderable, and listed (flagged orderable: false) only with includeUnorderable: true. ' +
    'With location or country, a plan matches only if its line is sold there, at the regional price where the data has one; plans sold there at a price the dataset lacks are listed in priceUnknownAtLocation, not guessed. ' +
    "Prices are converted into one currency (USD unless you ask for another) with the dataset's dated ECB exchange rates. The answer echoes the filters it applied (normalized) and totalMatches; when nothing matches, closestMatches lists the nearest plans with each constraint they miss and by how much (with maxMonthlyPrice: plans above the budget, then within it: offer both), and beyondDataset the largest figures there are when a minimum exceeds them. " +
    `Returns at most ${MAX_PLAN_LIMIT} plans (default ${DEFAULT_PLAN_LIMIT}). ${ANSWER_SIZE_NOTE}`,
  inputSchema: {
    minRamGb: positive(4096).describe('Minimum memory in GB, e.g. 4 or 0.5.'),
    minStorageGb: positive(1_000_000).describe('Minimum disk in GB, e.g. 80.'),
    minVcpus: z.number().int().positive().max(1024).optional().describe('Minimum number of vCPUs.'),
    minTransferTb: positive(100_000).describe(
      'Minimum traffic included per month, in TB (decimal, as providers count it), e.g. 2 or 0.5; unmetered plans meet any figure, plans whose allowance is not stated do not.',
    ),
    maxMonthlyPrice: positive(1_000_000).describe('Highest acceptable monthly price, in `currency`.'),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, { error: 'currency must be a three-letter ISO 4217 code such as USD or EUR' })
      .optional()
      .describe(
        'ISO 4217 code to compare and bound prices in (default USD); EUR, GBP, CHF, JPY, CAD, AUD and other ECB currencies work.',
      ),
    storageType: z
      .string()
      .regex(anyCase('nvme', 'ssd', 'hdd'), { error: 'storageType must be NVMe, SSD or HDD' })
      .optional()
      .describe('Disk technology: "NVMe", "SSD" or "HDD" (any case).'),
    cpuType: z
      .string()
      .regex(anyCase('shared', 'dedicated'), { error: 'cpuType must be "shared" or "dedicated"' })
      .optional()
      .describe(
        '"dedicated": only plans whose vCPUs are reserved for the server (steady performance); "shared": only plans sharing cores with other tenants. Any case. Plans whose CPU type is not in the data match neither.',
      ),
    providers: z
      .array(z.string().max(64))
      .max(8)
      .optional()
      .describe('Only these provider ids, e.g. ["hetzner", "vultr"]; all providers when omitted.'),
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
      .describe(
        'false (default): rank by the no-commitment monthly price and leave out plans that need a prepaid term. true: rank by the lowest effective monthly price, prepaid terms and promotional rates included.',
      ),
    maxPriceAgeDays: z
      .number({ error: 'maxPriceAgeDays must be a whole number of days, 1 or more' })
      .int({ error: 'maxPriceAgeDays must be a whole number of days, 1 or more' })
      .positive({ error: 'maxPriceAgeDays must be a whole number of days, 1 or more' })
      .max(36_500)
      .optional()
      .describe(
        `Leave out plans whose price the provider showed more than this many days before today (UTC), e.g. ${STALE_AFTER_DAYS} (older prices are stale).`,
      ),
    includeDiscontinued: z
      .boolean()
      .optional()
      .describe(
        'false (default): leave out plans of lines the provider no longer sells, counting them in leftOutDiscontinued. true: list them too, flagged discontinued with their successor.',
      ),
    includeUnorderable: z
      .boolean()
      .optional()
      .describe(
        'false (default): leave out plans the provider shows as not orderable (sold out, legacy), counting them in leftOutUnorderable. true: list them too, flagged orderable: false.',
      ),
    location: z
      .string()
      .max(64)
      .optional()
      .describe(
        'Only plans sold in this data-centre city, e.g. "Frankfurt" or "Sao Paulo" (any case, accents optional), ranked at the price there; describe_filters lists each provider\'s cities.',
      ),
    country: z
      .string()
      .max(8)
      .optional()
      .describe(
        'Only plans sold in a data centre in this country, ISO 3166-1 alpha-2 (e.g. "DE", "US"), at the lowest price known there; describe_filters lists datacenterCountries.',
      ),
    responseFormat: responseFormatInput(
      'per plan its provider id, name, compared price, vCPUs, RAM, disk, CPU type, where it is sold, and when the price was seen and whether it is stale',
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
            "The compared monthly price (no commitment unless filters.includeCommitments; at the location's price when one is given), in the answer's currency.",
          ),
        vcpus: z.number().nullable(),
        ramGb: z.number().nullable(),
        storageGb: z.number().nullable(),
        cpuType: cpuTypeSchema,
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
          .describe(
            "True when the plan's line is no longer sold (only with includeDiscontinued). Concise answers carry it only when true; detailed ones always.",
          ),
        successor: z
          .string()
          .nullable()
          .optional()
          .describe("For a discontinued or unorderable plan: what replaces it, in the provider's words."),
        orderable: z
          .union([z.boolean(), z.literal('unknown')])
          .optional()
          .describe(
            'Whether the plan can be ordered, as last read ("unknown" where no reading says). Concise answers carry it only when false (only with includeUnorderable); detailed ones always.',
          ),
        priceAgeDays: detailedOnly(z.number().int().describe('Whole days from observedAt to today (UTC).')),
        staleReason: detailedOnly(z.string().nullable().describe('Why the price is stale; null when it is not.')),
        priceSourceMethod: detailedOnly(
          z
            .enum(SOURCE_METHODS)
            .describe(
              "How the price was read: the provider's catalogue API, its page, a dated copy of either, or typed by an editor.",
            ),
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
      .describe(
        'Plans that met every constraint but have no no-commitment price, so were left out; pass includeCommitments: true to see them.',
      ),
    leftOutDiscontinued: z
      .number()
      .int()
      .describe(
        'Plans that met every constraint but belong to a line no longer sold, so were left out; pass includeDiscontinued: true to see them.',
      ),
    leftOutUnorderable: z
      .number()
      .int()
      .describe(
        'Plans that met every constraint but that the provider shows as not orderable, so were left out; pass includeUnorderable: true to see them.',
      ),
    leftOutTransferUnknown: z
      .number()
      .int()
      .optional()
      .describe(
        'Only with minTransferTb: plans that met every other filter but whose traffic allowance is not stated as a volume or as unmetered, so were not counted as meeting it.',
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
    exchangeRatesDate: z.string().describe('Day of the exchange rates used for conversion.'),
    datasetVersion: z
      .string()
      .describe(
        "The dataset version (release day, YYYY-MM-DD) the prices are from; each price's observedAt says when the provider showed it.",
      ),
    priceUnknownAtLocation: z
      .array(
        z.object({
          providerId: z.string(),
          line: z.string(),
          plans: z.number().int(),
          datacenters: z.array(z.string()),
          note: z.string(),
        }),
      )
      .optional()
      .describe(
        'With a location or country: plans that meet every filter and are sold there, but at a price not in the dataset, so left out rather than guessed.',
      ),
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
