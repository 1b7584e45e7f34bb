import type { PlanLine } from './dto/plan-line.dto.js';
import type { PlanRecord } from './dto/plan.dto.js';
import { priceBasisCell, pricedPlan, pricedPlans, priceTermsText } from './plan-pricing.js';

const source = { url: 'https://example.com/prices', retrievedAt: '2026-11-26', method: 'editorial' as const };
const VERSION = '2026-11-26';
const record = (extra: Partial<PlanRecord> = {}): PlanRecord =>
  ({
    name: 'S',
    price: 5,
    currency: 'USD',
    cpu: '1 vCPU',
    ram: '1GB',
    storage: '25GB NVMe',
    bandwidth: '1TB',
    cpuType: 'shared',
    line: 'std',
    observedAt: '2026-11-20',
    ...extra,
  }) as PlanRecord;
const line = (extra: Partial<PlanLine> = {}): PlanLine =>
  ({
    id: 'std',
    name: 'Standard',
    priceBasis: 'hourly-capped',
    termMonths: null,
    promotional: false,
    setupFee: 0,
    priceList: 'list',
    complete: true,
    source,
    ...extra,
  }) as PlanLine;
const prepaid = (extra: Partial<PlanLine> = {}) => line({ priceBasis: 'prepaid-term', termMonths: 24, ...extra });
const money = (n: number) => `$${n.toFixed(2)}`;

describe(pricedPlan.name, () => {
  it('prices a no-commitment plan month to month at its own price, for each such basis', () => {
    for (const priceBasis of ['hourly-capped', 'per-second-capped', 'monthly'] as const) {
      expect(pricedPlan(record(), line({ priceBasis }), VERSION)).toEqual({
        ...record(),
        priceBasis,
        termMonths: null,
        promotional: false,
        renewalPrice: null,
        monthToMonthPrice: 5,
        setupFee: 0,
        unconfirmed: [],
        observedAt: '2026-11-20',
        priceAgeDays: 6,
        stale: false,
        staleReason: null,
        source,
        discontinued: false,
        successor: null,
        orderable: 'unknown',
        orderableObservedAt: null,
        orderableSourceUrl: null,
      });
    }
  });

  it('ignores a month-to-month figure written on a no-commitment plan', () => {
    expect(pricedPlan(record({ monthToMonthPrice: 9 }), line(), VERSION).monthToMonthPrice).toBe(5);
  });

  it('takes a prepaid plan’s month-to-month price from the plan, null and unconfirmed when unknown', () => {
    expect(pricedPlan(record({ monthToMonthPrice: 8 }), prepaid({ monthToMonthSold: true }), VERSION)).toMatchObject({
      monthToMonthPrice: 8,
      termMonths: 24,
      unconfirmed: [],
    });
    expect(pricedPlan(record({ monthToMonthPrice: null }), prepaid({ monthToMonthSold: true }), VERSION)).toMatchObject(
      { monthToMonthPrice: null, unconfirmed: ['monthToMonthPrice'] },
    );
    expect(pricedPlan(record(), prepaid(), VERSION)).toMatchObject({
      monthToMonthPrice: null,
      unconfirmed: ['monthToMonthPrice'],
    });
  });

  it('prices a prepaid plan not sold month to month at null, and confirmed', () => {
    expect(pricedPlan(record({ monthToMonthPrice: 8 }), prepaid({ monthToMonthSold: false }), VERSION)).toMatchObject({
      monthToMonthPrice: null,
      unconfirmed: [],
    });
  });

  it('gives a promotional plan its renewal price, null and unconfirmed when unknown, and no other plan one', () => {
    expect(pricedPlan(record({ renewalPrice: 9 }), line({ promotional: true }), VERSION)).toMatchObject({
      promotional: true,
      renewalPrice: 9,
      unconfirmed: [],
    });
    expect(pricedPlan(record({ renewalPrice: null }), line({ promotional: true }), VERSION)).toMatchObject({
      renewalPrice: null,
      unconfirmed: ['renewalPrice'],
    });
    expect(pricedPlan(record(), line({ promotional: true }), VERSION)).toMatchObject({
      renewalPrice: null,
      unconfirmed: ['renewalPrice'],
    });
    expect(pricedPlan(record({ renewalPrice: 9 }), line(), VERSION)).toMatchObject({
      renewalPrice: null,
      unconfirmed: [],
    });
  });

  it('carries the line’s setup fee, unconfirmed when unknown, listing every unknown in order', () => {
    expect(pricedPlan(record(), line({ setupFee: 10 }), VERSION).setupFee).toBe(10);
    expect(pricedPlan(record(), prepaid({ promotional: true, setupFee: null }), VERSION)).toMatchObject({
      setupFee: null,
      unconfirmed: ['monthToMonthPrice', 'renewalPrice', 'setupFee'],
    });
  });
});

describe(pricedPlans.name, () => {
  it('prices each plan by its own line, in plan order', () => {
    const provider = {
      planLines: [line(), prepaid({ id: 'term', monthToMonthSold: false })],
      plans: [record({ name: 'A', line: 'term' }), record({ name: 'B' })],
    };
    expect(pricedPlans(provider, VERSION).map((p) => [p.name, p.priceBasis, p.monthToMonthPrice])).toEqual([
      ['A', 'prepaid-term', null],
      ['B', 'hourly-capped', 5],
    ]);
  });
});

describe(priceTermsText.name, () => {
  const plan = (extra: object = {}) => ({
    priceBasis: 'prepaid-term' as const,
    termMonths: 12,
    promotional: false,
    renewalPrice: null,
    monthToMonthPrice: null,
    ...extra,
  });

  it('says how each no-commitment basis is billed', () => {
    expect(priceTermsText(plan({ priceBasis: 'hourly-capped' }), money)).toBe(
      'billed by the hour, never more than this a month, no commitment',
    );
    expect(priceTermsText(plan({ priceBasis: 'per-second-capped' }), money)).toBe(
      'billed by the second, never more than this a month, no commitment',
    );
    expect(priceTermsText(plan({ priceBasis: 'monthly' }), money)).toBe('a monthly subscription, no commitment');
  });

  it('gives a prepaid term its length, then its renewal and month-to-month prices when there are any', () => {
    expect(priceTermsText(plan(), money)).toBe('the monthly equivalent of 12 months paid up front');
    expect(priceTermsText(plan({ renewalPrice: 9 }), money)).toBe('the monthly equivalent of 12 months paid up front');
    expect(priceTermsText(plan({ promotional: true }), money)).toBe(
      'the monthly equivalent of 12 months paid up front; an introductory rate whose renewal price we could not confirm',
    );
    expect(priceTermsText(plan({ promotional: true, renewalPrice: 9, monthToMonthPrice: 11 }), money)).toBe(
      'the monthly equivalent of 12 months paid up front; an introductory rate that renews at $9.00 a month; $11.00 month to month',
    );
    expect(priceTermsText(plan({ monthToMonthPrice: 0 }), money)).toBe(
      'the monthly equivalent of 12 months paid up front; $0.00 month to month',
    );
  });
});

describe(priceBasisCell.name, () => {
  it('names each basis in a few words, and says when the price is promotional', () => {
    const cell = (priceBasis: PlanLine['priceBasis'], promotional = false) =>
      priceBasisCell({ priceBasis, termMonths: 36, promotional });
    expect([cell('hourly-capped'), cell('per-second-capped'), cell('monthly'), cell('prepaid-term')]).toEqual([
      'hourly, capped',
      'per second, capped',
      'monthly',
      '36-month prepaid',
    ]);
    expect(cell('prepaid-term', true)).toBe('36-month prepaid, promotional');
    expect(cell('monthly', true)).toBe('monthly, promotional');
  });
});

describe('price age', () => {
  it('ages a price to the release and calls it stale past 90 days, saying why', () => {
    expect(pricedPlan(record({ observedAt: '2026-08-28' }), line(), VERSION)).toMatchObject({
      priceAgeDays: 90,
      stale: false,
      staleReason: null,
    });
    const old = pricedPlan(record({ observedAt: '2026-08-27' }), line(), VERSION);
    expect(old).toMatchObject({ priceAgeDays: 91, stale: true });
    expect(old.staleReason).toContain(`2026-08-27, 91 days before ${VERSION}`);
  });

  it('calls a fresh price stale when a later price change of its line is reported, naming the report', () => {
    const reported = line({
      laterPriceChange: {
        date: '2026-11-22',
        note: 'the provider raised its prices on 2026-11-22',
        source: { url: 'https://example.com/news', retrievedAt: '2026-11-25' },
      },
    });
    const plan = pricedPlan(record({ observedAt: '2026-11-20' }), reported, VERSION);
    expect(plan).toMatchObject({ priceAgeDays: 6, stale: true });
    expect(plan.staleReason).toBe(
      'price seen 2026-11-20; the provider raised its prices on 2026-11-22 (https://example.com/news)',
    );
    // A price seen on or after the change is the new price: not stale for that reason.
    expect(pricedPlan(record({ observedAt: '2026-11-22' }), reported, VERSION).stale).toBe(false);
  });

  it('serves a plan of a discontinued line flagged, with its successor', () => {
    const gone = line({ discontinued: { since: '2026-03-01', successor: 'Premium plans', source } });
    expect(pricedPlan(record(), gone, VERSION)).toMatchObject({ discontinued: true, successor: 'Premium plans' });
    expect(pricedPlan(record(), line(), VERSION)).toMatchObject({ discontinued: false, successor: null });
  });
});
