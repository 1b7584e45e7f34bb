import { checkExchangeRates, ExchangeRates } from './exchange-rates';

const table = {
  date: '2026-02-05',
  base: 'EUR',
  source: 'test',
  sourceUrl: 'https://example.test',
  rates: { EUR: 1, USD: 1.2, GBP: 0.8, JPY: 160 },
};

describe(ExchangeRates.name, () => {
  const rates = new ExchangeRates(table);

  it('converts through the base currency and rounds to cents', () => {
    expect(rates.convert(10, 'EUR', 'USD')).toBe(12);
    expect(rates.convert(12, 'USD', 'EUR')).toBe(10);
    expect(rates.convert(6, 'USD', 'GBP')).toBe(4);
    expect(rates.convert(3.49, 'EUR', 'JPY')).toBe(558.4);
    expect(rates.convert(1, 'USD', 'EUR')).toBe(0.83);
  });

  it('returns the amount unchanged within one currency', () => {
    expect(rates.convert(4.99, 'USD', 'USD')).toBe(4.99);
  });

  it('refuses a currency it has no rate for', () => {
    expect(() => rates.convert(1, 'USD', 'XYZ')).toThrow('No exchange rate for XYZ');
    expect(rates.has('XYZ')).toBe(false);
  });

  it('lists its currencies and date', () => {
    expect(rates.currencies).toEqual(['EUR', 'GBP', 'JPY', 'USD']);
    expect(rates.date).toBe('2026-02-05');
  });
});

describe('ExchangeRates with rates of different days', () => {
  const mixed = new ExchangeRates({
    ...table,
    rates: { ...table.rates, AUD: 1.7 },
    rateDates: { USD: '2026-09-28', GBP: '2026-02-05', JPY: '2026-02-05', AUD: '2026-02-05' },
    rateSources: { USD: { url: 'https://copy.example/fx.json', copyOf: 'https://rates.example/latest' } },
  });

  it('dates a conversion between the dollar and the euro by the dollar alone', () => {
    expect(mixed.dateUsedBy([['USD', 'EUR']])).toBe('2026-09-28');
    expect(mixed.dateUsedBy([['EUR', 'USD']])).toBe('2026-09-28');
  });

  it('dates a conversion into another currency by the oldest rate it uses', () => {
    expect(mixed.dateUsedBy([['USD', 'AUD']])).toBe('2026-02-05');
    expect(mixed.dateUsedBy([['EUR', 'AUD']])).toBe('2026-02-05');
    expect(
      mixed.dateUsedBy([
        ['EUR', 'USD'],
        ['USD', 'GBP'],
      ]),
    ).toBe('2026-02-05');
  });

  it('gives the newest day when nothing is converted', () => {
    expect(mixed.dateUsedBy([['USD', 'USD']])).toBe('2026-09-28');
    expect(mixed.dateUsedBy([])).toBe('2026-09-28');
  });

  it('lists each rate with its day, and a table without days dates every rate with its date', () => {
    expect(mixed.rateDates).toEqual({ AUD: '2026-02-05', GBP: '2026-02-05', JPY: '2026-02-05', USD: '2026-09-28' });
    expect(new ExchangeRates(table).rateDates).toEqual({ GBP: '2026-02-05', JPY: '2026-02-05', USD: '2026-02-05' });
  });

  it("names where each rate a conversion uses was read: the copy for a copied rate, the table's source for the rest", () => {
    expect(mixed.sourcesUsedBy([['EUR', 'USD']])).toEqual([
      { url: 'https://copy.example/fx.json', copyOf: 'https://rates.example/latest', date: '2026-09-28' },
    ]);
    expect(mixed.sourcesUsedBy([['USD', 'AUD']])).toEqual([
      { url: 'https://copy.example/fx.json', copyOf: 'https://rates.example/latest', date: '2026-09-28' },
      { url: 'https://example.test', date: '2026-02-05' },
    ]);
  });
});

describe('checkExchangeRates', () => {
  it('accepts a complete table', () => {
    expect(checkExchangeRates(table, ['USD', 'EUR'], 'x.json')).toEqual([]);
  });

  it('names a missing billing currency, a bad rate, a bad code and a base that is not 1', () => {
    expect(
      checkExchangeRates(
        { ...table, rates: { EUR: 1.1, USD: -2, usd: 1 } },
        ['USD', 'CHF'],
        'data/exchange-rates.json',
      ),
    ).toEqual([
      'data/exchange-rates.json: rates.USD: must be a positive number',
      'data/exchange-rates.json: rates.usd: must be keyed by an ISO 4217 code',
      'data/exchange-rates.json: rates.EUR: the base currency must have the rate 1',
      'data/exchange-rates.json: rates: must include CHF, a currency plans are billed or compared in',
    ]);
  });
});
