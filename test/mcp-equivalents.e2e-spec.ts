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
    expect(r.exchangeRatesDate).toBe(rates.date);
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
  });
});
