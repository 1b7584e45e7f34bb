import { isCalendarDate } from './dto/validators.js';
import type { ExchangeRatesRecord } from './dto/exchange-rates.dto.js';

/** A conversion an answer makes: from one currency to another. */
export type Conversion = readonly [from: string, to: string];

/** Converts amounts between the currencies of a rate table whose rates may each have their own day. */
export class ExchangeRates {
  /** The day of each rate, by currency (every currency but the base, which needs none), sorted by code. */
  readonly rateDates: Readonly<Record<string, string>>;

  constructor(private readonly table: ExchangeRatesRecord) {
    // Once per table (a dataset version): answers look the days up per conversion.
    this.rateDates = Object.fromEntries(
      this.currencies.filter((c) => c !== table.base).map((c) => [c, table.rateDates?.[c] ?? table.date]),
    );
  }

  /** Day of the oldest rate in the table. */
  get date(): string {
    return this.table.date;
  }

  /** Day of the newest rate in the table. */
  get latestDate(): string {
    return Object.values(this.rateDates).reduce((newest, day) => (day > newest ? day : newest), this.table.date);
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

  /**
   * The day of the oldest rate the conversions use (a conversion within one currency uses none; one
   * from or to the base uses the other currency's rate). When they use none, the newest day of the table.
   */
  dateUsedBy(conversions: Iterable<Conversion>): string {
    let oldest: string | undefined;
    for (const currency of this.ratesUsedBy(conversions)) {
      const day = this.rateDates[currency];
      if (oldest === undefined || day < oldest) oldest = day;
    }
    return oldest ?? this.latestDate;
  }

  /** Where the rates the conversions use were read, one entry per distinct source, with the day of its oldest rate. */
  sourcesUsedBy(conversions: Iterable<Conversion>): { url: string; copyOf?: string; date: string }[] {
    const bySource = new Map<string, { url: string; copyOf?: string; date: string }>();
    for (const currency of this.ratesUsedBy(conversions)) {
      const source = this.table.rateSources?.[currency] ?? { url: this.sourceUrl };
      const day = this.rateDates[currency];
      const known = bySource.get(source.url);
      if (!known || day < known.date) bySource.set(source.url, { ...source, date: day });
    }
    return [...bySource.values()];
  }

  /** `amount` in `from`, expressed in `to`, rounded to cents. Throws for a currency not in the table. */
  convert(amount: number, from: string, to: string): number {
    if (from === to) return amount;
    const [rateFrom, rateTo] = [this.rate(from), this.rate(to)];
    return Math.round((amount / rateFrom) * rateTo * 100) / 100;
  }

  private ratesUsedBy(conversions: Iterable<Conversion>): Set<string> {
    const used = new Set<string>();
    for (const [from, to] of conversions) {
      if (from === to) continue;
      for (const currency of [from, to]) if (currency !== this.table.base) used.add(currency);
    }
    return used;
  }

  private rate(currency: string): number {
    if (!this.has(currency)) throw new RangeError(`No exchange rate for ${currency}`);
    return this.table.rates[currency];
  }
}

/**
 * Problems of a rate table beyond its DTO: codes, positive rates, base at 1, every billing currency
 * present, a day for every rate with `date` the oldest, and a copy's address for every rate read elsewhere.
 */
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
  if (table.rateDates !== undefined) {
    const quoted = Object.keys(table.rates).filter((c) => c !== table.base);
    for (const code of quoted)
      if (!isCalendarDate(table.rateDates[code]))
        problems.push(`${file}: rateDates.${code}: must give the day of the rate, YYYY-MM-DD`);
    for (const code of Object.keys(table.rateDates))
      if (!quoted.includes(code)) problems.push(`${file}: rateDates.${code}: no rate of that currency to date`);
    const days = quoted.map((c) => table.rateDates![c]).filter(isCalendarDate);
    const oldest = days.reduce((min, day) => (day < min ? day : min), days[0] ?? table.date);
    if (days.length === quoted.length && oldest !== table.date)
      problems.push(`${file}: date: must be the oldest of rateDates (${oldest})`);
  }
  for (const [code, source] of Object.entries(table.rateSources ?? {})) {
    if (!Object.hasOwn(table.rates, code) || code === table.base)
      problems.push(`${file}: rateSources.${code}: no rate of that currency to source`);
    else if (!/^https:\/\/\S+$/.test(source?.url ?? '') || !/^https:\/\/\S+$/.test(source?.copyOf ?? ''))
      problems.push(
        `${file}: rateSources.${code}: needs the copy's https url and the https address it copies (copyOf)`,
      );
    else if (table.rateDates?.[code] === undefined)
      problems.push(`${file}: rateSources.${code}: a rate read from a copy needs its own day in rateDates`);
  }
  return problems;
}
