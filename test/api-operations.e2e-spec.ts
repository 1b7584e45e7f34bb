import { readFileSync } from 'node:fs';
import {
  cheapestWithoutCommitment,
  figures,
  meetsAllFour,
  priceAgeSummaryOf,
  pricedPlanOf,
  STALE_DAYS,
  toCurrencyWith,
} from './support/independent-figures';
import { rawAuthors, rawGuides, rawMeta, rawProviders, rawUseCases } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

/** The Debian releases that check a tutorial's systems, written here apart from the DTO: an Ubuntu release is checked with the Debian release of its generation. */
const IN_PLACE_OF: Record<string, string> = {
  'ubuntu-22.04': 'debian-12',
  'ubuntu-24.04': 'debian-13',
  'ubuntu-26.04': 'debian-13',
};
const checkedOnOf = (systems: string[]) => [...new Set(systems.map((s) => IN_PLACE_OF[s] ?? s))].sort();

describe('JSON API operations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1000', RATE_LIMIT_WINDOW_SECONDS: '30' });
  });
  afterAll(() => t.close());

  // Labels written out here from the examples, not imported from the service.
  const FEATURE_LABELS: Record<string, string> = {
    ipv6: 'IPv6',
    snapshots: 'Snapshots',
    automatedBackups: 'Automated backups',
    api: 'API',
    hourlyBilling: 'Hourly billing',
    ddosProtection: 'DDoS protection',
    managedKubernetes: 'Managed Kubernetes',
    objectStorage: 'Object storage',
  };
  const rates = JSON.parse(readFileSync('data/exchange-rates.json', 'utf8'));
  const expectedProvider = (raw: any) => {
    const plans = raw.plans.map((plan: any) => pricedPlanOf(raw, plan));
    // A discontinued line's price is not an entry price anyone can pay.
    const monthly = plans
      .filter((p: any) => !p.discontinued)
      .map((p: any) => p.monthToMonthPrice)
      .filter((p: any) => p !== null);
    return {
      ...raw,
      plans,
      priceAge: priceAgeSummaryOf(plans),
      monthToMonthStartingPrice: monthly.length > 0 ? Math.min(...monthly) : null,
      planListComplete: raw.planLines.every((l: any) => l.complete),
      url: `${TEST_BASE_URL}${raw.url}`,
      self: `${TEST_BASE_URL}/api/providers/${raw.id}.json`,
      billingCycle: 'monthly',
      locations: raw.datacenters.length,
      features: Object.entries<any>(raw.featureDetails)
        .filter(([, d]) => d.status !== 'unavailable')
        .map(([key, d]) => `${FEATURE_LABELS[key]}${d.status === 'paid' ? ' (paid add-on)' : ''}`),
    };
  };
  /**
   * The entry price of a spec: the cheapest no-commitment price in USD of a plan still sold meeting its
   * vCPU, RAM and disk, from the fresh prices when any fits, else from the stale ones; with the day
   * that price was seen (the newest among equal prices) and whether it is stale.
   */
  const entryOf = (spec: any) => {
    const usd = toCurrencyWith(rates);
    const fitting = rawProviders.providers.flatMap((p: any) =>
      p.plans
        .map((plan: any) => ({ plan: pricedPlanOf(p, plan), ...figures(plan) }))
        .filter(
          (x: any) => x.plan.orderable !== false && x.plan.monthToMonthPrice !== null && meetsAllFour(x.plan, spec),
        )
        .map((x: any) => ({
          usd: usd(x.plan.monthToMonthPrice, x.plan.currency, 'USD'),
          observedAt: x.plan.observedAt,
          stale: x.plan.stale,
        })),
    );
    const fresh = fitting.filter((x: any) => !x.stale);
    const pool = fresh.length > 0 ? fresh : fitting;
    const usdMin = Math.min(...pool.map((x: any) => x.usd));
    const observedAt = pool
      .filter((x: any) => x.usd === usdMin)
      .map((x: any) => x.observedAt)
      .sort()
      .at(-1);
    return { usd: usdMin, observedAt, stale: fresh.length === 0 };
  };
  const ramText = (gb: number) => (gb < 1 ? `${gb * 1024}MB` : `${gb}GB`);
  const transferText = (tb: number) => (tb < 1 ? `${Math.round(tb * 1000)}GB` : `${tb}TB`);
  const expectedSpec = (raw: any) => ({
    ...raw,
    cpu: `${raw.vcpus} vCPU`,
    ram: ramText(raw.ramGb),
    storage: `${raw.storageGb}GB`,
    bandwidth: transferText(raw.bandwidthTb),
  });

  describe('getApiIndex', () => {
    it('describes the API with absolute URLs from PUBLIC_BASE_URL and the configured limit', async () => {
      const { body } = await t.http.get('/api/index.json').expect(200);
      expect(body).toMatchObject({
        name: 'vpsapi',
        version: rawMeta.version,
        description: rawMeta.description,
        documentation: `${TEST_BASE_URL}/docs`,
        openapi: `${TEST_BASE_URL}/openapi.json`,
        llmsTxt: `${TEST_BASE_URL}/llms.txt`,
        authentication: 'none',
        rateLimit: {
          requests: 1000,
          windowSeconds: 30,
          headers: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After'],
        },
        license: rawMeta.license,
        mcp: { endpoint: `${TEST_BASE_URL}/mcp`, serverCard: `${TEST_BASE_URL}/.well-known/mcp/server-card.json` },
      });
      expect(body.endpoints).toEqual([
        expect.objectContaining({ operationId: 'getApiIndex', method: 'GET', url: `${TEST_BASE_URL}/api/index.json` }),
        expect.objectContaining({
          operationId: 'listProviders',
          method: 'GET',
          url: `${TEST_BASE_URL}/api/providers.json`,
        }),
        expect.objectContaining({
          operationId: 'getProvider',
          method: 'GET',
          url: `${TEST_BASE_URL}/api/providers/{providerId}.json`,
        }),
        expect.objectContaining({ operationId: 'listGuides', method: 'GET', url: `${TEST_BASE_URL}/api/guides.json` }),
        expect.objectContaining({
          operationId: 'listUseCases',
          method: 'GET',
          url: `${TEST_BASE_URL}/api/use-cases.json`,
        }),
        expect.objectContaining({ operationId: 'listPlans', method: 'GET', url: `${TEST_BASE_URL}/api/plans.json` }),
        expect.objectContaining({
          operationId: 'downloadPlansCsv',
          method: 'GET',
          url: `${TEST_BASE_URL}/api/plans.csv`,
        }),
        expect.objectContaining({
          operationId: 'listDatasetChanges',
          method: 'GET',
          url: `${TEST_BASE_URL}/api/changes.json`,
        }),
      ]);
      for (const endpoint of body.endpoints) expect(endpoint.description.length).toBeGreaterThan(20);
    });

    it('lists templates that, filled in, answer 200', async () => {
      const { body } = await t.http.get('/api/index.json');
      for (const { url } of body.endpoints) {
        const path = url.replace(TEST_BASE_URL, '').replace('{providerId}', 'hetzner');
        await t.http.get(path).expect(200);
      }
    });
  });

  describe('listProviders', () => {
    it('returns the eight providers as in the data files, with absolute URLs and the contract fields derived from them', async () => {
      const { body } = await t.http.get('/api/providers.json').expect(200);
      expect(body).toEqual({
        version: rawMeta.version,
        lastUpdated: rawMeta.lastUpdated,
        source: rawMeta.source,
        description: rawMeta.description,
        license: rawMeta.license,
        staleAfterDays: STALE_DAYS,
        priceAge: priceAgeSummaryOf(
          rawProviders.providers.flatMap((p: any) => p.plans.map((plan: any) => pricedPlanOf(p, plan))),
        ),
        count: 8,
        recommendations: {
          ...rawProviders.recommendations,
          bestBudget: cheapestWithoutCommitment(rawProviders.providers, rates),
        },
        providers: rawProviders.providers.map(expectedProvider),
      });
    });

    it('keeps startingPrice equal to the cheapest plan for every provider', async () => {
      const { body } = await t.http.get('/api/providers.json');
      for (const p of body.providers) {
        // The cheapest plan that can be ordered: neither a discontinued line nor a plan read as not orderable.
        expect(p.startingPrice).toBe(
          Math.min(...p.plans.filter((plan: any) => plan.orderable !== false).map((plan: any) => plan.price)),
        );
        expect(p.plans.length).toBeGreaterThanOrEqual(4);
      }
    });
  });

  describe('getProvider', () => {
    it.each(rawProviders.providers.map((p: any) => p.id))(
      'returns %s identical to its entry in the list',
      async (id) => {
        const [one, list] = await Promise.all([
          t.http.get(`/api/providers/${id}.json`).expect(200),
          t.http.get('/api/providers.json'),
        ]);
        expect(one.body).toEqual({
          version: rawMeta.version,
          provider: list.body.providers.find((p: any) => p.id === id),
        });
      },
    );
  });

  describe('listGuides', () => {
    it('lists every guide file newest first, then by slug, with computed reading figures', async () => {
      const { body } = await t.http.get('/api/guides.json').expect(200);
      expect(body.version).toBe(rawMeta.version);
      expect(body.count).toBe(rawGuides.length);
      const expectedOrder = [...rawGuides]
        .sort((a, b) =>
          a.published === b.published ? a.slug.localeCompare(b.slug) : b.published.localeCompare(a.published),
        )
        .map((g) => g.slug);
      expect(body.guides.map((g: any) => g.slug)).toEqual(expectedOrder);

      for (const guide of body.guides) {
        const raw = rawGuides.find((g) => g.slug === guide.slug)!;
        const words = raw.body.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
        expect(guide).toEqual({
          slug: raw.slug,
          title: raw.title,
          description: raw.description,
          type: raw.type,
          keywords: raw.keywords,
          published: raw.published,
          updated: raw.updated ?? raw.published,
          author: raw.author,
          authorName: rawAuthors.authors.find((a: any) => a.id === raw.author).name,
          wordCount: words,
          readTimeMinutes: Math.max(1, Math.round(words / 230)),
          url: `${TEST_BASE_URL}/guides/${raw.slug}`,
          markdownUrl: `${TEST_BASE_URL}/guides/${raw.slug}.md`,
          // Tutorials say what their checks ran with, what their steps were written for, and when; other guides carry none.
          ...(raw.verifiedWith === undefined ? {} : { verifiedWith: raw.verifiedWith }),
          ...(raw.writtenFor === undefined ? {} : { writtenFor: raw.writtenFor }),
          ...(raw.reviewed === undefined ? {} : { reviewed: raw.reviewed }),
          // Tutorials name their systems, and the Debian releases whose tools checked them (one in place of each Ubuntu release).
          ...(raw.systems === undefined ? {} : { systems: raw.systems, checkedOn: checkedOnOf(raw.systems) }),
        });
      }
    });

    it('holds at least forty guides of every kind the brief names', async () => {
      const { body } = await t.http.get('/api/guides.json');
      expect(body.count).toBeGreaterThanOrEqual(40);
      const types = new Set(body.guides.map((g: any) => g.type));
      for (const type of ['review', 'comparison', 'workload', 'tutorial']) expect(types).toContain(type);
      const reviews = body.guides
        .filter((g: any) => g.type === 'review')
        .map((g: any) => g.slug)
        .sort();
      expect(reviews).toEqual(rawProviders.providers.map((p: any) => `${p.id}-review`).sort());
    });
  });

  describe('listUseCases', () => {
    it('returns every use case as in the data file, with absolute URLs and each spec written as the contract text', async () => {
      const { body } = await t.http.get('/api/use-cases.json').expect(200);
      expect(body).toEqual({
        version: rawMeta.version,
        count: rawUseCases.useCases.length,
        useCases: rawUseCases.useCases.map((u: any) => ({
          ...u,
          minimumSpec: expectedSpec(u.minimumSpec),
          recommendedSpec: expectedSpec(u.recommendedSpec),
          startingAt: `$${entryOf(u.minimumSpec).usd.toFixed(2)}/mo`,
          startingAtUsd: entryOf(u.minimumSpec).usd,
          startingAtObservedAt: entryOf(u.minimumSpec).observedAt,
          startingAtStale: entryOf(u.minimumSpec).stale,
          url: `${TEST_BASE_URL}${u.url}`,
        })),
      });
      expect(body.count).toBeGreaterThanOrEqual(15);
    });

    it('rests each entry price on a fresh price whenever a plan with one meets the minimum spec', async () => {
      const { body } = await t.http.get('/api/use-cases.json').expect(200);
      const rows = (await t.http.get('/api/plans.json')).body.plans;
      for (const u of body.useCases) {
        const fits = (r: any) =>
          r.orderable !== false &&
          r.monthToMonthPriceUsd !== null &&
          r.vcpus >= u.minimumSpec.vcpus &&
          r.ramGb >= u.minimumSpec.ramGb &&
          r.storageGb >= u.minimumSpec.storageGb;
        const freshFits = rows.filter((r: any) => fits(r) && !r.stale);
        expect([u.slug, u.startingAtStale]).toEqual([u.slug, freshFits.length === 0]);
        const basis = u.startingAtStale ? rows.filter(fits) : freshFits;
        const entry = basis.find(
          (r: any) => r.monthToMonthPriceUsd === u.startingAtUsd && r.observedAt === u.startingAtObservedAt,
        );
        expect([u.slug, entry?.stale]).toEqual([u.slug, u.startingAtStale]);
      }
    });
  });
});
