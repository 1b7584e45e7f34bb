import { ApiProperty } from '@nestjs/swagger';
import { CPU_TYPES, type CpuType } from '../../dataset/dto/plan.dto.js';
import { PRICE_BASES, type PriceBasis } from '../../dataset/dto/plan-line.dto.js';
import { SOURCE_METHODS, type SourceMethod } from '../../dataset/dto/source.dto.js';
import { PricePoint } from './price-point.dto.js';

export const STORAGE_TYPES = ['NVMe', 'SSD', 'HDD'] as const;

/**
 * One plan of one provider as a flat row: the contract's text fields, the figures parsed from them,
 * how the price is paid, and the prices converted to USD and EUR. Every field is always present;
 * null means "not applicable or could not be read", never "missing".
 */
export class PlanTableRow {
  /** Stable provider id, e.g. `hetzner`. */
  @ApiProperty({ example: 'hetzner' })
  providerId: string;

  /** Provider brand name. */
  providerName: string;

  /** Plan name as sold by the provider. */
  @ApiProperty({ example: 'CX23' })
  planName: string;

  /** vCPU allocation as published, e.g. "2 vCPU". */
  cpu: string;

  /** Memory as published, e.g. "4GB". */
  ram: string;

  /** Disk as published, e.g. "40GB NVMe". */
  storage: string;

  /** Monthly transfer as published, e.g. "20TB" or "Unmetered (fair use)". */
  bandwidth: string;

  /** vCPUs parsed from `cpu`; null when it cannot be read. */
  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, example: 2 })
  vcpus: number | null;

  /** Memory in GB parsed from `ram` (512MB is 0.5); null when it cannot be read. */
  @ApiProperty({ type: 'number', nullable: true, example: 4 })
  ramGb: number | null;

  /** Disk in GB parsed from `storage`; null when it cannot be read. */
  @ApiProperty({ type: 'number', nullable: true, example: 40 })
  storageGb: number | null;

  /** Disk technology parsed from `storage`; null when it names none. */
  @ApiProperty({ type: 'string', enum: STORAGE_TYPES, nullable: true })
  storageType: (typeof STORAGE_TYPES)[number] | null;

  /** Included monthly transfer in TB parsed from `bandwidth`; null when unmetered or not stated as a volume. */
  @ApiProperty({ type: 'number', nullable: true, example: 20 })
  bandwidthTb: number | null;

  /** True when the provider does not meter traffic. */
  unmetered: boolean;

  /** Whether the vCPUs are shared with other tenants or dedicated. */
  @ApiProperty({ enum: CPU_TYPES })
  cpuType: CpuType;

  /** Headline monthly price excluding VAT, in `currency`, paid as `priceBasis` says. */
  @ApiProperty({ example: 3.49 })
  price: number;

  /** ISO 4217 code the plan is billed in. */
  @ApiProperty({ pattern: '^[A-Z]{3}$', example: 'EUR' })
  currency: string;

  /** How `price` is paid: by the hour or second up to a monthly cap, monthly, or as a prepaid term. */
  @ApiProperty({ enum: PRICE_BASES })
  priceBasis: PriceBasis;

  /** Months of the prepaid term `price` needs; null when there is none. */
  @ApiProperty({ type: 'integer', nullable: true, example: null })
  termMonths: number | null;

  /** True when `price` is an introductory rate that renews at `renewalPrice`. */
  promotional: boolean;

  /** Monthly price after the promotional term, in `currency`; null when not promotional or not confirmed. */
  @ApiProperty({ type: 'number', nullable: true, example: null })
  renewalPrice: number | null;

  /** Monthly price with no commitment, in `currency`; null when not sold month to month or not confirmed. */
  @ApiProperty({ type: 'number', nullable: true, example: 3.49 })
  monthToMonthPrice: number | null;

  /** `price` in US dollars at the dataset's exchange rates, to the cent. */
  @ApiProperty({ example: 4.12 })
  priceUsd: number;

  /** `price` in euros at the dataset's exchange rates, to the cent. */
  @ApiProperty({ example: 3.49 })
  priceEur: number;

  /** `monthToMonthPrice` in US dollars; null when there is no such price. */
  @ApiProperty({ type: 'number', nullable: true, example: 4.12 })
  monthToMonthPriceUsd: number | null;

  /** `monthToMonthPrice` in euros; null when there is no such price. */
  @ApiProperty({ type: 'number', nullable: true, example: 3.49 })
  monthToMonthPriceEur: number | null;

  /** Day of the oldest exchange rate the row's converted prices use (each rate has its own day). */
  @ApiProperty({ format: 'date', example: '2026-09-28' })
  exchangeRatesDate: string;

  /** Id of the provider's plan line the plan belongs to (see the provider's `planLines`). */
  @ApiProperty({ example: 'cx' })
  lineId: string;

  /** True when the dataset lists every size the provider sells in this line. */
  lineComplete: boolean;

  /** Absolute URL of the provider's review page. */
  @ApiProperty({ format: 'uri' })
  reviewUrl: string;

  /** The plan's price at each dataset release that added or repriced it, oldest first (from the changelog); empty for a plan not yet released. */
  @ApiProperty({ type: [PricePoint] })
  priceHistory: PricePoint[];

  /** The day the provider showed `price` (the catalogue call, or the content date of a copy). */
  @ApiProperty({ format: 'date', example: '2026-10-06' })
  observedAt: string;

  /** Whole days from `observedAt` to the day of the answer (UTC). */
  @ApiProperty({ type: 'integer', minimum: 0, example: 52 })
  priceAgeDays: number;

  /** True when `priceAgeDays` is over the table's `staleAfterDays` (90), or the provider reported a price change after `observedAt`: the price may no longer be what the provider charges. */
  stale: boolean;

  /** Why the price is stale, in words; null when it is not. */
  @ApiProperty({ type: 'string', nullable: true, example: null })
  staleReason: string | null;

  /** How the price was read: from the provider's catalogue API, its own page, a dated copy of either, or typed by an editor. */
  @ApiProperty({ enum: SOURCE_METHODS, example: 'provider-api' })
  priceSourceMethod: SourceMethod;

  /** Where the price was read (the plan line's source). */
  @ApiProperty({ format: 'uri' })
  priceSourceUrl: string;

  /** When the price was read from a copy: the provider's own address of what was copied; null otherwise. */
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, example: null })
  priceCopyOf: string | null;

  /** True when the provider no longer sells the plan's line to new customers: listed, never picked. */
  discontinued: boolean;

  /** What replaces the plan, in the provider's words (the plan it names, else the line that replaces a discontinued one); null otherwise. */
  @ApiProperty({ type: 'string', nullable: true, example: null })
  successor: string | null;

  /** Whether a new customer can order the plan: true, false, or "unknown" when nobody read it; a plan that cannot be ordered is never ranked as an offer. */
  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['unknown'] }], example: true })
  orderable: boolean | 'unknown';

  /** The day `orderable` was read (the provider's date); null when it is unknown. */
  @ApiProperty({ type: 'string', format: 'date', nullable: true, example: '2026-10-06' })
  orderableObservedAt: string | null;
}
