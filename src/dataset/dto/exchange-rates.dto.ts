import { IsISO4217CurrencyCode, IsNotEmpty, IsObject, IsOptional, IsString, IsUrl } from 'class-validator';
import { IsCalendarDate } from './validators.js';

/** Where one rate was read when that is not `sourceUrl`: a public copy, and the address it copies. */
export interface RateSource {
  /** The public copy the rate was read from (a repository file at a fixed commit). */
  url: string;
  /** The address whose answer the copy holds (a service that republishes the ECB's rates). */
  copyOf: string;
}

/** A dated table of reference exchange rates, as written in `exchange-rates.json`. */
export class ExchangeRatesRecord {
  /** Day of the oldest rate in the table (the day of every rate when `rateDates` is absent). */
  @IsCalendarDate()
  date: string;

  /** Currency the rates are quoted against (1 unit of base = rate units of each currency). */
  @IsISO4217CurrencyCode()
  base: string;

  /** Publisher of the rates. */
  @IsString()
  @IsNotEmpty()
  source: string;

  @IsUrl({ require_protocol: true })
  sourceUrl: string;

  /** Units of each currency per one unit of `base`; includes `base` itself at 1. */
  @IsObject()
  rates: Record<string, number>;

  /**
   * The day each rate (every currency but `base`) was published: rates read on different days keep
   * their own day, and `date` is the oldest of them.
   */
  @IsOptional()
  @IsObject()
  rateDates?: Record<string, string>;

  /** Rates read somewhere other than `sourceUrl` (a dated copy of one rate), by currency. */
  @IsOptional()
  @IsObject()
  rateSources?: Record<string, RateSource>;
}
