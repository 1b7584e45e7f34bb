import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from './validators.js';

/** Server resources a workload needs. */
export class Spec {
  /** Virtual CPUs. */
  @IsInt()
  @Min(1)
  vcpus: number;

  /** Memory in GB. */
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0.25)
  ramGb: number;

  /** Disk in GB. */
  @IsInt()
  @Min(1)
  storageGb: number;

  /** What else matters for this size. */
  @IsOptional()
  @IsString()
  @ApiPropertyOptional()
  notes?: string;
}

/** A provider recommended for a workload, and why. */
export class UseCaseProvider {
  /** Provider id. */
  @Matches(SLUG_PATTERN, { message: 'must be a provider id' })
  id: string;

  /** Why this provider fits the workload. */
  @IsString()
  @IsNotEmpty()
  reason: string;
}

/** Fields every use case has; `url` differs between files and API. */
export class UseCaseBase {
  /** Stable identifier of the workload. */
  @Matches(SLUG_PATTERN, { message: 'must be a lowercase slug (a-z, 0-9, single hyphens)' })
  @MaxLength(SLUG_MAX_LENGTH)
  @ApiProperty({ example: 'wordpress' })
  slug: string;

  @IsString()
  @IsNotEmpty()
  title: string;

  /** What the workload stresses. */
  @IsString()
  @IsNotEmpty()
  description: string;

  /** Search terms. */
  @IsArray()
  @IsString({ each: true })
  tags: string[];

  /** The least that runs the workload acceptably. */
  @ValidateNested()
  @Type(() => Spec)
  minimumSpec: Spec;

  /** What we would run it on. */
  @ValidateNested()
  @Type(() => Spec)
  recommendedSpec: Spec;

  /** Typical entry price, e.g. "$5/mo". */
  @Matches(/^[$€£]\d+(\.\d{1,2})?\/mo$/, { message: 'must read like "$5/mo"' })
  startingAt: string;

  /** Recommended providers with a reason each. */
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => UseCaseProvider)
  recommendedProviders: UseCaseProvider[];
}

/** A use case as written in `use-cases.json`: `url` is a site path. */
export class UseCaseRecord extends UseCaseBase {
  /** Path of the use-case page, `/use-cases/{slug}`. */
  @Matches(/^\/use-cases\/[a-z0-9-]+$/, { message: 'must be the path /use-cases/{slug}' })
  url: string;
}

/** A workload with its sizing and provider picks. */
export class UseCase extends UseCaseBase {
  /** Absolute URL of the use-case page. */
  @ApiProperty({ format: 'uri' })
  url: string;
}
