import type { AppConfig } from '../config/app-config';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot';
import { ExchangeRates } from '../dataset/exchange-rates';
import { buildPlanRows } from './plan-rows';

describe(buildPlanRows.name, () => {
  const plan = (name: string, cpu: string, ram: string, line: string, price = 5, extra: object = {}) => ({
    name,
    price,
    currency: 'USD',
    cpu,
    ram,
    storage: '25GB NVMe',
    bandwidth: '1TB',
    cpuType: 'shared' as const,
    line,
    observedAt: '2026-10-01',
    ...extra,
  });
  const source = { url: 'https://example.com', retrievedAt: '2026-11-26', method: 'provider-api' };
  const copy = {
    url: 'https://mirror.example/beta',
    retrievedAt: '2026-11-26',
    method: 'copy',
    copyOf: 'https://beta.example/pricing',
  };
  const line = (id: string, extra: object = {}) => ({
    id,
    name: id,
    priceBasis: 'hourly-capped',
    termMonths: null,
    promotional: false,
    setupFee: 0,
    priceList: 'x',
    complete: true,
    source,
    ...extra,
  });
  const snapshot = {
    version: '2026-11-26',
    asOf: '2026-11-26',
    providers: [
      {
        id: 'alpha',
        name: 'Alpha Cloud',
        url: '/providers/alpha',
        planLines: [line('std')],
        plans: [plan('a1', '1 vCPU', '1GB', 'std'), plan('a2', '2 vCPU', '4GB', 'std')],
      },
      {
        id: 'beta',
        name: 'Beta Hosting',
        url: '/providers/beta',
        planLines: [
          line('promo', {
            priceBasis: 'prepaid-term',
            termMonths: 24,
            promotional: true,
            monthToMonthSold: true,
            complete: false,
            notListed: 'more',
            source: copy,
          }),
          line('old', { discontinued: { since: '2026-06-01', successor: 'Promo', source } }),
          line('hit', {
            laterPriceChange: { date: '2026-10-15', note: 'Beta raised its prices on 2026-10-15', source },
          }),
        ],
        plans: [
          plan('b1', '4 vCPU', '8GB', 'promo', 4.99, {
            renewalPrice: 9.99,
            monthToMonthPrice: null,
            observedAt: '2026-08-01',
          }),
          plan('b2', '1 vCPU', '1GB', 'old'),
          plan('b3', '1 vCPU', '1GB', 'hit'),
        ],
      },
    ],
    exchangeRates: new ExchangeRates({
      date: '2026-02-05',
      base: 'EUR',
      source: 'ECB',
      sourceUrl: 'https://example.com',
      rates: { EUR: 1, USD: 1.25 },
    }),
    changelog: [
      {
        version: '2026-01-01',
        date: '2026-01-01',
        changes: {
          plansAdded: [{ providerId: 'alpha', planName: 'a2', price: 6 }],
          plansRemoved: [],
          plansRepriced: [{ providerId: 'alpha', planName: 'a2', oldPrice: 6, newPrice: 5 }],
        },
      },
    ],
  } as unknown as DatasetSnapshot;
  const config = { url: (path: string) => `https://vpsapi.test${path}` } as unknown as AppConfig;

  it('lists every plan of every provider in dataset order, with its provider, review URL and parsed figures', () => {
    const rows = buildPlanRows(snapshot, config);
    expect(rows.map((r) => [r.providerId, r.providerName, r.planName, r.reviewUrl])).toEqual([
      ['alpha', 'Alpha Cloud', 'a1', 'https://vpsapi.test/providers/alpha'],
      ['alpha', 'Alpha Cloud', 'a2', 'https://vpsapi.test/providers/alpha'],
      ['beta', 'Beta Hosting', 'b1', 'https://vpsapi.test/providers/beta'],
      ['beta', 'Beta Hosting', 'b2', 'https://vpsapi.test/providers/beta'],
      ['beta', 'Beta Hosting', 'b3', 'https://vpsapi.test/providers/beta'],
    ]);
    expect(rows[1]).toMatchObject({
      vcpus: 2,
      ramGb: 4,
      storageGb: 25,
      storageType: 'NVMe',
      bandwidthTb: 1,
      unmetered: false,
      cpu: '2 vCPU',
      ram: '4GB',
    });
  });

  it("prices each row from its line, converted to USD and EUR at the table's date", () => {
    const [a1, , b1] = buildPlanRows(snapshot, config);
    expect(a1).toMatchObject({
      priceBasis: 'hourly-capped',
      termMonths: null,
      monthToMonthPrice: 5,
      priceUsd: 5,
      priceEur: 4,
      monthToMonthPriceEur: 4,
      exchangeRatesDate: '2026-02-05',
      lineId: 'std',
      lineComplete: true,
    });
    expect(b1).toMatchObject({
      priceBasis: 'prepaid-term',
      termMonths: 24,
      promotional: true,
      renewalPrice: 9.99,
      monthToMonthPrice: null,
      monthToMonthPriceUsd: null,
      priceEur: 3.99,
      lineComplete: false,
    });
  });

  it('carries the age of each price to the day it is measured to (the snapshot asOf), its source, and whether its line is still sold', () => {
    const [a1, , b1, b2, b3] = buildPlanRows(snapshot, config);
    expect(a1).toMatchObject({
      observedAt: '2026-10-01',
      priceAgeDays: 56,
      stale: false,
      staleReason: null,
      priceSourceMethod: 'provider-api',
      priceSourceUrl: 'https://example.com',
      priceCopyOf: null,
      discontinued: false,
      successor: null,
    });
    expect(b1).toMatchObject({
      observedAt: '2026-08-01',
      priceAgeDays: 117,
      stale: true,
      priceSourceMethod: 'copy',
      priceSourceUrl: 'https://mirror.example/beta',
      priceCopyOf: 'https://beta.example/pricing',
    });
    expect(b1.staleReason).toContain('117 days');
    expect(b2).toMatchObject({ stale: false, discontinued: true, successor: 'Promo' });
    expect(b3).toMatchObject({ priceAgeDays: 56, stale: true });
    expect(b3.staleReason).toContain('Beta raised its prices on 2026-10-15');
  });

  it('carries the price history the changelog records for a plan, and none for a plan it never names', () => {
    const [a1, a2] = buildPlanRows(snapshot, config);
    expect(a2.priceHistory).toEqual([
      { version: '2026-01-01', price: 6 },
      { version: '2026-01-01', price: 5 },
    ]);
    expect(a1.priceHistory).toEqual([]);
  });
});
