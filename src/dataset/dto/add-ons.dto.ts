import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Source } from './source.dto.js';
import { OptionalText, SLUG_PATTERN } from './validators.js';

export const ADD_ON_STATUSES = ['included', 'paid', 'unavailable', 'unknown'] as const;
export type AddOnStatus = (typeof ADD_ON_STATUSES)[number];
export const TRAFFIC_POLICIES = ['charged', 'throttled', 'unmetered', 'unknown'] as const;
export type TrafficPolicy = (typeof TRAFFIC_POLICIES)[number];
/** Units providers price traffic in; a GiB is 2^30 bytes, a GB and a TB decimal. */
export const TRAFFIC_UNITS = ['GB', 'GiB', 'TB'] as const;
export type TrafficUnit = (typeof TRAFFIC_UNITS)[number];

/** A money figure in the provider's currency, or null when it could not be confirmed. */
function MoneyOrNull(): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_, v) => v !== null)(target, key);
    IsNumber({ maxDecimalPlaces: 4 })(target, key);
    Min(0)(target, key);
    ApiProperty({ type: Number, nullable: true })(target, key);
  };
}

/** A percentage of the plan price (0-100), or null when priced otherwise or unknown. */
function PercentOrNull(): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_, v) => v !== null)(target, key);
    IsNumber({ maxDecimalPlaces: 2 })(target, key);
    Min(0)(target, key);
    Max(100)(target, key);
    ApiProperty({ type: Number, nullable: true, example: 20 })(target, key);
  };
}

/** What every add-on says besides its figures: a note, why a figure is unknown, where it was read. */
class AddOnBase {
  /** A condition worth knowing, in a few words. */
  @OptionalText()
  note?: string;

  /** Why a figure is null or the status unknown; required then, so an unknown is never silent. */
  @OptionalText()
  unknownReason?: string;

  /** Where the figures were read; absent only when nothing could be found. */
  @IsOptional()
  @ValidateNested()
  @Type(() => Source)
  @ApiPropertyOptional({ type: () => Source })
  source?: Source;
}

/** One public IPv4 address for a server. */
export class Ipv4AddOn extends AddOnBase {
  /** `included` in the plan price, `paid` at `pricePerMonth`, or `unknown`. */
  @IsIn(ADD_ON_STATUSES)
  @ApiProperty({ enum: ADD_ON_STATUSES })
  status: AddOnStatus;

  /** Monthly price of the address when it is paid, in the provider's currency; null otherwise or when unknown. */
  @MoneyOrNull()
  pricePerMonth: number | null;
}

/** How often automated backups run: what a backup price buys. */
export const BACKUP_FREQUENCIES = ['daily', 'weekly'] as const;
export type BackupFrequency = (typeof BACKUP_FREQUENCIES)[number];

/** Backups at another frequency than the add-on's own, with their own price. */
export class BackupOption {
  @IsIn(BACKUP_FREQUENCIES)
  @ApiProperty({ enum: BACKUP_FREQUENCIES })
  frequency: BackupFrequency;

  @IsIn(ADD_ON_STATUSES)
  @ApiProperty({ enum: ADD_ON_STATUSES })
  status: AddOnStatus;

  /** Price as a percentage of the plan's monthly price; null when priced otherwise or unknown. */
  @PercentOrNull()
  percentOfPlanPrice: number | null;

  /** A flat monthly price; null when priced otherwise or unknown. */
  @MoneyOrNull()
  pricePerMonth: number | null;

  @OptionalText()
  note?: string;

  /** Why the price is unknown; required when both figures are null and the option is paid. */
  @OptionalText()
  unknownReason?: string;
}

/** Automated backups of a server. */
export class BackupsAddOn extends AddOnBase {
  /**
   * How often the backups that `status` and the prices describe run; absent when the data does not
   * say (then a price holds for backups of some frequency, never for a frequency asked for).
   */
  @IsOptional()
  @IsIn(BACKUP_FREQUENCIES)
  @ApiPropertyOptional({ enum: BACKUP_FREQUENCIES })
  frequency?: BackupFrequency;

  /** Backups at another frequency, priced on their own (e.g. daily where weekly ones are the add-on). */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => BackupOption)
  @ApiPropertyOptional({ type: () => [BackupOption] })
  otherFrequencies?: BackupOption[];

  @IsIn(ADD_ON_STATUSES)
  @ApiProperty({ enum: ADD_ON_STATUSES })
  status: AddOnStatus;

  /** Price as a percentage of the plan's monthly price (e.g. 20); null when priced otherwise or unknown. */
  @PercentOrNull()
  percentOfPlanPrice: number | null;

  /** A flat monthly price for every plan; null when priced otherwise or unknown. */
  @MoneyOrNull()
  pricePerMonth: number | null;

  /** A flat monthly price per plan name, where the provider prices backups plan by plan. */
  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'number' } })
  pricesByPlan?: Record<string, number>;

  /** Plan lines whose price already includes backups, when that differs from `status`. */
  @IsOptional()
  @IsArray()
  @Matches(SLUG_PATTERN, { each: true, message: 'must hold plan line ids' })
  @ApiPropertyOptional({ type: [String] })
  includedInLines?: string[];
}

/** Snapshots kept on the provider's storage. */
export class SnapshotsAddOn extends AddOnBase {
  @IsIn(ADD_ON_STATUSES)
  @ApiProperty({ enum: ADD_ON_STATUSES })
  status: AddOnStatus;

  /** Price per GB stored per month; null when not priced per GB or unknown. */
  @MoneyOrNull()
  pricePerGbMonth: number | null;
}

/** Outbound traffic beyond a plan's allowance. */
export class TrafficOverageAddOn extends AddOnBase {
  /** `charged` at `price` per `unit`, `throttled` (slowed, not charged), `unmetered`, or `unknown`. */
  @IsIn(TRAFFIC_POLICIES)
  @ApiProperty({ enum: TRAFFIC_POLICIES })
  status: TrafficPolicy;

  /** Price per `unit` as the provider states it (not rounded into another unit); null unless charged and known. */
  @MoneyOrNull()
  price: number | null;

  /** The unit `price` is per; absent when there is no price. */
  @IsOptional()
  @IsIn(TRAFFIC_UNITS)
  @ApiPropertyOptional({ enum: TRAFFIC_UNITS })
  unit?: TrafficUnit;
}

/** The add-ons that change a monthly bill, each with its price in the provider's currency and a source. */
export class ProviderAddOns {
  @ValidateNested()
  @Type(() => Ipv4AddOn)
  ipv4: Ipv4AddOn;

  @ValidateNested()
  @Type(() => BackupsAddOn)
  backups: BackupsAddOn;

  @ValidateNested()
  @Type(() => SnapshotsAddOn)
  snapshots: SnapshotsAddOn;

  @ValidateNested()
  @Type(() => TrafficOverageAddOn)
  trafficOverage: TrafficOverageAddOn;
}
