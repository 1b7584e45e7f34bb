import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PRICE_BASES, type PriceBasis } from './plan-line.dto.js';
import { Source } from './source.dto.js';
import { IsCalendarDate, SLUG_PATTERN } from './validators.js';

export const CPU_TYPES = ['shared', 'dedicated'] as const;
export type CpuType = (typeof CPU_TYPES)[number];

/** Whether a plan could be ordered when someone last looked, and where: a catalogue's availability, a provider page. */
export class PlanAvailability {
  /** True when new customers could order the plan; false when it was listed but not orderable (sold out, legacy, "not available to order"). */
  @IsBoolean()
  orderable: boolean;

  /** The day the provider showed that (the catalogue's or the page's date). */
  @IsCalendarDate()
  @ApiProperty({ format: 'date', example: '2026-10-06' })
  observedAt: string;

  /** Where it was read. */
  @ValidateNested()
  @Type(() => Source)
  source: Source;

  /** The plan the provider names as its replacement, as the provider names it. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  successor?: string;
}

/** One row of a provider's plan matrix, as written in `providers.json`. */
export class PlanRecord {
  /** The provider's own plan name. */
  @IsString()
  @IsNotEmpty()
  name: string;

  /** Monthly price excluding VAT, in `currency`: the headline price, paid as its line's `priceBasis` says. */
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  price: number;

  /** ISO 4217 code of the currency the provider bills this plan in. */
  @IsISO4217CurrencyCode()
  @ApiProperty({ example: 'USD', pattern: '^[A-Z]{3}$' })
  currency: string;

  /** Virtual CPUs, e.g. "2 vCPU". */
  @Matches(/^\d+ vCPU$/, { message: 'must read like "2 vCPU"' })
  cpu: string;

  /** Memory, e.g. "4GB" or "512MB". */
  @Matches(/^\d+(\.\d+)?(MB|GB)$/, { message: 'must read like "4GB" or "512MB"' })
  ram: string;

  /** Disk size and kind, e.g. "80GB NVMe". */
  @Matches(/^\d+(\.\d+)?(GB|TB) ([A-Za-z]+ )?(NVMe|SSD|HDD)$/, {
    message: 'must read like "80GB NVMe", "25GB MaxIOPS SSD" or "1TB HDD"',
  })
  storage: string;

  /** Included monthly traffic, e.g. "20TB", or "Unmetered". */
  @IsString()
  @IsNotEmpty()
  bandwidth: string;

  /** Whether the vCPUs are shared with other tenants or dedicated to this server. */
  @IsIn(CPU_TYPES)
  cpuType: CpuType;

  /** The plan line (an id in the provider's `planLines`) the plan belongs to. */
  @Matches(SLUG_PATTERN, { message: "must be the id of one of the provider's planLines" })
  line: string;

  /** The day the provider showed this price: the day of the catalogue call, or the content date of a copy. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date', example: '2026-09-14' })
  observedAt: string;

  /** The provider's own id of the size in its catalogue API (`cx23`, `vc2-1c-1gb`), for plans the refresher reads. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @ApiPropertyOptional({ example: 'cx23' })
  providerPlanId?: string;

  /** Monthly price after a promotional term; null when the provider's renewal price could not be confirmed. */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  renewalPrice?: number | null;

  /** For a prepaid-term plan: the monthly price with no commitment; null when it could not be confirmed. */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  monthToMonthPrice?: number | null;

  /** Whether the plan could be ordered, when and where that was read; absent when nobody read it (the API says `unknown`). */
  @IsOptional()
  @ValidateNested()
  @Type(() => PlanAvailability)
  availability?: PlanAvailability;
}

/** One purchasable tier, as the API serves it: the record with how its price is paid. */
export class Plan extends PlanRecord {
  /** How `price` is paid: by the hour or second up to a monthly cap, monthly, or as a prepaid term. */
  @ApiProperty({ enum: PRICE_BASES })
  priceBasis: PriceBasis;

  /** Months of the prepaid term `price` needs; null when there is none. */
  @ApiProperty({ type: 'integer', nullable: true, example: null })
  termMonths: number | null;

  /** True when `price` is an introductory rate that renews at `renewalPrice`. */
  promotional: boolean;

  /** Monthly price after the promotional term; null when the price is not promotional, or the renewal price is in `unconfirmed`. */
  @ApiProperty({ type: 'number', nullable: true })
  override renewalPrice: number | null;

  /** Monthly price with no commitment; equals `price` unless `priceBasis` is prepaid-term. Null when not sold month to month, or when listed in `unconfirmed`. */
  @ApiProperty({ type: 'number', nullable: true })
  override monthToMonthPrice: number | null;

  /** One-time setup fee (0 when none); null when listed in `unconfirmed`. */
  @ApiProperty({ type: 'number', nullable: true, example: 0 })
  setupFee: number | null;

  /** Names of this plan's fields whose null means "could not be confirmed" rather than "none". */
  @ApiProperty({ type: [String], example: [] })
  unconfirmed: string[];

  /** Whole days from `observedAt` to the day of the answer (UTC; never before the dataset version): how old the price is today. */
  @ApiProperty({ type: 'integer', example: 12 })
  priceAgeDays: number;

  /** True when the price is older than the stale threshold (`staleAfterDays` in the list answers, 90 days) or a later price change was reported; stale prices are never ranked as if fresh. */
  stale: boolean;

  /** Why the price is stale, in words; null when it is not. */
  @ApiProperty({ type: 'string', nullable: true, example: null })
  staleReason: string | null;

  /** Where and how the price was read: the plan line's source (`method`: provider-api, provider-page, copy or editorial). */
  @ApiProperty({ type: () => Source })
  source: Source;

  /** True when the provider no longer sells the plan's line to new customers; such plans are listed but never picked. */
  discontinued: boolean;

  /** What replaces the plan, in the provider's words: the plan it names (`availability.successor`), else the line that replaces a discontinued one; null otherwise. */
  @ApiProperty({ type: 'string', nullable: true, example: null })
  successor: string | null;

  /** Whether a new customer can order the plan: true, false (listed but not orderable, or its line discontinued), or "unknown" when nobody read it. A plan that is not orderable is never a starting price, a pick or a ranked offer. */
  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['unknown'] }], example: true })
  orderable: boolean | 'unknown';

  /** The day `orderable` was read (the provider's date); null when it is unknown. */
  @ApiProperty({ type: 'string', format: 'date', nullable: true, example: '2026-10-06' })
  orderableObservedAt: string | null;

  /** Where `orderable` was read (the page or the catalogue copy); null when it is unknown. */
  @ApiProperty({ type: 'string', format: 'uri', nullable: true })
  orderableSourceUrl: string | null;
}
