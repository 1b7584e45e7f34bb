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
