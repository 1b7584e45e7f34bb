import { claimsOf, hasClaimed } from './support/independent-claims.js';
import { meetsAllFour, pricedPlanOf, toCurrencyWith } from './support/independent-figures.js';
import { mcpSuite } from './support/mcp-tool-caller.js';
import { rawExchangeRates, rawGuides, rawProviders, rawUseCases } from './support/raw-data.js';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const toCurrency = toCurrencyWith(rawExchangeRates);
const useCaseOf = (slug: string) => rawUseCases.useCases.find((u: Json) => u.slug === slug);
const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * The plan a pick should show, read from the raw files: the provider's plans still sold that its
 * reason describes, sold at `where` at a known price (a line without `datacenters` is sold in every
 * data centre of its provider; a city in a `regionalPrices` entry costs the listed price times its
 * factor, null meaning unknown), within `budget` (in `currency`, the no-commitment price or for a plan
 * with none its listed one), meeting the first spec of `specs` some plan meets; cheapest by that price,
 * no-commitment plans before others, fresh prices before stale ones.
 */
function expectedPick(
  id: string,
  reason: string,
  specs: Json[],
  opts: { city?: string; country?: string; budget?: number; currency?: string } = {},
) {
  const provider = rawProviders.providers.find((p: Json) => p.id === id);
  const claims = claimsOf(reason);
  const currency = opts.currency ?? 'USD';
  const candidates = provider.plans
    .map((plan: Json) => {
      const priced = pricedPlanOf(provider, plan);
      const line = provider.planLines.find((l: Json) => l.id === plan.line);
      let factor: number | null = 1;
      if (opts.city || opts.country) {
        const places = provider.datacenters.filter(
          (d: Json) =>
            (!line.datacenters || line.datacenters.includes(d.city)) &&
            (!opts.city || d.city === opts.city) &&
            (!opts.country || d.country === opts.country),
        );
        const factors = places
          .map((d: Json) => {
            const regional = line.regionalPrices?.find((r: Json) => r.datacenters.includes(d.city));
            return regional ? regional.priceFactor : 1;
          })
          .filter((f: number | null) => f !== null);
        factor = factors.length > 0 ? Math.min(...factors) : null;
      }
      const listed = priced.monthToMonthPrice ?? priced.price;
      return {
        plan,
        priced,
        factor,
        price: factor === null ? null : toCurrency(cents(listed * factor), plan.currency, currency),
      };
    })
    .filter(
      (x: Json) =>
        // Neither a discontinued line nor a plan read as not orderable (both are orderable: false).
        x.priced.orderable !== false &&
        hasClaimed(x.plan, claims) &&
        x.price !== null &&
        (opts.budget === undefined || x.price <= opts.budget),
    );
  for (const [spec, meets] of specs) {
    const fitting = candidates.filter((x: Json) => meetsAllFour(x.plan, spec));
    if (fitting.length === 0) continue;
    const monthly = fitting.filter((x: Json) => x.priced.monthToMonthPrice !== null);
    const sold = monthly.length > 0 ? monthly : fitting;
    const fresh = sold.filter((x: Json) => !x.priced.stale);
    const pool = fresh.length > 0 ? fresh : sold;
    const cheapest = Math.min(...pool.map((x: Json) => x.price));
    return {
      names: pool.filter((x: Json) => x.price === cheapest).map((x: Json) => x.plan.name),
      price: cheapest,
      meets,
      factor: pool.find((x: Json) => x.price === cheapest).factor,
    };
  }
  return null;
}

// One app and MCP client for every describe of this file (read-only calls).
const { call, data, errorText } = mcpSuite();

describe('recommend_vps_for_workload: matching free text', () => {
  const recommend = (args: Record<string, unknown>) => call('recommend_vps_for_workload', args);

  it.each([
    ['game-server', 'exact', 1],
    ['Game server hosting', 'exact', 1],
    ['k8s', 'alias', 0.9],
    ['minecraft server for ten friends', 'alias', 0.7],
    ['postgres', 'words', 0.85],
  ])('reports how %j was matched (%s) and how surely (%d)', async (workload, kind, confidence) => {
    const r = data(await recommend({ workload }));
    expect(r.match).toMatchObject({ kind, confidence, matchedUseCase: r.useCase.slug });
    expect(r.match.matchedOn.length).toBeGreaterThan(0);
  });

  it('names what an alias match rests on: a tag of the use case found in the text', async () => {
    const r = data(await recommend({ workload: 'minecraft server for ten friends' }));
    expect(r.useCase.slug).toBe('game-server');
    expect(r.match.matchedOn).toEqual(['minecraft']);
    expect(useCaseOf('game-server').tags).toContain('minecraft');
  });

  it('lands "small Mastodon instance for about 500 users" on a use case by its description, with low confidence', async () => {
    const r = data(await recommend({ workload: 'small Mastodon instance for about 500 users' }));
    expect(['self-hosted-apps', 'web-app']).toContain(r.useCase.slug);
    expect(r.match.kind).toBe('description');
    expect(r.match.confidence).toBeLessThan(0.6);
    // What it rests on is in that use case's description, as a whole word.
    const description = useCaseOf(r.useCase.slug).description.toLowerCase();
    for (const word of r.match.matchedOn) expect(description).toMatch(new RegExp(`\\b${word}\\b`));
  });

  it('finds no guide for "mastodon", as none covers it, rather than unrelated ones', async () => {
    const covering = rawGuides.filter((g: Json) => /mastodon/i.test(JSON.stringify(g)));
    const r = data(await call('search_guides', { query: 'mastodon' }));
    expect(r.results.length).toBe(covering.length);
  });

  it('is less sure when the text names two use cases, and lists the other as an alternative', async () => {
    // "woocommerce" is a tag of both wordpress and e-commerce.
    const shared = rawUseCases.useCases.filter((u: Json) => u.tags.includes('woocommerce')).map((u: Json) => u.slug);
    expect(shared.length).toBe(2);
    const r = data(await recommend({ workload: 'woocommerce' }));
    expect(r.match.kind).toBe('alias');
    expect(r.match.confidence).toBeLessThan(0.9);
    expect(shared).toContain(r.useCase.slug);
    expect(r.alternatives.map((a: Json) => a.slug)).toContain(shared.find((s: string) => s !== r.useCase.slug));
  });

  it('refuses "blockchain validator node" instead of mapping it to kubernetes-node, saying why and listing every use case', async () => {
    const text = errorText(await recommend({ workload: 'blockchain validator node' }));
    expect(text).toMatch(/No use case matches "blockchain validator node"/);
    expect(text).toContain('"node" is a word of several use cases');
    for (const u of rawUseCases.useCases) expect(text).toContain(`${u.slug} (${u.title})`);
  });

  it.each([['a server for my stuff'], ['quantum annealing simulator']])(
    'refuses %j, which names no use case',
    async (workload) => {
      expect(errorText(await recommend({ workload }))).toMatch(/No use case matches/);
    },
  );
});

describe('recommend_vps_for_workload: budget, location and scale', () => {
  const recommend = (args: Record<string, unknown>) => call('recommend_vps_for_workload', args);
  const defaultSpecs = (u: Json) => [
    [u.recommendedSpec, 'recommended'],
    [u.minimumSpec, 'minimum'],
  ];

  /** Each pick against the plan read from the raw files. */
  function expectPicks(r: Json, slug: string, specs: Json[], opts: Parameters<typeof expectedPick>[3]) {
    for (const pick of r.providers) {
      const expected = expectedPick(pick.id, pick.reason, specs, opts);
      if (expected === null) {
        expect(pick.cheapestMatchingPlan).toBeNull();
        expect(pick.noPlanNote).toMatch(/^No .* plan still sold/);
        continue;
      }
      expect(expected.names).toContain(pick.cheapestMatchingPlan.planName);
      expect(pick.cheapestMatchingPlan).toMatchObject({
        normalizedPrice: expected.price,
        normalizedCurrency: opts?.currency ?? 'USD',
        meets: expected.meets,
      });
      expect(pick.cheapestMatchingPlan.regionalPriceFactor ?? 1).toBe(expected.factor);
    }
    expect(r.useCase.slug).toBe(slug);
  }

  it('keeps each pick to plans sold in a city, at the price there, within a budget in the currency given', async () => {
    const args = { workload: 'web-app', budget: 30, currency: 'eur', location: 'sao paulo' };
    const r = data(await recommend(args));
    expect(r.filters).toEqual({ budget: 30, currency: 'EUR', location: 'São Paulo' });
    expectPicks(r, 'web-app', defaultSpecs(useCaseOf('web-app')), { city: 'São Paulo', budget: 30, currency: 'EUR' });
    // The case this test is about: a regional price (Vultr São Paulo) and a pick left without a plan.
    expect(r.providers.some((p: Json) => p.cheapestMatchingPlan?.regionalPriceFactor > 1)).toBe(true);
    expect(r.providers.some((p: Json) => p.cheapestMatchingPlan === null)).toBe(true);
    // The entry price is the use case's, whatever narrows the picks.
    expect(r.startingAt).toBe(data(await recommend({ workload: 'web-app' })).startingAt);
  });

  it('takes a country, by code or name, as the place', async () => {
    const r = data(await recommend({ workload: 'database', location: 'Germany' }));
    expect(r.filters).toEqual({ currency: 'USD', country: 'DE' });
    expectPicks(r, 'database', defaultSpecs(useCaseOf('database')), { country: 'DE' });
  });

  it("answers a near-miss city with did-you-mean, and a budget nothing meets with each pick's noPlanNote", async () => {
    expect(errorText(await recommend({ workload: 'vpn', location: 'Frankfrt' }))).toContain(
      'Did you mean "Frankfurt"?',
    );
    const r = data(await recommend({ workload: 'vpn', budget: 0.5 }));
    for (const pick of r.providers) {
      expect(pick.cheapestMatchingPlan).toBeNull();
      expect(pick.noPlanNote).toContain('within 0.5 USD a month');
    }
  });

  it.each([
    [30_000, 'minimum', 1],
    [300_000, 'recommended', 1],
    [800_000, 'recommended', 2],
    [3_000_000, 'recommended', 4],
  ])(
    'sizes the spec to %d visits a month by the documented thresholds (%s spec, %d times its vCPUs and RAM)',
    async (visitsPerMonth, base, factor) => {
      const u = useCaseOf('wordpress');
      const r = data(await recommend({ workload: 'wordpress', scale: { visitsPerMonth } }));
      const from = base === 'minimum' ? u.minimumSpec : u.recommendedSpec;
      const spec = {
        vcpus: from.vcpus * factor,
        ramGb: from.ramGb * factor,
        storageGb: from.storageGb,
        bandwidthTb: Math.max(from.bandwidthTb, Math.ceil((visitsPerMonth * 2) / 100_000) / 10),
      };
      expect(r.scaledSpec).toMatchObject(spec);
      expect(r.scaleNote).toContain(`${visitsPerMonth.toLocaleString('en-US')} visits a month`);
      expect(r.filters).toEqual({ currency: 'USD', visitsPerMonth });
      expectPicks(r, 'wordpress', [[spec, 'scaled']], {});
    },
  );

  it('refuses a scale with an unknown key or a figure that is not a whole number of visits', async () => {
    expect(errorText(await recommend({ workload: 'wordpress', scale: { visits: 10 } }))).toMatch(/visits/);
    expect(errorText(await recommend({ workload: 'wordpress', scale: { visitsPerMonth: 1.5 } }))).toMatch(
      /visitsPerMonth/,
    );
  });
});
