import { IsISO4217CurrencyCode, IsNotEmpty, IsObject, IsString, IsUrl } from 'class-validator';
import { IsCalendarDate } from './validators.js';

/** A dated table of reference exchange rates, as written in `exchange-rates.json`. */
export class ExchangeRatesRecord {
  /** Day the rates were published. */
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
}
