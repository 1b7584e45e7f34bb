import { ADD_ON_STATUSES, TRAFFIC_POLICIES, TRAFFIC_UNITS } from '../../dataset/dto/add-ons.dto.js';
import { PRICE_BASES } from '../../dataset/dto/plan-line.dto.js';
import { SOURCE_METHODS } from '../../dataset/dto/source.dto.js';
import { STALE_AFTER_DAYS } from '../../dataset/price-age.js';
import { TAX_TREATMENTS } from '../../dataset/dto/tax.dto.js';
import { BILLING_CYCLE } from '../../dataset/dto/provider.dto.js';
import { FEATURE_KEYS, FEATURE_STATUSES } from '../../dataset/features.js';
import { z } from 'zod';

/**
 * A regular expression for exactly these words in any case, written without the `i` flag: a JSON
 * Schema `pattern` carries no flags, so `/^(ssd)$/i` would publish `^(ssd)$` and a client checking
 * arguments against the schema would refuse "SSD".
 */
export const anyCase = (...words: string[]) =>
  new RegExp(
    `^(${words.map((word) => word.replace(/[a-z]/gi, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('|')})$`,
  );

/**
 * A figure argument whose every refusal says what would be valid: `minRamGb: "eight"` is answered with
 * "minRamGb must be a number of GB above 0, such as 8", not zod's bare type error. `whole` asks for an integer.
 */
export const figureInput = (name: string, what: string, example: number, max: number, whole = false) => {
  const error = `${name} must be ${whole ? 'a whole number of' : 'a number of'} ${what} above 0 and at most ${max.toLocaleString('en-US')}, such as ${example}`;
  const number = z.number({ error }).positive({ error }).max(max, { error });
  return (whole ? number.int({ error }) : number).optional();
};

/** The `cpuType` argument of the plan tools: "shared" or "dedicated" in any case, with what it means there. */
export const cpuTypeInput = (meaning: string) =>
  z
    .string()
    .regex(anyCase('shared', 'dedicated'), { error: 'cpuType must be "shared" or "dedicated"' })
    .optional()
    .describe(meaning);

/** How a plan's price is paid: the same fields in every tool that shows a plan. */
export const planPricingShape = {
  priceBasis: z
    .enum(PRICE_BASES)
    .describe(
      'hourly-capped / per-second-capped: billed for use up to `price` a month; monthly: a subscription; prepaid-term: the monthly equivalent of `termMonths` paid up front.',
    ),
  termMonths: z.number().int().nullable().describe('Months of the prepaid term `price` needs; null when none.'),
  promotional: z.boolean().describe('True when `price` is an introductory rate.'),
  renewalPrice: z
    .number()
    .nullable()
    .describe('Monthly price after a promotional term; null when not promotional or not confirmed.'),
  monthToMonthPrice: z
    .number()
    .nullable()
    .describe('Monthly price with no commitment; null when not sold month to month or not confirmed.'),
};

/** A plan's CPU type in the plan-finding tools' answers: "unknown" where the data does not say, never guessed. */
export const cpuTypeSchema = z
  .enum(['shared', 'dedicated', 'unknown'])
  .describe(
    '"dedicated": vCPUs reserved for this server; "shared": cores shared with other tenants (performance can vary); "unknown": the data does not say.',
  );

/** A plan's CPU architecture in the plan tools' answers: from its line's sourced data, "unknown" otherwise. */
export const architectureSchema = z
  .enum(['x86_64', 'arm64', 'unknown'])
  .describe('CPU architecture as the data states it (with a source); "unknown" where it does not.');

/** Where a plan's line is sold, in the plan-finding tools' answers (concise ones too). */
export const soldInShape = {
  soldIn: z
    .union([z.literal('all'), z.array(z.string())])
    .describe(
      'The data-centre cities where the plan\'s line is sold; "all" when every data centre of the provider sells it (less notSoldIn). The price shown may hold in only some of them: with no location filter, check the user can buy it where they are.',
    ),
  notSoldIn: z
    .array(z.string())
    .optional()
    .describe('With soldIn "all": the provider\'s data centres that do not sell this line.'),
};

/** Plans sold where asked at a price the dataset does not have: left out, never ranked on a guess (the plan-finding tools). */
export const priceUnknownAtLocationSchema = z
  .array(
    z.object({
      providerId: z.string(),
      line: z.string(),
      plans: z.number().int(),
      datacenters: z.array(z.string()),
      note: z.string().describe("The dataset's note on the price there."),
    }),
  )
  .optional()
  .describe(
    'With a location or country: plans that qualify and are sold there, but at a price not in the dataset, by provider and line, left out rather than guessed.',
  );

/** The contract's text fields of a plan. */
export const planTextShape = { cpu: z.string(), ram: z.string(), storage: z.string(), bandwidth: z.string() };

/** The age of one price: when the provider showed it, and whether it is stale. */
export const priceAgeShape = {
  observedAt: z.string().describe('The day the provider showed this price (YYYY-MM-DD).'),
  stale: z
    .boolean()
    .describe(
      `True when the price was seen more than ${STALE_AFTER_DAYS} days before today (UTC), or before a price change the provider reported: confirm it at the provider.`,
    ),
  staleReason: z.string().nullable().describe('Why the price is stale, in words; null when it is not.'),
};

/** How old a set of prices is. */
export const priceAgeSchema = z
  .object({
    oldestObservedAt: z.string(),
    newestObservedAt: z.string(),
    stalePrices: z.number().int().describe('How many of the prices are stale.'),
  })
  .describe('When the prices were seen (oldest and newest observedAt) and how many are stale.');

export const sourceSchema = z
  .object({
    url: z.string(),
    retrievedAt: z.string(),
    pageDate: z.string().optional(),
    copyOf: z.string().optional().describe("The provider's own address of the page when `url` is a copy of it."),
    method: z
      .enum(SOURCE_METHODS)
      .optional()
      .describe(
        'How the figures were read: provider-api, provider-page, copy (of a dated third-party copy) or editorial.',
      ),
  })
  // An id publishes a schema once per tool, under $defs, however often the record repeats it (a dozen times in a provider).
  .meta({ id: 'Source' });

/** Output shapes shared by several tools. */
export const planSchema = z.object({
  name: z.string(),
  price: z.number().describe('Headline monthly price excluding VAT, in `currency`, paid as `priceBasis` says.'),
  currency: z.string().describe('ISO 4217 code the plan is billed in.'),
  ...planTextShape,
  cpuType: z.enum(['shared', 'dedicated']),
  line: z.string().describe("The plan line (an id in the provider's planLines)."),
  ...planPricingShape,
  setupFee: z.number().nullable(),
  unconfirmed: z.array(z.string()).describe('Fields whose null means "could not be confirmed" rather than "none".'),
  ...priceAgeShape,
  priceAgeDays: z.number().int().describe('Whole days from observedAt to today (UTC).'),
  providerPlanId: z.string().optional().describe("The provider's own id of the size in its catalogue API."),
  source: sourceSchema.describe("Where and how the price was read (the plan line's source)."),
  discontinued: z
    .boolean()
    .describe("True when the provider no longer sells the plan's line; such plans are listed, never picked."),
  successor: z
    .string()
    .nullable()
    .describe(
      'What replaces the plan: the plan the provider names, else the line that replaces a discontinued one; null otherwise.',
    ),
  availability: z
    .object({ orderable: z.boolean(), observedAt: z.string(), source: sourceSchema, successor: z.string().optional() })
    .optional()
    .describe('The reading orderable comes from (absent when nobody read it).'),
  orderable: z
    .union([z.boolean(), z.literal('unknown')])
    .describe(
      'Whether a new customer can order the plan: true, false (never picked or ranked), or "unknown" when nobody read it.',
    ),
  orderableObservedAt: z.string().nullable().describe('The day orderable was read; null when unknown.'),
  orderableSourceUrl: z.string().nullable().describe('Where orderable was read; null when unknown.'),
});

export const locationSchema = z
  .object({ city: z.string(), country: z.string(), region: z.string() })
  .meta({ id: 'Location' });

/** The contract's text fields of a spec, then the same figures as numbers. */
export const specSchema = z
  .object({
    cpu: z.string().describe('vCPUs as text, e.g. "2 vCPU".'),
    ram: z.string().describe('Memory as text, e.g. "4GB".'),
    storage: z.string().describe('Disk as text, e.g. "80GB".'),
    bandwidth: z.string().describe('Monthly transfer as text, e.g. "2TB".'),
    vcpus: z.number().int(),
    ramGb: z.number(),
    storageGb: z.number().int(),
    bandwidthTb: z.number().describe('Monthly outbound transfer in TB.'),
    notes: z.string().optional(),
  })
  .meta({ id: 'Spec' });

const featureDetailSchema = z.object({
  status: z.enum(FEATURE_STATUSES).describe('"included" in the plan price, a "paid" add-on, or "unavailable".'),
  price: z.string().optional().describe('What a paid add-on costs, in words.'),
  note: z.string().optional(),
});

const score = z.number().min(0).max(5);

const addOnFields = {
  note: z.string().optional(),
  unknownReason: z.string().optional(),
  source: sourceSchema.optional(),
};
const addOnStatus = z.enum(ADD_ON_STATUSES);

/** A provider's add-ons as the data holds them: prices in the provider's currency, null where unknown (with unknownReason). */
export const addOnsSchema = z.object({
  ipv4: z.object({ status: addOnStatus, pricePerMonth: z.number().nullable(), ...addOnFields }),
  backups: z.object({
    status: addOnStatus,
    percentOfPlanPrice: z.number().nullable(),
    pricePerMonth: z.number().nullable(),
    pricesByPlan: z.record(z.string(), z.number()).optional(),
    includedInLines: z.array(z.string()).optional(),
    ...addOnFields,
  }),
  snapshots: z.object({ status: addOnStatus, pricePerGbMonth: z.number().nullable(), ...addOnFields }),
  trafficOverage: z.object({
    status: z.enum(TRAFFIC_POLICIES),
    price: z.number().nullable(),
    unit: z.enum(TRAFFIC_UNITS).optional(),
    ...addOnFields,
  }),
});

const taxCaseSchema = z
  .object({ treatment: z.enum(TAX_TREATMENTS), note: z.string().optional(), unknownReason: z.string().optional() })
  .meta({ id: 'TaxCase' });
export const taxSchema = z.object({
  euConsumer: taxCaseSchema,
  euBusinessWithVatId: taxCaseSchema,
  ukConsumer: taxCaseSchema,
  ukBusiness: taxCaseSchema,
  usConsumer: taxCaseSchema,
  usBusiness: taxCaseSchema,
  sources: z.array(sourceSchema),
});

/** A provider record exactly as the API's getProvider serves it. */
export const providerSchema = z.object({
  id: z.string(),
  name: z.string(),
  rating: score,
  startingPrice: z.number().describe('Price of the cheapest plan, per month, in `currency`.'),
  currency: z.string(),
  billingCycle: z.literal(BILLING_CYCLE).describe('The period every price refers to.'),
  locations: z.number().int().describe('Number of data-centre locations; `datacenters` lists them.'),
  uptime: z.string().describe('Advertised uptime SLA, e.g. "99.9%"; "unknown" where it could not be confirmed.'),
  support: z.string().describe('Support channels and hours, in words.'),
  bestFor: z.array(z.string()),
  features: z.array(z.string()).describe('Offered platform features; paid ones end in " (paid add-on)".'),
  pros: z.array(z.string()),
  cons: z.array(z.string()),
  verdict: z.string(),
  url: z.string().describe('Review page.'),
  affiliateUrl: z.string(),
  statusPageUrl: z.string(),
  plans: z.array(planSchema),
  monthToMonthStartingPrice: z.number().nullable().describe('Cheapest price with no commitment, in `currency`.'),
  planLines: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      priceBasis: z.enum(PRICE_BASES),
      termMonths: z.number().int().nullable(),
      promotional: z.boolean(),
      monthToMonthSold: z.boolean().optional(),
      setupFee: z.number().nullable(),
      priceList: z.string().describe('Which price list (site, currency, locations) the prices are from.'),
      complete: z.boolean().describe('True when every size of the line is listed.'),
      notListed: z.string().optional(),
      datacenters: z
        .array(z.string())
        .optional()
        .describe('Cities where the line is sold, where confirmed line by line.'),
      uptime: z
        .string()
        .optional()
        .describe("The line's advertised uptime SLA where it differs from the provider's `uptime`."),
      regionalPrices: z
        .array(z.object({ datacenters: z.array(z.string()), priceFactor: z.number().nullable(), note: z.string() }))
        .optional()
        .describe(
          'Locations whose prices differ from priceList: a multiple of the listed price, or null when not in the dataset.',
        ),
      source: sourceSchema,
      laterPriceChange: z
        .object({ date: z.string(), note: z.string(), source: sourceSchema })
        .optional()
        .describe(
          "A dated report that the provider changed this line's prices after they were seen: its plans seen before `date` are stale.",
        ),
      discontinued: z
        .object({ since: z.string().nullable(), successor: z.string(), source: sourceSchema })
        .optional()
        .describe('Set when the provider no longer sells the line.'),
    }),
  ),
  priceAge: priceAgeSchema,
  planListComplete: z
    .boolean()
    .describe('False when some line lists only part of its sizes: "no plan" then means "not in the dataset".'),
  self: z.string().describe('Canonical URL of this record in the JSON API.'),
  summary: z.string(),
  ratings: z.object({ performance: score, value: score, support: score, easeOfUse: score, features: score }),
  pricingNotes: z.string(),
  founded: z.number().int(),
  headquarters: z.object({ city: z.string(), country: z.string() }),
  website: z.string(),
  datacenters: z.array(locationSchema),
  supportChannels: z.array(z.string()),
  featureDetails: z.record(z.enum(FEATURE_KEYS), featureDetailSchema),
  addOns: addOnsSchema,
  tax: taxSchema,
  sources: z.array(sourceSchema),
});
