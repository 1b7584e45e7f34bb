import type { ProviderRecord } from './dto/provider.dto.js';
import { ExchangeRates } from './exchange-rates.js';
import {
  checkBestBudgetNotWritten,
  checkPlanLines,
  checkRating,
  cheapestNoCommitmentProvider,
  generatedGuideUpdated,
  quotedFiguresDate,
  recordSources,
  subjectFigures,
  weightedRating,
} from './provider-rules.js';

/** The provider rules called directly on small records (the validator's spec covers them through whole datasets). */
const source = (retrievedAt: string) => ({ url: 'https://example.com', retrievedAt });
const line = (id: string, extra: object = {}) => ({
  id,
  name: id,
  priceBasis: 'hourly-capped',
  termMonths: null,
  promotional: false,
  setupFee: 0,
  priceList: 'x',
  complete: true,
  source: source('2026-01-01'),
  ...extra,
});
const plan = (name: string, price: number, lineId = 'std', extra: object = {}) => ({
  name,
  price,
  currency: 'USD',
  line: lineId,
  ...extra,
});
const provider = (id: string, extra: object = {}) =>
  ({
    id,
    currency: 'USD',
    planLines: [line('std')],
    plans: [plan('S', 5)],
    sources: [source('2026-01-01')],
    rating: 4,
    ratings: { performance: 4, value: 4, support: 4, easeOfUse: 4, features: 4 },
    ...extra,
  }) as unknown as ProviderRecord;
const weights = { performance: 0.25, value: 0.3, support: 0.15, easeOfUse: 0.15, features: 0.15 };

describe('provider rules', () => {
  it('weights each sub-score by its own weight', () => {
    expect(weightedRating({ performance: 1, value: 0, support: 0, easeOfUse: 0, features: 0 }, weights)).toBe(0.25);
    expect(weightedRating({ performance: 0, value: 2, support: 0, easeOfUse: 0, features: 0 }, weights)).toBeCloseTo(
      0.6,
      12,
    );
  });

  it('refuses a rating more than 0.05 from the mean, on either side, with the mean in the message', () => {
    expect(checkRating(provider('a', { rating: 4.1 }), weights, 'at')).toEqual([
      "at.rating: must be the weighted mean of the sub-scores with meta.json's ratingWeights, 4.00 (within 0.05)",
    ]);
    expect(checkRating(provider('a', { rating: 3.9 }), weights, 'at')).toHaveLength(1);
    expect(checkRating(provider('a', { rating: 4 }), weights, 'at')).toEqual([]);
  });

  it('checks each line and plan, and names them by position', () => {
    const p = provider('a', {
      planLines: [
        line('std'),
        line('std'),
        line('term', { priceBasis: 'prepaid-term', termMonths: null }),
        line('odd', { termMonths: 3, monthToMonthSold: true, complete: false }),
      ],
      plans: [plan('S', 5), plan('T', 5, 'term', { monthToMonthPrice: 4 }), plan('X', 5, 'gone')],
    });
    expect(checkPlanLines(p, 'at')).toEqual([
      'at.planLines[1].id: duplicates planLines[0] ("std")',
      'at.planLines[2].termMonths: a prepaid-term line must say how many months the price needs',
      'at.planLines[3].termMonths: must be null unless priceBasis is prepaid-term',
      'at.planLines[3].monthToMonthSold: only a prepaid-term line can say whether it is also sold month to month',
      'at.planLines[3]: no plan belongs to the line "odd"',
      'at.planLines[3].notListed: an incomplete line must say what the dataset leaves out',
      'at.plans[1] (T).monthToMonthPrice: must not be below the headline price (5)',
      'at.plans[2] (X).line: names no plan line of a ("gone"); lines: std, term, odd',
    ]);
  });

  it('asks a promotional line for renewal prices and a prepaid line sold month to month for that price', () => {
    const p = provider('a', {
      planLines: [
        line('promo', { promotional: true }),
        line('term', { priceBasis: 'prepaid-term', termMonths: 12, monthToMonthSold: true }),
      ],
      plans: [
        plan('P', 5, 'promo'),
        plan('Q', 5, 'promo', { renewalPrice: 4 }),
        plan('T', 5, 'term'),
        plan('U', 5, 'term', { monthToMonthPrice: null, renewalPrice: 6 }),
      ],
    });
    expect(checkPlanLines(p, 'at')).toEqual([
      'at.plans[0] (P).renewalPrice: a promotional price needs its renewal price (null only when it could not be confirmed)',
      'at.plans[1] (Q).renewalPrice: must not be below the headline price (5)',
      'at.plans[2] (T).monthToMonthPrice: a prepaid plan also sold month to month needs that price (null only when it could not be confirmed)',
      'at.plans[3] (U).renewalPrice: only plans of a promotional line have a renewal price',
    ]);
  });

  it('accepts a rating exactly 0.05 from the mean where floating point puts the mean a hair further', () => {
    const ratings = { performance: 4.2, value: 4.2, support: 3.7, easeOfUse: 3.7, features: 4.2 }; // mean 4.050000000000001
    expect(checkRating(provider('a', { ratings }), weights, 'at')).toEqual([]);
  });

  it('refuses a month-to-month price where none is sold separately, and accepts prices equal to the headline', () => {
    const p = provider('a', {
      planLines: [
        line('std'),
        line('term', { priceBasis: 'prepaid-term', termMonths: 12, monthToMonthSold: false }),
        line('promo', { priceBasis: 'prepaid-term', termMonths: 12, promotional: true }),
      ],
      plans: [
        plan('S', 5, 'std', { monthToMonthPrice: 6 }),
        plan('T', 5, 'term', { monthToMonthPrice: 6 }),
        plan('P', 5, 'promo', { renewalPrice: 5, monthToMonthPrice: 5 }),
      ],
    });
    expect(checkPlanLines(p, 'at')).toEqual([
      'at.plans[0] (S).monthToMonthPrice: only plans of a prepaid-term line sold month to month carry a separate month-to-month price',
      'at.plans[1] (T).monthToMonthPrice: only plans of a prepaid-term line sold month to month carry a separate month-to-month price',
    ]);
  });

  it('picks the provider whose cheapest no-commitment plan costs least in USD, ties by id', () => {
    const rates = new ExchangeRates({
      date: '2026-01-01',
      base: 'EUR',
      source: 'ECB',
      sourceUrl: 'https://example.com',
      rates: { EUR: 1, USD: 2 },
    });
    const eur = provider('eur', { currency: 'EUR', plans: [plan('E', 3, 'std', { currency: 'EUR' })] }); // 6 USD
    const usd = provider('usd', { plans: [plan('B', 9), plan('A', 5)] });
    const term = provider('term', {
      planLines: [line('t', { priceBasis: 'prepaid-term', termMonths: 12, monthToMonthSold: false })],
      plans: [plan('T', 1, 't')],
    });
    expect(cheapestNoCommitmentProvider([eur, usd, term], rates)).toBe('usd');
    expect(cheapestNoCommitmentProvider([provider('b'), provider('a')], rates)).toBe('a');
    expect(cheapestNoCommitmentProvider([term], rates)).toBeUndefined();
  });

  it('refuses a bestBudget written by hand', () => {
    expect(checkBestBudgetNotWritten({ bestOverall: 'a' }, 'f')).toEqual([]);
    expect(checkBestBudgetNotWritten({ bestBudget: 'a' }, 'f')).toEqual([
      'f: recommendations.bestBudget: remove it; it is derived when the dataset loads (the provider with the cheapest plan sold without commitment, in USD)',
    ]);
  });

  describe('the date of the figures a guide quotes', () => {
    const src = (url: string, retrievedAt: string) => ({ url, retrievedAt });
    // A provider whose price page was read in March, its support page in May and its add-on page in June.
    const a = provider('a', {
      currency: 'EUR',
      planLines: [
        line('std', { source: src('https://a/prices', '2026-03-01') }),
        line('old', {
          source: src('https://a/old', '2026-01-05'),
          discontinued: { since: null, successor: 'std', source: src('https://a/news', '2026-02-01') },
        }),
      ],
      plans: [plan('S', 5), plan('O', 4, 'old')],
      sources: [
        src('https://a/prices', '2026-03-01'),
        src('https://a/support', '2026-05-01'),
        src('https://a/backups', '2026-06-01'),
      ],
      addOns: { backups: { source: src('https://a/backups', '2026-06-01') } },
      tax: { sources: [] },
    });
    const b = provider('b', { addOns: {}, tax: { sources: [] } });
    const byId = new Map([a, b].map((p) => [p.id, p]));
    const quote = (facts: Record<string, any[]>, convertsPrices = false) => ({
      providers: new Map(Object.entries(facts)),
      convertsPrices,
    });

    it('dates plans by their lines and the news of a discontinued line, record facts by the pages no line, add-on or tax cites', () => {
      expect(recordSources(a).map((s) => s.url)).toEqual(['https://a/support']);
      expect(quotedFiguresDate(quote({ a: ['plans'] }), byId, '2026-01-02')).toBe('2026-03-01');
      expect(quotedFiguresDate(quote({ a: ['support'] }), byId, '2026-01-02')).toBe('2026-05-01');
      // The add-on page (June) dates no fact a guide quotes.
      expect(quotedFiguresDate(quote({ a: ['plans', 'support', 'datacenters', 'features'] }), byId, '2026-01-02')).toBe(
        '2026-05-01',
      );
      expect(quotedFiguresDate(quote({ b: ['plans'] }, true), byId, '2026-07-01')).toBe('2026-07-01');
      expect(quotedFiguresDate(quote({}), byId, '2026-07-01')).toBeUndefined();
    });

    it('never dates a guide before it was published', () => {
      expect(generatedGuideUpdated('2026-04-01', '2026-03-01')).toBe('2026-04-01');
      expect(generatedGuideUpdated('2026-02-01', '2026-03-01')).toBe('2026-03-01');
      expect(generatedGuideUpdated('2026-02-01', undefined)).toBe('2026-02-01');
    });

    it('reads what a review, an alternatives guide or a comparison is about from its slug, and nothing for a best-of list', () => {
      expect(subjectFigures('review', 'a-review', byId)).toEqual(
        quote({ a: ['listedPlans', 'support', 'datacenters', 'features'] }, true),
      );
      expect(subjectFigures('comparison', 'a-vs-b', byId)).toEqual(
        quote(
          { a: ['plans', 'support', 'datacenters', 'features'], b: ['plans', 'support', 'datacenters', 'features'] },
          true,
        ),
      );
      expect(subjectFigures('alternatives', 'b-alternatives', byId)).toEqual(
        quote({ b: ['plans', 'datacenters', 'features'] }, false),
      );
      expect(subjectFigures('comparison', 'a-vs-nobody', byId)).toBeUndefined();
      expect(subjectFigures('best-of', 'best-a', byId)).toBeUndefined();
    });
  });
});
