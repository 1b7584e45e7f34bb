import { z } from 'zod';
import { DEFAULT_HORIZON_MONTHS, MAX_HORIZON_MONTHS } from '../../costs/cost-estimator.service.js';
import { BILL_ITEMS } from '../../costs/cost-estimate.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import {
  architectureSchema,
  cpuTypeSchema,
  figureInput,
  priceAgeShape,
  sourceSchema,
  cpuTypeInput,
} from './schemas.js';
import { BACKUP_FREQUENCIES } from '../../dataset/dto/add-ons.dto.js';

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
    'The real monthly and total cost of a VPS: plan price, IPv4, backups (daily or weekly), traffic beyond the allowance, VAT or sales tax (needs country), from sourced figures only. ' +
    'Give a plan (providerId + planName) or figures (minVcpus, minRamGb, minStorageGb, cpuType: the cheapest no-commitment plan meeting them), never both. The plan answered carries cpuType, architecture, observedAt and stale; a promotional price becomes its renewal price after its term. ' +
    'A figure the dataset lacks (renewal or regional price, backups at that frequency, US sales tax, setup fee) is known: false with its reason, listed in unknownItems, and the total is withheld: say so rather than guess.',
  inputSchema: {
    providerId: z.string().max(64).optional().describe('Provider id, e.g. "hetzner"; with planName.'),
    planName: z.string().max(120).optional().describe('Plan name as sold by that provider, e.g. "CX23".'),
    minVcpus: figureInput('minVcpus', 'vCPUs', 2, 1024, true).describe('Without a plan: minimum vCPUs.'),
    minRamGb: figureInput('minRamGb', 'GB', 8, 4096).describe('Without a plan: minimum memory in GB.'),
    minStorageGb: figureInput('minStorageGb', 'GB', 80, 1_000_000).describe('Without a plan: minimum disk in GB.'),
    cpuType: cpuTypeInput('Without a plan: "shared" or "dedicated" vCPUs (any case); default the cheapest of either.'),
    country: z
      .string()
      .max(64)
      .optional()
      .describe(
        'Customer country, ISO 3166-1 alpha-2 or a name (e.g. "DE", "United Kingdom"); decides VAT or sales tax. Without it the bill is before tax.',
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
    backups: z
      .union([z.boolean(), z.enum(BACKUP_FREQUENCIES)], {
        error: 'backups must be "daily", "weekly", true (the provider\'s backups, whatever their frequency) or false',
      })
      .optional()
      .describe(
        '"daily" or "weekly": backups at least that often (unknown, and the total withheld, when the data has no price for it); true: the provider\'s backup add-on whatever its frequency; false (default): none.',
      ),
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
      cpuType: cpuTypeSchema,
      architecture: architectureSchema,
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
