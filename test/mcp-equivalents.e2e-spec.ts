import { readFileSync } from 'node:fs';
import { figures, pricedPlanOf, toCurrencyWith, transferOf } from './support/independent-figures';
import { mcpSuite } from './support/mcp-tool-caller';
import { rawProviders, rawUseCases } from './support/raw-data';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const rates = JSON.parse(readFileSync('data/exchange-rates.json', 'utf8'));
const vat = JSON.parse(readFileSync('data/vat-rates.json', 'utf8')).rates;
const toCurrency = toCurrencyWith(rates);
// Every plan still sold and orderable with its figures, no-commitment price and the age of that price, read from the raw files.
const rows = rawProviders.providers.flatMap((p: Json) =>
  p.plans
    .map((plan: Json) => ({ plan, priced: pricedPlanOf(p, plan) }))
    .filter(({ priced }: Json) => !priced.discontinued && priced.orderable !== false)
    .map(({ plan, priced }: Json) => ({
      providerId: p.id,
      planName: plan.name,
      currency: p.currency,
      m2m: priced.monthToMonthPrice,
      observedAt: priced.observedAt,
      stale: priced.stale,
      ...figures(plan),
      bandwidthTb: transferOf(plan.bandwidth).bandwidthTb,
    })),
);

/** The raw plan record of an answer's plan. */
const rawPlan = (e: Json) =>
  rawProviders.providers.find((p: Json) => p.id === e.providerId).plans.find((p: Json) => p.name === e.planName);

describe('find_equivalent_plans and describe_filters', () => {
  const { call, data, errorText, tools: toolList } = mcpSuite();

  it('lists the plans at other providers that meet a DigitalOcean plan, cheapest first, with the price difference and lower figures named', async () => {
    const ref = rows.find((r: Json) => r.providerId === 'digitalocean' && r.planName === 'Basic 4 GB');
    const refEur = toCurrency(ref.m2m, 'USD', 'EUR');
    const expected = rows
      .filter(
        (r: Json) =>
          r.providerId !== 'digitalocean' &&
          r.m2m !== null &&
          r.vcpus >= ref.vcpus &&
          r.ramGb >= ref.ramGb &&
          r.storageGb >= ref.storageGb,
      )
      .map((r: Json) => ({ ...r, eur: toCurrency(r.m2m, r.currency, 'EUR') }))
      .sort(
        (a: Json, b: Json) =>
          a.eur - b.eur || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName),
      );
    const r = data(
      await call('find_equivalent_plans', {
        providerId: 'digitalocean',
        planName: 'Basic 4 GB',
        currency: 'EUR',
        limit: 50,
      }),
    );
    expect(r.totalMatches).toBe(expected.length);
    expect(r.equivalents.map((e: Json) => [e.providerId, e.planName, e.normalizedPrice])).toEqual(
      expected.slice(0, 50).map((e: Json) => [e.providerId, e.planName, e.eur]),
    );
    for (const e of r.equivalents) {
      const raw = expected.find((x: Json) => x.providerId === e.providerId && x.planName === e.planName);
      expect(e.priceDifferencePercent).toBeCloseTo(((raw.eur - refEur) / refEur) * 100, 1);
      const lower = raw.bandwidthTb !== null && raw.bandwidthTb < ref.bandwidthTb ? ['bandwidthTb'] : [];
      expect([e.planName, e.lowerThanReference]).toEqual([e.planName, lower]);
      expect([e.planName, e.observedAt, e.stale]).toEqual([e.planName, raw.observedAt, raw.stale]);
    }
    expect(r.equivalents.some((e: Json) => e.lowerThanReference.includes('bandwidthTb'))).toBe(true); // the case this test is about
  });

  it('calls unmetered traffic unmetered, as find_vps_plans does: it meets any volume and is never "not comparable"', async () => {
    const r = data(
      await call('find_equivalent_plans', { providerId: 'digitalocean', planName: 'Basic 4 GB', limit: 50 }),
    );
    const unmetered = r.equivalents.filter((e: Json) => transferOf(rawPlan(e).bandwidth).unmetered);
    expect(unmetered.length).toBeGreaterThan(0); // Contabo's "Unmetered (fair use)", UpCloud's uncharged egress
    for (const e of unmetered) {
      expect([e.planName, e.unmetered, e.bandwidthTb, e.notComparable, e.lowerThanReference]).toEqual([
        e.planName,
        true,
        null,
        [],
        [],
      ]);
      const search = data(
        await call('find_vps_plans', {
          providers: [e.providerId],
          minRamGb: e.ramGb,
          minTransferTb: 1,
          limit: 50,
          responseFormat: 'detailed',
        }),
      );
      expect(search.plans.find((p: Json) => p.planName === e.planName)?.unmetered).toBe(true);
    }
    for (const e of r.equivalents.filter((x: Json) => !transferOf(rawPlan(x).bandwidth).unmetered)) {
      const tb = transferOf(rawPlan(e).bandwidth).bandwidthTb;
      expect([e.planName, e.unmetered, e.notComparable]).toEqual([
        e.planName,
        false,
        tb === null ? ['bandwidthTb'] : [],
      ]);
    }
  });

  it('lists the plans sold where asked at a price the dataset lacks by provider and line with the note, as find_vps_plans does', async () => {
    const args = { providerId: 'hetzner', planName: 'CX23', location: 'Singapore' };
    const r = data(await call('find_equivalent_plans', args));
    const ovh = r.priceUnknownAtLocation.find((u: Json) => u.providerId === 'ovhcloud');
    expect(ovh).toMatchObject({
      line: 'vps',
      datacenters: ['Singapore'],
      note: expect.stringMatching(/not in the dataset/),
    });
    expect(ovh.plans).toBeGreaterThan(0);
    expect(r.equivalents.some((e: Json) => e.providerId === 'ovhcloud')).toBe(false);
  });

  it.each([
    [{ providerId: 'hetzner', planName: 'CX23', vcpus: 8 }, /vcpus cannot be used with providerId and planName/],
    [{ providerId: 'hetzner', planName: 'CX23', cpuType: 'dedicated' }, /cpuType cannot be used with providerId/],
  ])('refuses a reference plan given with figures %j, naming the conflict', async (args, message) => {
    expect(errorText(await call('find_equivalent_plans', args))).toMatch(message);
  });

  it('takes figures instead of a plan', async () => {
    const r = data(await call('find_equivalent_plans', { vcpus: 8, ramGb: 32 }));
    const expected = rows.filter((x: Json) => x.m2m !== null && x.vcpus >= 8 && x.ramGb >= 32);
    expect(r.totalMatches).toBe(expected.length);
    expect(r.equivalents.every((e: Json) => e.priceDifferencePercent === undefined)).toBe(true);
  });

  it('answers a plan name of another provider with an isError naming its provider', async () => {
    expect(errorText(await call('find_equivalent_plans', { providerId: 'vultr', planName: 'Nanode 1 GB' }))).toContain(
      '"Nanode 1 GB" is a plan of linode',
    );
  });

  it('describes every valid value from the raw files', async () => {
    const r = data(await call('describe_filters'));
    expect(r.providers.map((p: Json) => [p.id, p.datacenters.map((d: Json) => d.city)])).toEqual(
      rawProviders.providers.map((p: Json) => [p.id, p.datacenters.map((d: Json) => d.city)]),
    );
    expect(r.currencies).toEqual(Object.keys(rates.rates).sort());
    // The answer converts prices into US dollars only (its price range); every rate is listed with its own day.
    expect(r.exchangeRatesDate).toBe(rates.rateDates.USD);
    expect(r.rateDates).toEqual(
      Object.fromEntries(
        Object.keys(rates.rates)
          .filter((code) => code !== rates.base)
          .sort()
          .map((code) => [code, rates.rateDates[code]]),
      ),
    );
    expect(r.useCaseSlugs).toEqual(rawUseCases.useCases.map((u: Json) => u.slug));
    expect(r.customerCountries.vatRates.map((v: Json) => [v.code, v.standardRate]).sort()).toEqual(
      Object.entries(vat)
        .map(([code, v]: [string, Json]) => [code, v.standardRate])
        .sort(),
    );
    const vcpus = rows.map((x: Json) => x.vcpus);
    expect(r.figureRanges.vcpus).toEqual({ min: Math.min(...vcpus), max: Math.max(...vcpus) });
    expect(r.datacenterCountries).toEqual(
      [...new Set(rawProviders.providers.flatMap((p: Json) => p.datacenters.map((d: Json) => d.country)))].sort(),
    );
    expect([r.architectures, r.backupFrequencies]).toEqual([
      ['x86_64', 'arm64'],
      ['daily', 'weekly'],
    ]);
  });

  it('describes data centres by city and country concisely by default, with regions and country names in detail', async () => {
    const concise = data(await call('describe_filters'));
    const detailed = data(await call('describe_filters', { responseFormat: 'detailed' }));
    expect(concise.providers.map((p: Json) => p.datacenters)).toEqual(
      rawProviders.providers.map((p: Json) => p.datacenters.map((d: Json) => ({ city: d.city, country: d.country }))),
    );
    expect(detailed.providers.map((p: Json) => p.datacenters)).toEqual(
      rawProviders.providers.map((p: Json) => p.datacenters),
    );
    expect(detailed.customerCountries.vatRates.map((v: Json) => [v.code, v.country]).sort()).toEqual(
      Object.entries(vat)
        .map(([code, v]: [string, Json]) => [code, v.country])
        .sort(),
    );
    expect(concise.customerCountries.vatRates.every((v: Json) => v.country === undefined)).toBe(true);
  });
});
