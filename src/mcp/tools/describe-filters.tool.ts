import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured } from '../tool-results.js';

const range = z.object({ min: z.number(), max: z.number() });

export const describeFiltersTool = defineTool({
  name: 'describe_filters',
  title: 'Describe valid filter values',
  description:
    'Lists the values the other tools accept, read from the dataset: provider ids with their data-centre cities and countries, storage types, currencies with the exchange-rate date, use-case slugs (for recommend_vps_for_workload), guide types (for search_guides), countries with a VAT rate (for estimate_monthly_cost), and the smallest and largest vCPUs, RAM, disk, traffic and no-commitment price of any plan. ' +
    'It also names the data to cite: the dataset version, how fresh the prices are (oldest and newest price date, how many stale today), and the licence (CC BY 4.0) with the credit line to show when quoting the figures. ' +
    'Call it first when unsure what to pass, instead of guessing an id or a city. Takes no arguments.',
  inputSchema: {},
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
        datacenters: z.array(z.object({ city: z.string(), country: z.string(), region: z.string() })),
      }),
    ),
    datacenterCountries: z.array(z.string()),
    storageTypes: z.array(z.string()),
    currencies: z.array(z.string()),
    exchangeRatesDate: z.string(),
    useCaseSlugs: z.array(z.string()),
    guideTypes: z.array(z.string()),
    customerCountries: z.object({
      vatRates: z.array(z.object({ code: z.string(), country: z.string(), standardRate: z.number() })),
      note: z.string(),
    }),
    figureRanges: z.object({
      vcpus: range,
      ramGb: range,
      storageGb: range,
      bandwidthTb: range,
      monthToMonthPriceUsd: range,
    }),
  }),
  annotations: READ_ONLY,
  handler: (_args, { filters, providers }) => {
    const { version, priceAge, staleAfterDays, license } = providers.list().value;
    return structured({
      dataset: { version, lastPriceCheck: providers.freshness(), priceAge: { ...priceAge, staleAfterDays }, license },
      ...filters.describe(),
    });
  },
});
