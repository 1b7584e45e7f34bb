import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsNotEmpty, IsNumber, IsString, IsUrl, Matches, Max, Min, ValidateNested } from 'class-validator';
import { IsCalendarDate } from './validators.js';

/** The license the data is published under. */
export class License {
  /** License name, e.g. "CC BY 4.0". */
  @IsString()
  @IsNotEmpty()
  name: string;

  /** Where the license text is. */
  @IsUrl({ require_protocol: true })
  url: string;

  /** The attribution line users of the data must show. */
  @IsString()
  @IsNotEmpty()
  credit: string;
}

/** A field being withdrawn: it stays until `sunsetAt`, and responses carrying it say so. */
export class Deprecation {
  /** `Schema.property`, e.g. `Provider.affiliateUrl`. */
  @Matches(/^[A-Z][A-Za-z]+\.[a-z][A-Za-z0-9]*$/, { message: 'must read Schema.property, e.g. Provider.affiliateUrl' })
  field: string;

  /** Day the field was deprecated. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date' })
  deprecatedAt: string;

  /** Day after which the field may disappear; at least 180 days after `deprecatedAt`. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date' })
  sunsetAt: string;

  /** Documentation of the change and what to use instead. */
  @IsUrl({ require_protocol: true })
  link: string;
}

/** How much each sub-score counts in a provider's overall rating; the weights add up to 1. */
export class RatingWeights {
  @Weight() performance: number;
  @Weight() value: number;
  @Weight() support: number;
  @Weight() easeOfUse: number;
  @Weight() features: number;
}

function Weight(): PropertyDecorator {
  return (target, key) => {
    IsNumber({ maxDecimalPlaces: 3 })(target, key);
    Min(0)(target, key);
    Max(1)(target, key);
  };
}

/** Dataset-wide facts, as written in `meta.json`. */
export class DatasetMeta {
  /** Dataset version, `YYYY-MM-DD`; sent as `X-API-Version`. */
  @IsCalendarDate()
  version: string;

  /** Day the prices were last verified. */
  @IsCalendarDate()
  lastUpdated: string;

  /** Publisher of the dataset. */
  @IsString()
  @IsNotEmpty()
  source: string;

  @IsString()
  @IsNotEmpty()
  description: string;

  @ValidateNested()
  @Type(() => License)
  license: License;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Deprecation)
  deprecations: Deprecation[];

  /** Weights of the sub-scores in every provider's overall `rating` (its weighted mean, one decimal). */
  @ValidateNested()
  @Type(() => RatingWeights)
  ratingWeights: RatingWeights;
}
