import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured } from '../tool-results.js';
import { responseFormatInput, RESPONSE_FORMATS } from '../response-format.js';
import { ARCHITECTURES } from '../../dataset/dto/plan-line.dto.js';
import { BACKUP_FREQUENCIES } from '../../dataset/dto/add-ons.dto.js';

const range = z.object({ min: z.number(), max: z.number() });

export const describeFiltersTool = defineTool({
  name: 'describe_filters',
  title: 'Describe valid filter values',
  description:
    'The values the other tools accept: provider ids with their cities and countries, storage types, architectures, backup frequencies, currencies, use-case slugs, guide types, VAT countries, figure ranges; ' +
    'and what to cite: the version, price freshness (oldest and newest date, stale count) and the licence (CC BY 4.0) with its credit line. Call it first when unsure what to pass. "detailed" adds regions and country names.',
  inputSchema: {
    responseFormat: responseFormatInput('data centres as city and country, VAT rates by country code'),
  },
  outputSchema: z.object({
    dataset: z
      .object({
        version: z.string().describe('The dataset version being served (its release day, YYYY-MM-DD).'),
        lastPriceCheck: z
          .string()
          .describe(
            'How fresh the prices are, in words: the oldest and the newest day a provider showed one (observedAt), and how many are stale today (UTC). Not a release date.',
          ),
        priceAge: z
          .object({
            oldestObservedAt: z.string(),
            newestObservedAt: z.string(),
            stalePrices: z.number().int(),
            staleAfterDays: z.number().int(),
          })
          .describe(
            'When the providers showed the prices (oldest and newest observedAt) and how many are stale (seen more than staleAfterDays before today, UTC, or before a reported price change).',
          ),
        license: z.object({
          name: z.string(),
          url: z.string(),
          credit: z.string().describe('The attribution line to show with the data.'),
        }),
      })
      .describe('What to cite: the release, its price checks and its licence.'),
    providers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        currency: z.string(),
        datacenters: z.array(
          z.object({ city: z.string(), country: z.string(), region: z.string().optional().describe('Detailed only.') }),
        ),
      }),
    ),
    datacenterCountries: z.array(z.string()),
    storageTypes: z.array(z.string()),
    currencies: z.array(z.string()),
    exchangeRatesDate: z.string(),
    rateDates: z.record(z.string(), z.string()).describe('The day of each exchange rate, by currency.'),
    useCaseSlugs: z.array(z.string()),
    guideTypes: z.array(z.string()),
    customerCountries: z.object({
      vatRates: z.array(
        z.object({
          code: z.string(),
          country: z.string().optional().describe('Detailed only.'),
          standardRate: z.number(),
        }),
      ),
      note: z.string(),
    }),
    architectures: z
      .array(z.string())
      .describe("find_vps_plans' architecture values; plans without one stated match neither."),
    backupFrequencies: z.array(z.string()).describe("estimate_monthly_cost's backups values besides true and false."),
    figureRanges: z.object({
      vcpus: range,
      ramGb: range,
      storageGb: range,
      bandwidthTb: range,
      monthToMonthPriceUsd: range,
    }),
    responseFormat: z.enum(RESPONSE_FORMATS),
  }),
  annotations: READ_ONLY,
  handler: ({ responseFormat = 'concise' }, { filters, providers }) => {
    const { version, priceAge, staleAfterDays, license } = providers.list().value;
    const described = filters.describe();
    const concise = {
      providers: described.providers.map((p) => ({
        ...p,
        datacenters: p.datacenters.map(({ city, country }) => ({ city, country })),
      })),
      customerCountries: {
        ...described.customerCountries,
        vatRates: described.customerCountries.vatRates.map(({ code, standardRate }) => ({ code, standardRate })),
      },
    };
    return structured({
      dataset: { version, lastPriceCheck: providers.freshness(), priceAge: { ...priceAge, staleAfterDays }, license },
      ...described,
      ...(responseFormat === 'concise' ? concise : {}),
      architectures: [...ARCHITECTURES],
      backupFrequencies: [...BACKUP_FREQUENCIES],
      responseFormat,
    });
  },
});
