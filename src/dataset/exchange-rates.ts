import type { ExchangeRatesRecord } from './dto/exchange-rates.dto.js';

/** Converts amounts between the currencies of a dated rate table. */
export class ExchangeRates {
  constructor(private readonly table: ExchangeRatesRecord) {}

  get date(): string {
    return this.table.date;
  }

  /** Where the rates were published. */
  get sourceUrl(): string {
    return this.table.sourceUrl;
  }

  /** Currencies the table can convert between, sorted. */
  get currencies(): string[] {
    return Object.keys(this.table.rates).sort();
  }

  has(currency: string): boolean {
    return Object.hasOwn(this.table.rates, currency);
  }

  /** `amount` in `from`, expressed in `to`, rounded to cents. Throws for a currency not in the table. */
  convert(amount: number, from: string, to: string): number {
    if (from === to) return amount;
    const [rateFrom, rateTo] = [this.rate(from), this.rate(to)];
    return Math.round((amount / rateFrom) * rateTo * 100) / 100;
  }

  private rate(currency: string): number {
    if (!this.has(currency)) throw new RangeError(`No exchange rate for ${currency}`);
    return this.table.rates[currency];
  }
}

/** Problems of a rate table beyond its DTO: codes, positive rates, base at 1, every billing currency present. */
export function checkExchangeRates(
  table: ExchangeRatesRecord,
  requiredCurrencies: Iterable<string>,
  file: string,
): string[] {
  const problems: string[] = [];
  for (const [code, rate] of Object.entries(table.rates)) {
    if (!/^[A-Z]{3}$/.test(code)) problems.push(`${file}: rates.${code}: must be keyed by an ISO 4217 code`);
    else if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0)
      problems.push(`${file}: rates.${code}: must be a positive number`);
  }
  if (table.rates[table.base] !== 1)
    problems.push(`${file}: rates.${table.base}: the base currency must have the rate 1`);
  for (const currency of new Set(requiredCurrencies)) {
    if (!Object.hasOwn(table.rates, currency))
      problems.push(`${file}: rates: must include ${currency}, a currency plans are billed or compared in`);
  }
  return problems;
}
