import { z } from 'zod';
import { DEFAULT_HORIZON_MONTHS, MAX_HORIZON_MONTHS } from '../../costs/cost-estimator.service.js';
import { BILL_ITEMS } from '../../costs/cost-estimate.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { priceAgeShape, sourceSchema } from './schemas.js';

const billItem = z
  .object({
    item: z.enum(BILL_ITEMS),
    known: z
      .boolean()
      .describe('False when the dataset lacks a figure: then `reason` says which, and no amount is given.'),
    amount: z.number().optional().describe('Per month, in `currency`.'),
    reason: z.string().optional(),
    note: z.string().optional(),
  })
  .meta({ id: 'BillItem' }); // listed per month and per period: published once, under $defs

export const estimateMonthlyCostTool = defineTool({
  name: 'estimate_monthly_cost',
  title: 'Estimate the monthly bill of a VPS',
  description:
    'Estimates what a VPS really costs per month and over a horizon: the plan price plus an IPv4 address, automated backups, traffic beyond the allowance and VAT or sales tax, from sourced figures only. ' +
    'Give a plan (providerId + planName, e.g. from find_vps_plans or recommend_vps_for_workload) or figures (minVcpus / minRamGb / minStorageGb: the cheapest plan sold with no commitment that meets them is used). ' +
    'Without country the bill is before VAT or sales tax (taxIncluded: false), and assumptions say so. ' +
    'A promotional price turns into its renewal price after its term, so each period is listed. The plan says when the provider showed its price (observedAt) and whether it is stale, and datasetVersion names the release; a stale price is also named in assumptions, so tell the user the bill rests on it. Where a figure is not in the dataset (a renewal price, a regional price, a US state sales tax, a setup fee), the item says known: false with the reason, unknownItems names each such figure, and the total is left out: tell the user what is unknown rather than guessing. known is true when every monthly line item is known. ' +
    'When to use: after recommend_vps_for_workload, find_vps_plans or find_equivalent_plans, to compare what the candidates will actually cost; call describe_filters first for valid countries, cities and currencies.',
  inputSchema: {
    providerId: z.string().max(64).optional().describe('Provider id, e.g. "hetzner"; with planName.'),
    planName: z.string().max(120).optional().describe('Plan name as sold by that provider, e.g. "CX23".'),
    minVcpus: z.number().int().positive().max(1024).optional().describe('Without a plan: minimum vCPUs.'),
    minRamGb: z.number().positive().max(4096).optional().describe('Without a plan: minimum memory in GB.'),
    minStorageGb: z.number().positive().max(1_000_000).optional().describe('Without a plan: minimum disk in GB.'),
    country: z
      .string()
      .max(8)
      .optional()
      .describe(
        'Customer country, ISO 3166-1 alpha-2 (e.g. "DE", "GB", "US"); decides VAT or sales tax. Without it the bill is before tax (taxIncluded: false), and says so.',
      ),
    business: z
      .boolean()
      .optional()
      .describe('True for a business with a valid VAT id (EU/UK reverse charge); default false (consumer).'),
    trafficTb: z
      .number()
      .min(0, { error: 'trafficTb must be 0 or more' })
      .max(10_000)
      .optional()
      .describe('Expected outbound traffic per month in TB (default 0).'),
    ipv4: z.boolean().optional().describe('Needs a public IPv4 address (default true).'),
    backups: z.boolean().optional().describe('Wants automated backups (default false).'),
    horizonMonths: z
      .number()
      .int()
      .min(1)
      .max(MAX_HORIZON_MONTHS)
      .optional()
      .describe(`Months to total over (default ${DEFAULT_HORIZON_MONTHS}).`),
    currency: z
      .string()
      .max(8)
      .optional()
      .describe("ISO 4217 code of the answer (default USD), converted at the dataset's ECB rates."),
    datacenter: z
      .string()
      .max(64)
      .optional()
      .describe(
        'City of the data centre, e.g. "Ashburn"; some lines are not sold everywhere and some cities cost more.',
      ),
  },
  outputSchema: z.object({
    plan: z.object({
      providerId: z.string(),
      providerName: z.string(),
      planName: z.string(),
      line: z.string(),
      priceBasis: z.string(),
      termMonths: z.number().int().optional(),
      promotional: z.boolean(),
      price: z.number().describe('Headline monthly price as billed, in billedCurrency.'),
      renewalPrice: z.number().optional().describe('Price after a promotional term, when confirmed.'),
      billedCurrency: z.string(),
      datacenter: z.string().optional(),
      vcpus: z.number().nullable(),
      ramGb: z.number().nullable(),
      storageGb: z.number().nullable(),
      bandwidthTb: z.number().nullable(),
      ...priceAgeShape,
      discontinued: z.boolean().describe("True when the provider no longer sells the plan's line."),
    }),
    chosenBy: z.enum(['name', 'cheapest-meeting-figures']),
    customer: z.object({
      country: z.string().optional().describe('Absent when no country was given.'),
      business: z.boolean(),
    }),
    taxIncluded: z
      .boolean()
      .describe('False when no country was given: every amount is before VAT or sales tax, and no tax item is listed.'),
    currency: z.string(),
    exchangeRatesDate: z.string(),
    datasetVersion: z
      .string()
      .describe(
        "The dataset version (release day, YYYY-MM-DD) the prices are from; each price's observedAt says when the provider showed it.",
      ),
    horizonMonths: z.number().int(),
    lineItems: z.array(billItem).describe('The first month, item by item.'),
    periods: z.array(
      z.object({
        fromMonth: z.number().int(),
        toMonth: z.number().int(),
        months: z.number().int(),
        items: z.array(billItem),
        known: z.boolean(),
        monthlyAmount: z.number().optional().describe('Absent when an item is unknown.'),
        knownMonthlyAmount: z.number().describe('Sum of the known items: a floor when known is false.'),
      }),
    ),
    setupFee: z.object({ known: z.boolean(), amount: z.number().optional(), reason: z.string().optional() }),
    known: z
      .boolean()
      .describe(
        'True when every line item of every period is known. The one-time setup fee is reported apart (setupFee); when it is unknown it is named in unknownItems and totalOverHorizon is absent.',
      ),
    unknownItems: z
      .array(
        z.object({
          item: z.enum([...BILL_ITEMS, 'setupFee']),
          fromMonth: z.number().int().optional(),
          toMonth: z.number().int().optional(),
          reason: z.string(),
        }),
      )
      .describe(
        'Every unknown figure by name, with the months it covers and why it is unknown; empty when all are known. Tell the user about each.',
      ),
    recurringTotalOverHorizon: z
      .number()
      .optional()
      .describe('Every month of the horizon without the one-time setup fee; absent when a monthly figure is unknown.'),
    totalOverHorizon: z
      .number()
      .optional()
      .describe('Every month plus the setup fee; absent when any figure (often the setup fee) is unknown.'),
    knownTotalOverHorizon: z.number().describe('Total of the known figures: a floor when known is false.'),
    assumptions: z.array(z.string()),
    sources: z.array(sourceSchema.extend({ about: z.string() })),
  }),
  annotations: READ_ONLY,
  handler: (args, { costs }) =>
    withDomainErrors(
      () => {
        // The tool's `known` is about the line items; the setup fee is named in unknownItems and decides totalOverHorizon.
        const { known, lineItemsKnown, ...estimate } = costs.estimate(args); // eslint-disable-line @typescript-eslint/no-unused-vars
        return structured({ ...estimate, known: lineItemsKnown });
      },
      { list: 'Call list_vps_providers for providers and their plans, or describe_filters for valid values.' },
    ),
});
