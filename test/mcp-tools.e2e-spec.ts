import { LISTING_LEAVES_OUT } from '../src/mcp/tools/list-vps-providers.tool';
import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { figures, meetsAllFour, pricedPlanOf, rateDayWith, toCurrencyWith } from './support/independent-figures';
import { claimsOf, hasClaimed } from './support/independent-claims';
import { connectMcp } from './support/mcp-client';
import { toolCaller } from './support/mcp-tool-caller';
import { rawAuthors, rawGuides, rawProviders, rawUseCases } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

const rates = JSON.parse(readFileSync('data/exchange-rates.json', 'utf8'));
const toCurrency = toCurrencyWith(rates);
const rateDay = rateDayWith(rates);
const allPlans = rawProviders.providers.flatMap((p: any) =>
  p.plans.map((plan: any) => ({ provider: p, plan, ...figures(plan) })),
);
const meta = JSON.parse(readFileSync('data/meta.json', 'utf8'));
const VALID_IDS = rawProviders.providers.map((p: any) => p.id);
/** A provider's cheapest no-commitment plan price in its currency, or null. */
const monthToMonthEntry = (p: any): number | null => {
  const prices = p.plans.map((plan: any) => pricedPlanOf(p, plan).monthToMonthPrice).filter((x: any) => x !== null);
  return prices.length > 0 ? Math.min(...prices) : null;
};
const entryUsd = (p: any) =>
  monthToMonthEntry(p) === null ? null : toCurrency(monthToMonthEntry(p)!, p.currency, 'USD');

describe('MCP tools', () => {
  let t: TestApp;
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
    client = await connectMcp(t.baseUrl);
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const { call, data, errorText } = toolCaller(
    () => client,
    () => tools,
  );

  describe('initialize and tools/list', () => {
    it('introduces the server with instructions and the capabilities it offers', () => {
      expect(client.getServerVersion()).toEqual({ name: 'vpsapi', title: 'VPS provider comparison', version: '1.0.0' });
      expect(client.getInstructions()).toMatch(/find_vps_plans/);
      expect(client.getServerCapabilities()).toEqual({
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
        completions: {},
      });
    });

    it('lists every tool, read-only, each parameter described, with object output schemas', () => {
      expect(tools.map((x) => x.name)).toEqual([
        'list_vps_providers',
        'get_vps_provider',
        'find_vps_plans',
        'recommend_vps_for_workload',
        'search_guides',
        'get_guide',
        'get_dataset_changes',
        'estimate_monthly_cost',
        'find_equivalent_plans',
        'describe_filters',
      ]);
      for (const tool of tools) {
        expect(tool.title).toEqual(expect.any(String));
        expect(tool.description!.length).toBeGreaterThan(150);
        expect(tool.annotations).toEqual({
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
        expect(tool.outputSchema?.type).toBe('object');
        for (const [param, schema] of Object.entries<any>(tool.inputSchema.properties ?? {})) {
          expect([param, schema.description?.length > 10]).toEqual([param, true]);
        }
      }
    });
  });

  describe('get_dataset_changes', () => {
    const changelog = JSON.parse(readFileSync('data/changelog.json', 'utf8'));

    /** A release of the changelog with only one provider's changes and no guides, computed here from the raw file. */
    const onlyProvider = (release: any, id: string) => {
      const mine = (list: any[]) => list.filter((x: any) => x.providerId === id);
      const c = release.changes;
      return {
        ...release,
        changes: {
          ...c,
          providersAdded: c.providersAdded.filter((x: string) => x === id),
          providersRemoved: c.providersRemoved.filter((x: string) => x === id),
          plansAdded: mine(c.plansAdded),
          plansRemoved: mine(c.plansRemoved),
          plansRepriced: mine(c.plansRepriced),
          providerFacts: mine(c.providerFacts),
          guidesAdded: [],
          guidesUpdated: [],
        },
      };
    };

    it.each(VALID_IDS)(
      'returns every release with every change of %s on request (providerId in any case), newest first, with the version being served',
      async (id) => {
        const result = data(
          await call('get_dataset_changes', { providerId: id.toUpperCase(), responseFormat: 'detailed' }),
        );
        expect(result).toEqual({
          currentVersion: JSON.parse(readFileSync('data/meta.json', 'utf8')).version,
          releases: [...changelog.releases].reverse().map((r: any) => onlyProvider(r, id)),
          providerId: id,
          responseFormat: 'detailed',
        });
        expect(result.releases.at(-1).summary).toBe('initial release');
      },
    );

    it('caps a detailed answer for every provider at the detailed limit, newest releases kept, and says how to narrow it', async () => {
      const result = await call('get_dataset_changes', { responseFormat: 'detailed' });
      expect((result.content[0] as { text: string }).text.length).toBeLessThanOrEqual(60_000);
      const { releases, truncated } = data(result);
      expect(releases).toEqual([...changelog.releases].reverse().slice(0, releases.length));
      expect(truncated.omitted).toBe(changelog.releases.length - releases.length);
      expect(truncated.reason).toMatch(/providerId/);
    });

    it('refuses an unknown providerId, listing the valid ids', async () => {
      const text = errorText(await call('get_dataset_changes', { providerId: 'aws' }));
      for (const id of VALID_IDS) expect(text).toContain(id);
    });

    it('returns only the releases after `since`', async () => {
      const first = changelog.releases[0].version;
      expect(
        data(await call('get_dataset_changes', { since: first, providerId: 'vultr', responseFormat: 'detailed' }))
          .releases,
      ).toEqual(
        changelog.releases
          .filter((r: any) => r.version > first)
          .reverse()
          .map((r: any) => onlyProvider(r, 'vultr')),
      );
      expect(data(await call('get_dataset_changes', { since: '2000-01-01' })).releases).toHaveLength(
        changelog.releases.length,
      );
      expect(data(await call('get_dataset_changes', { since: first })).releases.map((r: any) => r.version)).toEqual(
        changelog.releases
          .filter((r: any) => r.version > first)
          .map((r: any) => r.version)
          .reverse(),
      );
    });

    it('answers with a summary by default: counts per provider, providers with the most repricings first, and guide counts', async () => {
      const result = await call('get_dataset_changes');
      const expected = [...changelog.releases].reverse().map((r: any) => {
        const ids: string[] = [
          ...new Set<string>(
            [
              ...r.changes.plansRepriced,
              ...r.changes.plansAdded,
              ...r.changes.plansRemoved,
              ...r.changes.providerFacts,
            ].map((x: any) => x.providerId),
          ),
        ];
        const countOf = (list: any[], id: string) => list.filter((x: any) => x.providerId === id).length;
        const byProvider = ids.map((id) => {
          const repriced = r.changes.plansRepriced.filter((x: any) => x.providerId === id);
          const same = repriced.filter((x: any) => x.oldCurrency === x.currency);
          return {
            providerId: id,
            plansRepriced: repriced.length,
            pricesRaised: same.filter((x: any) => x.newPrice > x.oldPrice).length,
            pricesLowered: same.filter((x: any) => x.newPrice < x.oldPrice).length,
            currencyChanged: repriced.length - same.length,
            plansAdded: countOf(r.changes.plansAdded, id),
            plansRemoved: countOf(r.changes.plansRemoved, id),
            providerFacts: countOf(r.changes.providerFacts, id),
          };
        });
        const total = (c: any) => c.plansRepriced + c.plansAdded + c.plansRemoved + c.providerFacts;
        byProvider.sort(
          (a, b) =>
            b.plansRepriced - a.plansRepriced || total(b) - total(a) || a.providerId.localeCompare(b.providerId),
        );
        return {
          version: r.version,
          date: r.date,
          summary: r.summary,
          providersAdded: r.changes.providersAdded,
          providersRemoved: r.changes.providersRemoved,
          byProvider,
          guidesAdded: r.changes.guidesAdded.length,
          guidesUpdated: r.changes.guidesUpdated.length,
        };
      });
      expect(data(result)).toEqual({
        currentVersion: JSON.parse(readFileSync('data/meta.json', 'utf8')).version,
        releases: expected,
        responseFormat: 'concise',
      });
      // A listed release repriced plans, so "repricings first" is shown by the data.
      const repricing = expected.find((r) => r.byProvider.some((p) => p.plansRepriced > 0));
      expect(repricing?.byProvider[0].plansRepriced).toBeGreaterThan(0);
      expect((result.content[0] as { text: string }).text.length).toBeLessThan(JSON.stringify(changelog).length / 10);
    });

    it.each(['yesterday', '2026-13-45'])(
      'answers a malformed since (%s) with isError saying how to write it',
      async (since) => {
        expect(errorText(await call('get_dataset_changes', { since }))).toMatch(/YYYY-MM-DD/);
      },
    );
  });

  describe('list_vps_providers', () => {
    it.each([
      ['rating', (a: any, b: any) => b.rating - a.rating || a.name.localeCompare(b.name)],
      [
        'price',
        (a: any, b: any) =>
          (entryUsd(a) ?? Infinity) - (entryUsd(b) ?? Infinity) ||
          toCurrency(a.startingPrice, a.currency, 'USD') - toCurrency(b.startingPrice, b.currency, 'USD') ||
          a.id.localeCompare(b.id),
      ],
      ['name', (a: any, b: any) => a.name.localeCompare(b.name)],
    ])('returns every provider with its plan matrix, sorted by %s', async (sortBy, compare) => {
      const { providers } = data(await call('list_vps_providers', { sortBy, responseFormat: 'detailed' }));
      expect(providers.map((p: any) => p.id)).toEqual([...rawProviders.providers].sort(compare).map((p: any) => p.id));
      for (const p of providers) {
        const raw = rawProviders.providers.find((r: any) => r.id === p.id);
        expect(p).toEqual({
          id: raw.id,
          name: raw.name,
          rating: raw.rating,
          startingPrice: raw.startingPrice,
          currency: raw.currency,
          startingPriceUsd: toCurrency(raw.startingPrice, raw.currency, 'USD'),
          monthToMonthStartingPrice: monthToMonthEntry(raw),
          monthToMonthStartingPriceUsd: entryUsd(raw),
          uptime: raw.uptime,
          lineUptimes: raw.planLines
            .filter((l: any) => l.uptime && l.uptime !== raw.uptime)
            .map((l: any) => ({ line: l.id, uptime: l.uptime })),
          support: raw.support,
          supportChannels: raw.supportChannels,
          locations: raw.datacenters.length,
          datacenters: raw.datacenters,
          bestFor: raw.bestFor,
          url: `${TEST_BASE_URL}${raw.url}`,
          priceAge: {
            oldestObservedAt: raw.plans.map((plan: any) => plan.observedAt).sort()[0],
            newestObservedAt: raw.plans
              .map((plan: any) => plan.observedAt)
              .sort()
              .at(-1),
            stalePrices: raw.plans.filter((plan: any) => pricedPlanOf(raw, plan).stale).length,
          },
          // The listing leaves out the plan fields get_vps_provider gives (LISTING_LEAVES_OUT).
          plans: raw.plans.map((plan: any) =>
            Object.fromEntries(Object.entries(pricedPlanOf(raw, plan)).filter(([key]) => !(key in LISTING_LEAVES_OUT))),
          ),
        });
      }
    });

    it.each(['concise', 'detailed'])(
      'gives every provider its uptime SLA and support as the data states them, in the %s format',
      async (responseFormat) => {
        const { providers } = data(await call('list_vps_providers', { responseFormat }));
        expect(providers).toHaveLength(rawProviders.providers.length);
        for (const p of providers) {
          const raw = rawProviders.providers.find((r: any) => r.id === p.id);
          const lineUptimes = raw.planLines
            .filter((l: any) => l.uptime !== undefined && l.uptime !== raw.uptime)
            .map((l: any) => ({ line: l.id, uptime: l.uptime }));
          expect(p).toMatchObject({
            uptime: raw.uptime,
            lineUptimes,
            support: raw.support,
            supportChannels: raw.supportChannels,
          });
        }
        // The data holds an unknown SLA and a line with its own SLA, so both cases are shown above.
        expect(providers.some((p: any) => p.uptime === 'unknown')).toBe(true);
        expect(providers.some((p: any) => p.lineUptimes.length > 0)).toBe(true);
      },
    );

    it('names one default format in its description, its schema and the server instructions, and answers in it', async () => {
      const tool = tools.find((x) => x.name === 'list_vps_providers')!;
      const schemaText = (tool.inputSchema.properties!.responseFormat as any).description as string;
      const schemaDefault = /"(concise|detailed)" \(default\)/.exec(schemaText)?.[1];
      const descriptionDefault = /by default \(responseFormat "(concise|detailed)"\)/.exec(tool.description!)?.[1];
      const instructions = client.getInstructions()!;
      const instructionsDefault = /list_vps_providers answers (concisely|in detail) by default/.exec(instructions)?.[1];
      const { responseFormat } = data(await call('list_vps_providers'));
      expect({
        schemaDefault,
        descriptionDefault,
        instructionsDefault:
          instructionsDefault === 'concisely'
            ? 'concise'
            : instructionsDefault === 'in detail'
              ? 'detailed'
              : undefined,
      }).toEqual({
        schemaDefault: responseFormat,
        descriptionDefault: responseFormat,
        instructionsDefault: responseFormat,
      });
      // Nothing else in the description or the instructions calls the other format the default.
      const other = responseFormat === 'detailed' ? 'concise' : 'detailed';
      expect(tool.description).not.toMatch(new RegExp(`"${other}" \\(the default\\)`));
      expect(instructions).not.toMatch(
        responseFormat === 'detailed' ? /list_vps_providers answers concisely/ : /list_vps_providers answers in detail/,
      );
    });

    it.each(['concise', 'detailed'])(
      'names the dataset version its prices are from, in the %s format',
      async (responseFormat) => {
        expect(data(await call('list_vps_providers', { responseFormat })).datasetVersion).toBe(meta.version);
      },
    );

    it('sorts by rating when no order is given', async () => {
      const { providers } = data(await call('list_vps_providers'));
      const byRating = [...rawProviders.providers].sort(
        (a: any, b: any) => b.rating - a.rating || a.name.localeCompare(b.name),
      );
      expect(providers.map((p: any) => p.id)).toEqual(byRating.map((p: any) => p.id));
    });
  });

  describe('describe_filters', () => {
    it('states what to cite: the dataset version, how fresh the prices are (their oldest and newest date, how many stale today), and the licence credit', async () => {
      const tool = tools.find((x) => x.name === 'describe_filters')!;
      const priced = rawProviders.providers.flatMap((p: any) => p.plans.map((plan: any) => pricedPlanOf(p, plan)));
      const dates = priced.map((plan: any) => plan.observedAt).sort();
      expect(data(await call('describe_filters')).dataset).toEqual({
        version: meta.version,
        lastPriceCheck: `prices seen between ${dates[0]} and ${dates.at(-1)}; ${priced.filter((plan: any) => plan.stale).length} of ${priced.length} stale on ${meta.version} (seen more than 90 days earlier, or before a reported price change)`,
        priceAge: {
          oldestObservedAt: dates[0],
          newestObservedAt: dates.at(-1),
          stalePrices: priced.filter((plan: any) => plan.stale).length,
          staleAfterDays: 90,
        },
        license: meta.license,
      });
      expect(meta.license.name).toBe('CC BY 4.0');
      expect(tool.description).toContain('CC BY 4.0');
    });
  });

  describe('get_vps_provider', () => {
    it('returns the same record as the JSON API with responseFormat "detailed"', async () => {
      const api = await t.http.get('/api/providers/contabo.json');
      expect(data(await call('get_vps_provider', { id: 'contabo', responseFormat: 'detailed' }))).toEqual({
        provider: api.body.provider,
        datasetVersion: api.body.version,
        responseFormat: 'detailed',
      });
    });

    it('says which dataset version the record and its dated prices are from', async () => {
      const { provider, datasetVersion } = data(
        await call('get_vps_provider', { id: 'hetzner', responseFormat: 'detailed' }),
      );
      expect(datasetVersion).toBe(meta.version);
      for (const plan of provider.plans)
        expect(plan).toMatchObject({
          observedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          stale: expect.any(Boolean),
        });
    });

    it.each(VALID_IDS)(
      'answers %s concisely by default: the review fields as the API has them and each plan line with its plan count, under 8,000 characters',
      async (id) => {
        const api = (await t.http.get(`/api/providers/${id}.json`)).body.provider;
        const result = await call('get_vps_provider', { id: id.toUpperCase() });
        expect((result.content[0] as { text: string }).text.length).toBeLessThanOrEqual(8_000);
        const { provider, responseFormat } = data(result);
        expect(responseFormat).toBe('concise');
        expect(provider).not.toHaveProperty('plans');
        for (const key of ['verdict', 'pros', 'cons', 'rating', 'startingPrice', 'priceAge', 'url'])
          expect([key, provider[key]]).toEqual([key, api[key]]);
        expect(provider.planLines).toEqual(
          api.planLines.map((line: any) => ({
            id: line.id,
            name: line.name,
            plans: api.plans.filter((plan: any) => plan.line === line.id).length,
            discontinued: line.discontinued !== undefined,
          })),
        );
      },
    );

    it('answers an unknown id with isError listing the valid ids', async () => {
      const text = errorText(await call('get_vps_provider', { id: 'aws' }));
      expect(text).toContain('"aws"');
      for (const id of VALID_IDS) expect(text).toContain(id);
      expect(text).toContain('list_vps_providers');
    });

    it('answers a missing id with isError naming the tool that lists ids', async () => {
      expect(errorText(await call('get_vps_provider', {}))).toContain('list_vps_providers');
    });
  });

  describe('find_vps_plans', () => {
    const cases: Record<string, unknown>[] = [
      {},
      { minRamGb: 4 },
      { minRamGb: 8, minVcpus: 4, currency: 'EUR' },
      { minStorageGb: 100, maxMonthlyPrice: 20 },
      { storageType: 'nvme', maxMonthlyPrice: 15, currency: 'GBP', limit: 50 },
      { providers: ['hetzner', 'upcloud'], minRamGb: 2, limit: 50 },
      { minRamGb: 0.5, currency: 'jpy', limit: 3 },
      { minRamGb: 4, includeCommitments: true, limit: 50 },
      { maxMonthlyPrice: 5, limit: 50 },
      { minRamGb: 8, maxMonthlyPrice: 25, includeCommitments: true, currency: 'EUR', limit: 50 },
    ];

    it("dates its prices by the rate it converts with: the dollar's day between USD and EUR, an older rate's day into AUD", async () => {
      const usd = rates.rateDates.USD;
      expect(usd > rates.rateDates.AUD).toBe(true);
      expect(data(await call('find_vps_plans', { currency: 'EUR' })).exchangeRatesDate).toBe(usd);
      expect(data(await call('find_vps_plans', { currency: 'USD' })).exchangeRatesDate).toBe(usd);
      expect(data(await call('find_vps_plans', { currency: 'AUD' })).exchangeRatesDate).toBe(rates.rateDates.AUD);
    });

    it.each(cases)(
      'returns every qualifying plan, cheapest first on the requested price basis, for %j',
      async (args) => {
        const result = data(await call('find_vps_plans', { ...args, responseFormat: 'detailed' }));
        const currency = String(args.currency ?? 'USD').toUpperCase();
        const withCommitments = args.includeCommitments === true;
        const qualifying = allPlans
          .filter((x: any) => args.minRamGb === undefined || x.ramGb >= (args.minRamGb as number))
          .filter((x: any) => args.minStorageGb === undefined || x.storageGb >= (args.minStorageGb as number))
          .filter((x: any) => args.minVcpus === undefined || x.vcpus >= (args.minVcpus as number))
          .filter(
            (x: any) =>
              args.storageType === undefined || x.storageType.toLowerCase() === String(args.storageType).toLowerCase(),
          )
          .filter((x: any) => args.providers === undefined || (args.providers as string[]).includes(x.provider.id))
          .map((x: any) => {
            const priced = pricedPlanOf(x.provider, x.plan);
            const compared = withCommitments ? priced.price : priced.monthToMonthPrice;
            return {
              ...x,
              priced,
              compared,
              normalized: toCurrency(compared ?? priced.price, x.plan.currency, currency),
            };
          })
          .filter((x: any) => args.maxMonthlyPrice === undefined || x.normalized <= (args.maxMonthlyPrice as number));
        // Plans of a line no longer sold, and plans read as not orderable, are never matches by default; each is counted apart.
        const discontinued = qualifying.filter((x: any) => x.priced.discontinued && x.compared !== null);
        const unorderable = qualifying.filter(
          (x: any) => !x.priced.discontinued && x.priced.orderable === false && x.compared !== null,
        );
        const sold = qualifying.filter((x: any) => !x.priced.discontinued && x.priced.orderable !== false);
        const expected = sold
          .filter((x: any) => x.compared !== null)
          .sort(
            (a: any, b: any) =>
              a.normalized - b.normalized ||
              a.provider.id.localeCompare(b.provider.id) ||
              a.plan.name.localeCompare(b.plan.name),
          );

        expect(result.currency).toBe(currency);
        // Every plan's price is converted into the answer's currency: the oldest rate that takes dates it.
        expect(result.exchangeRatesDate).toBe(rateDay(allPlans.map((x: any) => [x.plan.currency, currency])));
        expect(result.comparedOn).toBe(withCommitments ? 'lowest-effective' : 'no-commitment');
        expect(result.totalMatches).toBe(expected.length);
        expect(result.leftOutNeedingCommitment).toBe(sold.length - expected.length);
        expect(result.leftOutDiscontinued).toBe(discontinued.length);
        expect(result.leftOutUnorderable).toBe(unorderable.length);
        expect(result.stalePrices).toBe(expected.filter((x: any) => x.priced.stale).length);
        const limit = (args.limit as number) ?? 10;
        expect(result.plans.map((p: any) => `${p.providerId}/${p.planName}`)).toEqual(
          expected.slice(0, limit).map((x: any) => `${x.provider.id}/${x.plan.name}`),
        );
        for (const p of result.plans) {
          const raw = expected.find((x: any) => x.provider.id === p.providerId && x.plan.name === p.planName);
          expect(p).toMatchObject({
            price: raw.plan.price,
            currency: raw.plan.currency,
            normalizedPrice: raw.normalized,
            normalizedCurrency: currency,
            vcpus: raw.vcpus,
            ramGb: raw.ramGb,
            storageGb: raw.storageGb,
            priceBasis: raw.priced.priceBasis,
            termMonths: raw.priced.termMonths,
            renewalPrice: raw.priced.renewalPrice,
            monthToMonthPrice: raw.priced.monthToMonthPrice,
            observedAt: raw.plan.observedAt,
            priceAgeDays: raw.priced.priceAgeDays,
            stale: raw.priced.stale,
            discontinued: false,
            url: `${TEST_BASE_URL}/providers/${p.providerId}`,
          });
        }
      },
    );

    it('includes a plan priced exactly at the ceiling', async () => {
      const atFive = allPlans
        .filter((x: any) => x.plan.currency === 'USD' && x.plan.price === 5)
        .map((x: any) => `${x.provider.id}/${x.plan.name}`);
      expect(atFive.length).toBeGreaterThan(0);
      const { plans } = data(await call('find_vps_plans', { maxMonthlyPrice: 5, limit: 50 }));
      expect(plans.map((p: any) => `${p.providerId}/${p.planName}`)).toEqual(expect.arrayContaining(atFive));
    });

    it('leaves prepaid-only plans out by default, counts them, and ranks them by their effective price on request', async () => {
      const prepaid = allPlans.filter(
        (x: any) =>
          pricedPlanOf(x.provider, x.plan).monthToMonthPrice === null && !pricedPlanOf(x.provider, x.plan).discontinued,
      );
      expect(prepaid.length).toBeGreaterThan(0);
      const byDefault = data(await call('find_vps_plans', { limit: 50, responseFormat: 'detailed' }));
      expect(byDefault.leftOutNeedingCommitment).toBe(prepaid.length);
      expect(byDefault.plans.some((p: any) => p.priceBasis === 'prepaid-term' && p.monthToMonthPrice === null)).toBe(
        false,
      );
      const all = data(
        await call('find_vps_plans', { includeCommitments: true, limit: 50, responseFormat: 'detailed' }),
      );
      expect(all.leftOutNeedingCommitment).toBe(0);
      const hostinger = all.plans.find((p: any) => p.providerId === 'hostinger');
      expect(hostinger).toMatchObject({ priceBasis: 'prepaid-term', termMonths: 24, promotional: true });
    });

    it('reports metered traffic as bandwidthTb', async () => {
      const { plans } = data(
        await call('find_vps_plans', { providers: ['hetzner'], limit: 50, responseFormat: 'detailed' }),
      );
      expect(plans.length).toBeGreaterThan(0);
      for (const p of plans) expect(p.bandwidthTb).toBe(Number(p.bandwidth.replace('TB', '')));
    });

    it('reports unmetered traffic as a null bandwidthTb', async () => {
      const { plans } = data(
        await call('find_vps_plans', { providers: ['ovhcloud'], limit: 50, responseFormat: 'detailed' }),
      );
      expect(plans.length).toBeGreaterThan(0);
      for (const p of plans) expect(p.bandwidthTb).toBeNull();
    });

    it('returns an empty list, not an error, when nothing qualifies', async () => {
      expect(data(await call('find_vps_plans', { minRamGb: 4000 }))).toMatchObject({ plans: [], totalMatches: 0 });
    });

    it('answers an unsupported currency with isError listing the supported ones', async () => {
      const text = errorText(await call('find_vps_plans', { currency: 'XYZ' }));
      expect(text).toContain('USD');
      expect(text).toContain('EUR');
    });

    it('answers an unknown provider id with isError listing the valid ids', async () => {
      const text = errorText(await call('find_vps_plans', { providers: ['hetzner', 'aws'] }));
      expect(text).toContain('"aws"');
      for (const id of VALID_IDS) expect(text).toContain(id);
    });

    it.each([[{ minRamGb: 'lots' }], [{ limit: 51 }], [{ limit: 0 }], [{ storageType: 'tape' }], [{ minVcpus: 1.5 }]])(
      'answers invalid arguments %j with isError',
      async (args) => {
        expect(errorText(await call('find_vps_plans', args))).toMatch(/Invalid arguments|validation/i);
      },
    );
  });

  describe('recommend_vps_for_workload', () => {
    it("matches a slug exactly and finds each pick's cheapest fitting plan", async () => {
      const apiUseCases = (await t.http.get('/api/use-cases.json').expect(200)).body.useCases;
      for (const raw of rawUseCases.useCases) {
        const result = data(await call('recommend_vps_for_workload', { workload: raw.slug }));
        expect(result.useCase).toEqual({ slug: raw.slug, title: raw.title, url: `${TEST_BASE_URL}${raw.url}` });
        expect(result.matchedBy).toBe('slug');
        // The same specs the JSON API serves: the data file's figures with the contract's text fields.
        const api = apiUseCases.find((u: any) => u.slug === raw.slug);
        expect(result.minimumSpec).toEqual(api.minimumSpec);
        expect(result.minimumSpec).toMatchObject(raw.minimumSpec);
        expect(result.recommendedSpec).toEqual(api.recommendedSpec);
        expect(result.recommendedSpec).toMatchObject(raw.recommendedSpec);
        expect(result.providers.map((p: any) => [p.id, p.reason])).toEqual(
          raw.recommendedProviders.map((p: any) => [p.id, p.reason]),
        );
        for (const pick of result.providers) {
          // Only plans the reason describes: a reason saying "dedicated vCPU" or "NVMe" shows such a plan.
          const claims = claimsOf(pick.reason);
          expect(pick.reasonClaims ?? {}).toEqual(claims);
          const fits = (spec: any) =>
            allPlans.filter(
              (x: any) =>
                x.provider.id === pick.id &&
                hasClaimed(x.plan, claims) &&
                // Neither a discontinued line nor a plan read as not orderable (both are orderable: false).
                pricedPlanOf(x.provider, x.plan).orderable !== false &&
                meetsAllFour(x.plan, spec),
            );
          const recommended = fits(raw.recommendedSpec);
          const pool = recommended.length > 0 ? recommended : fits(raw.minimumSpec);
          if (pool.length === 0) {
            expect(pick.cheapestMatchingPlan).toBeNull();
            continue;
          }
          // By no-commitment price; plans that need a commitment only when the provider has nothing else.
          // Within that, a stale price only when no fresh one fits; discontinued lines never.
          const all = pool.map((x: any) => pricedPlanOf(x.provider, x.plan));
          const sold = all.some((p: any) => p.monthToMonthPrice !== null)
            ? all.filter((p: any) => p.monthToMonthPrice !== null)
            : all;
          const priced = sold.some((p: any) => !p.stale) ? sold.filter((p: any) => !p.stale) : sold;
          const monthly = priced.filter((p: any) => p.monthToMonthPrice !== null);
          const cheapest =
            monthly.length > 0
              ? Math.min(...monthly.map((p: any) => p.monthToMonthPrice))
              : Math.min(...priced.map((p: any) => p.price));
          const chosen = priced.find((p: any) => p.name === pick.cheapestMatchingPlan.planName);
          expect(pick.cheapestMatchingPlan).toMatchObject({
            observedAt: chosen.observedAt,
            stale: chosen.stale,
            cpuType: chosen.cpuType,
          });
          expect(pick.cheapestMatchingPlan.monthToMonthPrice ?? pick.cheapestMatchingPlan.price).toBe(cheapest);
          expect(pick.cheapestMatchingPlan.priceBasis).toBe(
            priced.find((p: any) => p.name === pick.cheapestMatchingPlan.planName).priceBasis,
          );
          expect(pick.cheapestMatchingPlan.meets).toBe(recommended.length > 0 ? 'recommended' : 'minimum');
        }
      }
    });

    it.each([
      ['database', 'hetzner', { cpuType: 'dedicated', disk: 'NVMe' }],
      ['database', 'linode', { cpuType: 'dedicated' }],
      ['web-app', 'vultr', { disk: 'NVMe' }],
      ['game-server', 'vultr', { disk: 'NVMe' }],
      ['ci-runner', 'vultr', { disk: 'NVMe' }],
      ['ai-inference', 'linode', { cpuType: 'dedicated' }],
    ])('shows for %s / %s a plan with what its reason claims (%j)', async (slug, id, claims) => {
      const pick = data(await call('recommend_vps_for_workload', { workload: slug })).providers.find(
        (p: any) => p.id === id,
      );
      expect(claimsOf(pick.reason)).toEqual(claims);
      const plan = allPlans.find(
        (x: any) => x.provider.id === id && x.plan.name === pick.cheapestMatchingPlan.planName,
      ).plan;
      expect(hasClaimed(plan, claims)).toBe(true);
    });

    it.each([
      ['minecraft server for ten friends', 'game-server'],
      ['a wordpress blog', 'wordpress'],
      ['wireguard for my family', 'vpn'],
      ['postgres', 'database'],
      ['self-hosted nextcloud and photos', 'self-hosted-apps'],
      ['run llama models on cpu', 'ai-inference'],
    ])('matches the free text %j to %s', async (workload, slug) => {
      const result = data(await call('recommend_vps_for_workload', { workload }));
      expect(result.matchedBy).toBe('search');
      expect(result.useCase.slug).toBe(slug);
      expect(result.alternatives.map((a: any) => a.slug)).not.toContain(slug);
    });

    it('answers a workload it cannot match with isError listing the valid slugs', async () => {
      const text = errorText(await call('recommend_vps_for_workload', { workload: 'zqxj vvkk' }));
      for (const u of rawUseCases.useCases) expect(text).toContain(u.slug);
    });

    it('names the closest use case when the text is too far off to match', async () => {
      expect(errorText(await call('recommend_vps_for_workload', { workload: 'dtabse' }))).toContain(
        'Closest matches: database',
      );
    });

    it('answers an empty workload with isError', async () => {
      expect(errorText(await call('recommend_vps_for_workload', { workload: '   ' }))).toMatch(/workload/);
    });
  });

  describe('search_guides', () => {
    it('ranks the WireGuard tutorial first for "wireguard", with a snippet around the match', async () => {
      const { results } = data(await call('search_guides', { query: 'wireguard', responseFormat: 'detailed' }));
      expect(results[0]).toMatchObject({
        slug: 'wireguard-vpn-server',
        type: 'tutorial',
        url: `${TEST_BASE_URL}/guides/wireguard-vpn-server`,
        markdownUrl: `${TEST_BASE_URL}/guides/wireguard-vpn-server.md`,
      });
      expect(results[0].snippet.toLowerCase()).toContain('wireguard');
      const scores = results.map((r: any) => r.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it.each([['wiregard'], ['wiregu'], ['WireGuard VPN']])('tolerates typos and prefixes: %j', async (query) => {
      const { results } = data(await call('search_guides', { query }));
      expect(results.slice(0, 3).map((r: any) => r.slug)).toContain('wireguard-vpn-server');
    });

    it('searches provider reviews and comparisons too, and filters by type', async () => {
      const { results } = data(await call('search_guides', { query: 'hetzner', type: 'review', limit: 50 }));
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) expect(r.type).toBe('review');
      expect(results[0].slug).toBe('hetzner-review');
    });

    it('honours limit and finds guides only by their bodies', async () => {
      expect(data(await call('search_guides', { query: 'server', limit: 3 })).results).toHaveLength(3);
      // "swappiness" appears in the body of the swap guide, not in its title.
      expect(data(await call('search_guides', { query: 'swappiness' })).results.map((r: any) => r.slug)).toContain(
        'swap-file',
      );
    });

    it('handles regular-expression characters as plain text', async () => {
      // The special characters are ignored as text; the word inside them still finds the SSH guides.
      const result = await call('search_guides', { query: '.*(a+)+$ [ssh]' });
      expect(result.isError).toBeFalsy();
      const plain = data(await call('search_guides', { query: 'ssh' })).results.map((r: any) => r.slug);
      const { results } = data(result);
      expect(results.length).toBeGreaterThan(0);
      expect(results.map((r: any) => r.slug)).toEqual(expect.arrayContaining(plain.slice(0, 3)));
    });

    it.each([[''], ['   '], ['x'.repeat(201)]])('answers the query %j with isError and guidance', async (query) => {
      expect(errorText(await call('search_guides', { query }))).toMatch(/query/i);
    });
  });

  describe('get_guide', () => {
    it('returns a guide whole and in chunks that add up to it', async () => {
      const raw = rawGuides.find((g) => g.slug === 'restic-backups')!;
      const whole = data(await call('get_guide', { slug: 'restic-backups' }));
      expect(whole).toMatchObject({
        slug: 'restic-backups',
        title: raw.title,
        url: `${TEST_BASE_URL}/guides/restic-backups`,
        nextOffset: null,
      });
      // This guide has site links and no code that looks like one: each becomes absolute, nothing else changes.
      expect(whole.markdown).toBe(`${raw.body.trim()}\n`.replaceAll('](/', `](${TEST_BASE_URL}/`));
      expect(whole.totalChars).toBe(whole.markdown.length);

      let offset: number | null = 0;
      let joined = '';
      let calls = 0;
      while (offset !== null) {
        const chunk = data(await call('get_guide', { slug: 'restic-backups', offset, maxChars: 700 }));
        expect(chunk.markdown.length).toBeLessThanOrEqual(700);
        joined += chunk.markdown;
        offset = chunk.nextOffset;
        calls += 1;
      }
      expect(joined).toBe(whole.markdown);
      expect(calls).toBe(Math.ceil(whole.totalChars / 700));
    });

    it.each(['restic-backups', 'hetzner-review', 'swap-file'])(
      'gives %s with its dates, its author and every link to the site absolute',
      async (slug) => {
        const raw = rawGuides.find((g) => g.slug === slug)!;
        const author = rawAuthors.authors.find((a: any) => a.id === raw.author).name;
        const whole = data(await call('get_guide', { slug, maxChars: 100_000 }));
        expect(whole).toMatchObject({ published: raw.published, updated: raw.updated ?? raw.published, author });
        const siteLinks = raw.body.match(/\]\(\/(?!\/)/g) ?? [];
        expect(siteLinks.length).toBeGreaterThan(0);
        expect(whole.markdown).not.toMatch(/\]\(\/(?!\/)/);
        expect(whole.markdown.split(`](${TEST_BASE_URL}/`).length - 1).toBe(siteLinks.length);
      },
    );

    it('answers an offset past the end with an empty last chunk', async () => {
      expect(data(await call('get_guide', { slug: 'swap-file', offset: 10_000_000 }))).toMatchObject({
        markdown: '',
        nextOffset: null,
      });
    });

    it('answers an unknown slug with isError naming the closest slugs', async () => {
      const text = errorText(await call('get_guide', { slug: 'wireguard-vpn' }));
      expect(text).toContain('wireguard-vpn-server');
      expect(text).toContain('search_guides');
    });
  });

  it("answers an unknown tool with invalid params naming it (the specification's answer), and goes on serving", async () => {
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('delete_everything'),
    });
    expect((await client.callTool({ name: 'describe_filters', arguments: {} })).isError).toBeFalsy();
  });
});
