import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { meetsAllFour, pricedPlanOf, STALE_DAYS, toCurrencyWith } from './support/independent-figures';
import { mcpSuite } from './support/mcp-tool-caller';
import { DATA_DIR, rawMeta, rawProviders, rawUseCases } from './support/raw-data';
import type { TestApp } from './support/test-app';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const rates = JSON.parse(readFileSync(join(DATA_DIR, 'exchange-rates.json'), 'utf8'));
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** Every plan with its line, read from the raw files; `stale` as the data README defines it, written out here. */
function rawPlans(providers: Json[], version: string) {
  return providers.flatMap((p: Json) =>
    p.plans.map((plan: Json) => {
      const line = p.planLines.find((l: Json) => l.id === plan.line);
      const age = days(plan.observedAt, version);
      const stale = age > 90 || (line.laterPriceChange !== undefined && line.laterPriceChange.date > plan.observedAt);
      const discontinued = line.discontinued !== undefined;
      // Listed by the provider but read as not orderable: never an entry price nor a pick.
      const unorderable = !discontinued && plan.availability?.orderable === false;
      return { provider: p, plan, line, age, stale, discontinued, unorderable };
    }),
  );
}

/**
 * One app on the embedded dataset (and its SDK client) for the first and the last describe: they only
 * read. The describe between them edits a copy of the dataset and boots its own.
 */
const embedded = mcpSuite();

describe('the age of every price, on the embedded dataset', () => {
  const { call, data, errorText } = embedded;
  const plans = rawPlans(rawProviders.providers, rawMeta.version);
  let t: TestApp;
  beforeAll(() => {
    t = embedded.app();
  });

  it('holds both fresh and stale prices, and a discontinued line, so the checks below can tell them apart', () => {
    expect(plans.some((x) => x.stale)).toBe(true);
    expect(plans.some((x) => !x.stale && !x.discontinued)).toBe(true);
    expect(plans.some((x) => x.discontinued)).toBe(true);
  });

  it('flags a row of plans.json and plans.csv stale exactly when its price is over 90 days old or a later change is reported', async () => {
    const [json, csv] = await Promise.all([
      t.http.get('/api/plans.json').expect(200),
      t.http.get('/api/plans.csv').expect(200),
    ]);
    const csvRows = parse(csv.text, { columns: true });
    expect(json.body.staleAfterDays).toBe(STALE_DAYS);
    plans.forEach((x, i) => {
      const row = json.body.plans[i];
      expect([row.providerId, row.planName]).toEqual([x.provider.id, x.plan.name]);
      expect(row).toMatchObject({
        observedAt: x.plan.observedAt,
        priceAgeDays: x.age,
        stale: x.stale,
        priceSourceMethod: x.line.source.method,
        priceSourceUrl: x.line.source.url,
        priceCopyOf: x.line.source.copyOf ?? null,
        discontinued: x.discontinued,
        successor: x.line.discontinued?.successor ?? null,
      });
      expect(row.staleReason === null).toBe(!x.stale);
      if (x.stale) expect(row.staleReason).toContain(x.plan.observedAt);
      expect([csvRows[i].observedAt, csvRows[i].stale, csvRows[i].priceAgeDays]).toEqual([
        x.plan.observedAt,
        String(x.stale),
        String(x.age),
      ]);
    });
    const dates = plans.map((x) => x.plan.observedAt).sort();
    expect(json.body.priceAge).toEqual({
      oldestObservedAt: dates[0],
      newestObservedAt: dates.at(-1),
      stalePrices: plans.filter((x) => x.stale).length,
    });
  });

  it.each(rawProviders.providers.map((p: Json) => p.id))(
    'gives provider %s the age of its prices, in the list and on its own',
    async (id) => {
      const own = plans.filter((x) => x.provider.id === id);
      const dates = own.map((x) => x.plan.observedAt).sort();
      const expected = {
        oldestObservedAt: dates[0],
        newestObservedAt: dates.at(-1),
        stalePrices: own.filter((x) => x.stale).length,
      };
      const [one, list] = await Promise.all([
        t.http.get(`/api/providers/${id}.json`),
        t.http.get('/api/providers.json'),
      ]);
      expect(one.body.provider.priceAge).toEqual(expected);
      expect(list.body.providers.find((p: Json) => p.id === id).priceAge).toEqual(expected);
    },
  );

  it('leaves prices older than maxPriceAgeDays out of find_vps_plans, and says how many matches are stale', async () => {
    const ages = [...new Set(plans.map((x) => x.age))].sort((a, b) => a - b);
    const cut = ages[Math.floor(ages.length / 2)];
    const eligible = (x: Json) =>
      pricedPlanOf(x.provider, x.plan).orderable !== false &&
      pricedPlanOf(x.provider, x.plan).monthToMonthPrice !== null;
    const all = data(await call('find_vps_plans', { limit: 50 }));
    expect(all.totalMatches).toBe(plans.filter(eligible).length);
    expect(all.stalePrices).toBe(plans.filter((x) => eligible(x) && x.stale).length);
    const allDetailed = data(await call('find_vps_plans', { limit: 50, responseFormat: 'detailed' }));
    expect(allDetailed.stalePriceNote).toEqual(expect.stringContaining(String(all.stalePrices)));
    for (const p of all.plans)
      expect(p).toEqual(
        expect.objectContaining({
          observedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          stale: expect.any(Boolean),
        }),
      );

    const recent = data(await call('find_vps_plans', { maxPriceAgeDays: cut, limit: 50, responseFormat: 'detailed' }));
    expect(recent.filters.maxPriceAgeDays).toBe(cut);
    expect(recent.totalMatches).toBe(plans.filter((x) => eligible(x) && x.age <= cut).length);
    expect(recent.totalMatches).toBeLessThan(all.totalMatches);
    for (const p of recent.plans) expect(p.priceAgeDays).toBeLessThanOrEqual(cut);
    const fresh = data(await call('find_vps_plans', { maxPriceAgeDays: STALE_DAYS, limit: 50 }));
    const freshCount = plans.filter((x) => eligible(x) && x.age <= STALE_DAYS).length;
    expect(fresh.totalMatches).toBe(freshCount);
    expect(fresh.stalePrices).toBe(plans.filter((x) => eligible(x) && x.age <= STALE_DAYS && x.stale).length);
    if (fresh.stalePrices === 0) expect(fresh.stalePriceNote).toBeUndefined();
  });

  it.each([0, -3, 1.5, 'old'])('refuses maxPriceAgeDays %j with isError', async (value) => {
    expect(errorText(await call('find_vps_plans', { maxPriceAgeDays: value }))).toMatch(/maxPriceAgeDays/);
  });

  it('never offers a discontinued plan as a match unless asked, and counts those left out', async () => {
    const gone = plans.filter((x) => x.discontinued && pricedPlanOf(x.provider, x.plan).monthToMonthPrice !== null);
    const byDefault = data(await call('find_vps_plans', { limit: 50, responseFormat: 'detailed' }));
    expect(byDefault.leftOutDiscontinued).toBe(gone.length);
    expect(byDefault.plans.every((p: Json) => p.discontinued === false)).toBe(true);
    const asked = data(
      await call('find_vps_plans', { providers: [gone[0].provider.id], includeDiscontinued: true, limit: 50 }),
    );
    const listed = asked.plans.filter((p: Json) => p.discontinued);
    expect(listed.map((p: Json) => p.planName).sort()).toEqual(
      gone
        .filter((x) => x.provider.id === gone[0].provider.id)
        .map((x) => x.plan.name)
        .sort(),
    );
    for (const p of listed) expect(p.successor).toBe(gone[0].line.discontinued.successor);
    expect(asked.leftOutDiscontinued).toBe(0);
  });

  it('shows the age of each price in find_equivalent_plans and estimate_monthly_cost', async () => {
    const x = plans.find((y) => y.stale && !y.discontinued && y.line.priceBasis !== 'prepaid-term')!;
    const eq = data(
      await call('find_equivalent_plans', { providerId: x.provider.id, planName: x.plan.name, limit: 50 }),
    );
    expect(eq.reference).toMatchObject({ observedAt: x.plan.observedAt, stale: true });
    for (const e of eq.equivalents) {
      const raw = plans.find((y) => y.provider.id === e.providerId && y.plan.name === e.planName)!;
      expect([e.planName, e.observedAt, e.stale, raw.discontinued]).toEqual([
        e.planName,
        raw.plan.observedAt,
        raw.stale,
        false,
      ]);
    }
    const bill = data(
      await call('estimate_monthly_cost', { providerId: x.provider.id, planName: x.plan.name, country: 'DE' }),
    );
    expect(bill.plan).toMatchObject({ observedAt: x.plan.observedAt, stale: true, discontinued: false });
    expect(bill.assumptions.some((a: string) => a.includes('stale') && a.includes(x.plan.observedAt))).toBe(true);
  });

  it("says on each provider page when each line's prices were seen, and marks stale ones in words", async () => {
    for (const p of rawProviders.providers) {
      const md = (await t.http.get(`/providers/${p.id}.md`).expect(200)).text;
      const html = (await t.http.get(`/providers/${p.id}`).expect(200)).text;
      for (const line of p.planLines) {
        const dates = [
          ...new Set(p.plans.filter((plan: Json) => plan.line === line.id).map((plan: Json) => plan.observedAt)),
        ];
        const said = dates.length === 1 ? [`Prices seen at ${p.name} on ${dates[0]}`] : dates.map((d) => ` on ${d}`);
        for (const s of said)
          expect([p.id, line.id, md.includes(s), html.includes(s)]).toEqual([p.id, line.id, true, true]);
      }
      const own = plans.filter((x) => x.provider.id === p.id);
      const marked = md.split('\n').filter((l) => /^\| [\d.]+ [A-Z]{3} \(stale\) \|/.test(l)).length;
      expect([p.id, marked]).toEqual([p.id, own.filter((x) => x.stale).length]);
      if (own.some((x) => x.stale))
        expect(md).toContain(`${own.filter((x) => x.stale).length} of these ${own.length} prices are stale`);
    }
  });

  it('gives every row of the plans page the day its price was seen, stale ones marked, with the reasons below', async () => {
    const html = (await t.http.get('/plans').expect(200)).text;
    const md = (await t.http.get('/plans.md').expect(200)).text;
    for (const x of plans) {
      const cell = `at ${x.provider.name} on ${x.plan.observedAt}${x.stale ? ', stale' : ''}`;
      expect([
        x.plan.name,
        html.includes(`<td>${cell.replace(/&/g, '&amp;')}</td>`),
        md.includes(`| ${cell} |`),
      ]).toEqual([x.plan.name, true, true]);
    }
    expect(md.split('\n').filter((l) => /^\| (\$[\d.]+|needs a \d+-month term) \(stale\) \|/.test(l)).length).toBe(
      plans.filter((x) => x.stale).length,
    );
    expect(md).toContain('## Why prices are stale');
  });
});

describe('entry prices and picks when the cheapest fitting price is stale', () => {
  const { call, data, app, dataDir } = mcpSuite({
    editData: async (dir) => {
      expect(chosen).toBeDefined();
      // The provider reports a price change on the cheapest fresh plan's line after its price was seen.
      const line = raw.providers
        .find((p: Json) => p.id === chosen.cheapest.provider.id)
        .planLines.find((l: Json) => l.id === chosen.cheapest.line.id);
      // Reported on the day the line's own source was read: no figure of the dataset gets newer, so no guide is out of date.
      const reported = line.source.retrievedAt;
      expect(reported > chosen.cheapest.plan.observedAt).toBe(true);
      line.laterPriceChange = {
        date: reported,
        note: 'The provider changed these prices',
        source: { url: 'https://example.com/price-change', retrievedAt: reported },
      };
      await writeFile(join(dir, 'providers.json'), JSON.stringify(raw, null, 2));
    },
  });
  const toUsd = toCurrencyWith(rates);
  const raw = structuredClone(rawProviders);
  const plans = rawPlans(raw.providers, rawMeta.version);
  const fits = (x: Json, spec: Json) => meetsAllFour(x.plan, spec);
  const m2mUsd = (x: Json) => {
    const m2m = pricedPlanOf(x.provider, x.plan).monthToMonthPrice;
    return m2m === null ? null : toUsd(m2m, x.plan.currency, 'USD');
  };
  const entryCandidates = (spec: Json, pool: Json[]) =>
    pool.filter((x) => !x.discontinued && !x.unorderable && m2mUsd(x) !== null && fits(x, spec));
  // A use case whose cheapest fresh fitting plan sits in a line outside which some fresh plan also fits.
  const chosen = rawUseCases.useCases
    .map((u: Json) => {
      const fresh = entryCandidates(u.minimumSpec, plans).filter((x) => !x.stale);
      if (fresh.length === 0) return undefined;
      const cheapest = fresh.reduce((a, b) => (m2mUsd(b)! < m2mUsd(a)! ? b : a));
      const rest = fresh.filter((x) => !(x.provider.id === cheapest.provider.id && x.line.id === cheapest.line.id));
      return rest.length > 0
        ? { u, cheapest, next: Math.min(...rest.map((x) => m2mUsd(x)!)), was: m2mUsd(cheapest)! }
        : undefined;
    })
    .find((c: Json) => c && c.next > c.was);
  const ALL_STALE = 'all-stale';

  it('moves the entry price off the newly stale plan to the cheapest fresh one that meets the minimum spec', async () => {
    const { body } = await app().http.get('/api/use-cases.json').expect(200);
    const u = body.useCases.find((x: Json) => x.slug === chosen.u.slug);
    expect(u).toMatchObject({
      startingAtUsd: chosen.next,
      startingAt: `$${chosen.next.toFixed(2)}/mo`,
      startingAtStale: false,
    });
    const rows = (await app().http.get('/api/plans.json')).body.plans;
    expect(
      rows.some(
        (r: Json) => !r.stale && r.monthToMonthPriceUsd === chosen.next && r.observedAt === u.startingAtObservedAt,
      ),
    ).toBe(true);
    expect(
      rows.find((r: Json) => r.providerId === chosen.cheapest.provider.id && r.planName === chosen.cheapest.plan.name),
    ).toMatchObject({ stale: true, staleReason: expect.stringContaining('The provider changed these prices') });
  });

  it("picks fresh plans over stale ones in recommend_vps_for_workload, and shows each pick's age", async () => {
    const r = data(await call('recommend_vps_for_workload', { workload: chosen.u.slug }));
    expect([r.startingAt, r.startingAtStale]).toEqual([`$${chosen.next.toFixed(2)}/mo`, false]);
    for (const pick of r.providers) {
      if (!pick.cheapestMatchingPlan) continue;
      const own = plans.filter((x) => x.provider.id === pick.id && !x.discontinued && !x.unorderable);
      const spec = pick.cheapestMatchingPlan.meets === 'recommended' ? chosen.u.recommendedSpec : chosen.u.minimumSpec;
      const fitting = own.filter((x) => fits(x, spec));
      const sold = fitting.some((x) => m2mUsd(x) !== null) ? fitting.filter((x) => m2mUsd(x) !== null) : fitting;
      const picked = own.find((x) => x.plan.name === pick.cheapestMatchingPlan.planName)!;
      expect([pick.id, pick.cheapestMatchingPlan.observedAt, pick.cheapestMatchingPlan.stale]).toEqual([
        pick.id,
        picked.plan.observedAt,
        picked.stale,
      ]);
      expect([pick.id, picked.stale]).toEqual([pick.id, sold.every((x) => x.stale)]);
    }
  });

  it("says on the use-case page when the entry price was seen, and that the picks' prices are stale where they are", async () => {
    const md = (await app().http.get(`/use-cases/${chosen.u.slug}.md`).expect(200)).text;
    const { body } = await app().http.get('/api/use-cases.json');
    const u = body.useCases.find((x: Json) => x.slug === chosen.u.slug);
    expect(md).toContain(`The price was seen on ${u.startingAtObservedAt}.`);
    expect(md).not.toContain('This entry price is stale');
  });

  it(`marks the entry price stale on the API and the page when no fresh plan meets the spec (${ALL_STALE})`, async () => {
    const everything = structuredClone(raw);
    for (const p of everything.providers)
      for (const l of p.planLines)
        l.laterPriceChange = {
          date: rawMeta.version,
          note: 'Every price changed',
          source: { url: 'https://example.com/all', retrievedAt: rawMeta.version },
        };
    const file = join(dataDir(), 'providers.json');
    const before = await readFile(file, 'utf8');
    await writeFile(file, JSON.stringify(everything, null, 2));
    // The generated guides quote those prices, so a release that reports the changes regenerates them (they say stale, and are re-dated).
    const { generateGuides } = await import('../src/cli/guides-generator/generate');
    const regenerated = await generateGuides(dataDir());
    const guidesBefore = new Map<string, string>();
    for (const [name, content] of regenerated) {
      guidesBefore.set(name, await readFile(join(dataDir(), 'guides', name), 'utf8'));
      await writeFile(join(dataDir(), 'guides', name), content);
    }
    try {
      const { DatasetReloader } = await import('../src/dataset/dataset-reloader');
      expect(await app().app.get(DatasetReloader).reload()).toBe(true);
      const { body } = await app().http.get('/api/use-cases.json').expect(200);
      const u = body.useCases.find((x: Json) => x.slug === chosen.u.slug);
      const cheapest = Math.min(...entryCandidates(chosen.u.minimumSpec, plans).map((x) => m2mUsd(x)!));
      expect(u).toMatchObject({ startingAtUsd: cheapest, startingAtStale: true });
      const md = (await app().http.get(`/use-cases/${chosen.u.slug}.md`).expect(200)).text;
      expect(md).toContain(`**This entry price is stale:**`);
      expect(md).toContain(u.startingAtObservedAt);
    } finally {
      await writeFile(file, before);
      for (const [name, content] of guidesBefore) await writeFile(join(dataDir(), 'guides', name), content);
    }
  });
});

describe('every price a plan-finding tool shows carries its date and the dataset version', () => {
  const { call, data } = embedded;
  /** Every object in an answer that shows a plan's price (price or normalizedPrice), with where it sits. */
  const priced = (value: Json, path = '$'): [string, Json][] => {
    if (Array.isArray(value)) return value.flatMap((v, i) => priced(v, `${path}[${i}]`));
    if (value === null || typeof value !== 'object') return [];
    const own: [string, Json][] =
      typeof value.price === 'number' || typeof value.normalizedPrice === 'number' ? [[path, value]] : [];
    return [...own, ...Object.entries(value).flatMap(([k, v]) => priced(v, `${path}.${k}`))];
  };

  it.each([
    ['find_vps_plans', { minRamGb: 8, limit: 5 }],
    ['find_vps_plans', { minRamGb: 4096, maxMonthlyPrice: 5 }],
    ['find_vps_plans', { location: 'Frankfurt', limit: 5, responseFormat: 'detailed' }],
    ['find_equivalent_plans', { providerId: 'linode', planName: 'Dedicated 8 GB' }],
    ['recommend_vps_for_workload', { workload: 'wordpress' }],
    ['estimate_monthly_cost', { providerId: 'hetzner', planName: 'CX33', country: 'DE' }],
  ])('%s %j', async (tool, args) => {
    const r = data(await call(tool, args));
    expect(r.datasetVersion).toBe(rawMeta.version);
    const shown = priced(r);
    expect(shown.length).toBeGreaterThan(0);
    for (const [path, x] of shown)
      expect([path, x.observedAt]).toEqual([path, expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)]);
  });
});
