import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Source } from './source.dto.js';
import { IsCalendarDate, OptionalText, SLUG_PATTERN } from './validators.js';

/**
 * How a plan's headline `price` is paid:
 * - `hourly-capped` / `per-second-capped`: billed for the time the server exists, never above `price` a month; no commitment;
 * - `monthly`: a monthly subscription with no commitment;
 * - `prepaid-term`: `price` is the monthly equivalent of a term of `termMonths` paid up front.
 */
export const PRICE_BASES = ['hourly-capped', 'per-second-capped', 'monthly', 'prepaid-term'] as const;
export type PriceBasis = (typeof PRICE_BASES)[number];

/** CPU architectures a line can state: x86-64 (Intel, AMD) or 64-bit Arm. */
export const ARCHITECTURES = ['x86_64', 'arm64'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];

/** The CPU architecture of a line's servers, with where it was read: never inferred from a name. */
export class LineArchitecture {
  @IsIn(ARCHITECTURES)
  @ApiProperty({ enum: ARCHITECTURES })
  value: Architecture;

  /** Where the architecture was read (a catalogue field, the provider's page, or a dated copy of either). */
  @ValidateNested()
  @Type(() => Source)
  source: Source;
}

/** True when the headline price needs no commitment: you can stop paying after any month. */
export const isNoCommitment = (basis: PriceBasis) => basis !== 'prepaid-term';

/** Locations where a line's prices differ from its price list, and by how much when that is known. */
export class RegionalPrice {
  /** Cities (from the provider's `datacenters`) where this applies. */
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  datacenters: string[];

  /** What a plan costs there as a multiple of its listed price (1.5 = 50% more); null when the price there is not in the dataset. */
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ maxDecimalPlaces: 3 })
  @Min(0)
  @ApiProperty({ type: Number, nullable: true, example: 1.5 })
  priceFactor: number | null;

  /** The difference in words. */
  @IsString()
  @IsNotEmpty()
  note: string;
}

/**
 * A credible, dated report that the provider changed this line's prices after the dataset saw them:
 * every plan of the line observed before `date` is stale, whatever its age, with `note` as the reason.
 */
export class LaterPriceChange {
  /** The day the change took effect (or was announced, when no effective day is given). */
  @IsCalendarDate()
  @ApiProperty({ format: 'date', example: '2026-04-01' })
  date: string;

  /** What changed, in words ("Hetzner raised its cloud prices on 2026-04-01"). */
  @IsString()
  @IsNotEmpty()
  note: string;

  /** Where the change is reported. */
  @ValidateNested()
  @Type(() => Source)
  source: Source;
}

/** A line the provider no longer sells to new customers: its plans are served flagged, never picked. */
export class DiscontinuedLine {
  /** The day the provider stopped selling it, when known. */
  @ValidateIf((_, v) => v !== null)
  @IsCalendarDate()
  @ApiProperty({ type: 'string', format: 'date', nullable: true })
  since: string | null;

  /** The line that replaces it, in the provider's words ("Premium plans"). */
  @IsString()
  @IsNotEmpty()
  successor: string;

  /** Where the provider says so. */
  @ValidateNested()
  @Type(() => Source)
  source: Source;
}

/** A product line of a provider (e.g. Hetzner's CX line): how its prices are paid and whether the dataset lists all of it. */
export class PlanLine {
  /** Identifier of the line within the provider, referenced by each plan's `line`. */
  @Matches(SLUG_PATTERN, { message: 'must be a lowercase slug (a-z, 0-9, single hyphens)' })
  @ApiProperty({ example: 'cx' })
  id: string;

  /** The provider's name for the line. */
  @IsString()
  @IsNotEmpty()
  name: string;

  /** How the headline prices of this line are paid. */
  @IsIn(PRICE_BASES)
  @ApiProperty({ enum: PRICE_BASES })
  priceBasis: PriceBasis;

  /** Months of the prepaid term the headline price needs; null when there is no term. */
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(2)
  @ApiProperty({ type: 'integer', nullable: true, example: null })
  termMonths: number | null;

  /** True when the headline price is an introductory rate; each plan then says its `renewalPrice`. */
  @IsBoolean()
  promotional: boolean;

  /** For a prepaid term: whether the line is also sold month to month (each plan then says its `monthToMonthPrice`). */
  @IsOptional()
  @IsBoolean()
  @ApiPropertyOptional()
  monthToMonthSold?: boolean;

  /** One-time setup fee in the provider's currency (0 when there is none); null when it could not be confirmed. */
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  // The type is explicit: swc (jest) reflects `number | null` as Object, where tsc reflects Number.
  @ApiProperty({ type: 'number', nullable: true, example: 0 })
  setupFee: number | null;

  /** Which price list the prices are from: site, currency and the locations it covers. */
  @IsString()
  @IsNotEmpty()
  priceList: string;

  /** True when the dataset lists every size the provider sells in this line. */
  @IsBoolean()
  complete: boolean;

  /** What the dataset leaves out of the line, when it is not complete. */
  @OptionalText()
  notListed?: string;

  /** Cities (from the provider's `datacenters`) where the line is sold, where that is confirmed; absent when not confirmed line by line. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  @ApiPropertyOptional({ type: [String], example: ['Falkenstein', 'Nuremberg', 'Helsinki'] })
  datacenters?: string[];

  /** The CPU architecture of the line's servers, where a source states it; absent (unknown) otherwise. */
  @IsOptional()
  @ValidateNested()
  @Type(() => LineArchitecture)
  @ApiPropertyOptional({ type: () => LineArchitecture })
  architecture?: LineArchitecture;

  /** Locations where the prices differ from `priceList`. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RegionalPrice)
  @ApiPropertyOptional({ type: () => [RegionalPrice] })
  regionalPrices?: RegionalPrice[];

  /** Where the line's sizes and prices were read. */
  @ValidateNested()
  @Type(() => Source)
  source: Source;

  /** The advertised uptime SLA of this line, where it differs from the provider's `uptime` (read from the line's `source`). */
  @IsOptional()
  @Matches(/^\d{2,3}(\.\d{1,3})?%$/, { message: 'must be a percentage such as "99.99%"' })
  @ApiPropertyOptional({ example: '99.999%' })
  uptime?: string;

  /** A reported price change after the line's prices were seen; absent when none is known. */
  @IsOptional()
  @ValidateNested()
  @Type(() => LaterPriceChange)
  @ApiPropertyOptional({ type: () => LaterPriceChange })
  laterPriceChange?: LaterPriceChange;

  /** Set when the provider no longer sells the line; absent while it is sold. */
  @IsOptional()
  @ValidateNested()
  @Type(() => DiscontinuedLine)
  @ApiPropertyOptional({ type: () => DiscontinuedLine })
  discontinued?: DiscontinuedLine;
}
