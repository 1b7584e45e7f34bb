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

/** Server resources a workload needs, as written in `use-cases.json`. */
export class SpecRecord {
  /** Virtual CPUs. */
  @IsInt()
  @Min(1)
  @ApiProperty({ type: 'integer', minimum: 1, example: 2 })
  vcpus: number;

  /** Memory in GB. */
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0.25)
  @ApiProperty({ example: 4 })
  ramGb: number;

  /** Disk in GB. */
  @IsInt()
  @Min(1)
  @ApiProperty({ type: 'integer', minimum: 1, example: 80 })
  storageGb: number;

  /** Monthly outbound transfer in TB. */
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0.01)
  @ApiProperty({ example: 2 })
  bandwidthTb: number;

  /** What else matters for this size. */
  @IsOptional()
  @IsString()
  @ApiPropertyOptional()
  notes?: string;
}

/** Server resources a workload needs: the contract's text fields, and the same figures as numbers. */
export class Spec extends SpecRecord {
  /** vCPUs as text, e.g. "2 vCPU". */
  @ApiProperty({ example: '2 vCPU' })
  cpu: string;

  /** Memory as text, e.g. "4GB" or "512MB". */
  @ApiProperty({ example: '4GB' })
  ram: string;

  /** Disk as text, e.g. "80GB". */
  @ApiProperty({ example: '80GB' })
  storage: string;

  /** Monthly transfer as text, e.g. "2TB" or "500GB". */
  @ApiProperty({ example: '2TB' })
  bandwidth: string;
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

/** Fields every use case has; `url` and the specs differ between files and API. */
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

  /** Recommended providers with a reason each. */
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => UseCaseProvider)
  recommendedProviders: UseCaseProvider[];
}

/** A use case as written in `use-cases.json`: `url` is a site path, specs are figures. */
export class UseCaseRecord extends UseCaseBase {
  /** The least that runs the workload acceptably. */
  @ValidateNested()
  @Type(() => SpecRecord)
  minimumSpec: SpecRecord;

  /** What we would run it on. */
  @ValidateNested()
  @Type(() => SpecRecord)
  recommendedSpec: SpecRecord;

  /**
   * How the recommended spec is reached when no recommended provider sells a plan that big (for
   * example "attach a block-storage volume"); the validator requires it exactly then.
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  recommendedSpecNote?: string;

  /** Path of the use-case page, `/use-cases/{slug}`. */
  @Matches(/^\/use-cases\/[a-z0-9-]+$/, { message: 'must be the path /use-cases/{slug}' })
  url: string;
}

/** A workload with its sizing and provider picks, as the API serves it. */
export class UseCase extends UseCaseBase {
  /** The least that runs the workload acceptably. */
  minimumSpec: Spec;

  /** What we would run it on. */
  recommendedSpec: Spec;

  /**
   * Derived: the cheapest no-commitment monthly price, in USD, of a plan still sold that meets
   * `minimumSpec`, written like "$4.99/mo"; `startingAtUsd` is the number. Plans with fresh prices
   * are preferred: a stale price is used only when no fresh one meets the spec (`startingAtStale`).
   */
  @ApiProperty({ example: '$3.54/mo' })
  startingAt: string;

  /** `startingAt` as a number: US dollars a month with no commitment, excluding VAT, to the cent. */
  @ApiProperty({ example: 3.54 })
  startingAtUsd: number;

  /** The day the provider showed the price `startingAt` rests on. */
  @ApiProperty({ format: 'date', example: '2026-10-06' })
  startingAtObservedAt: string;

  /**
   * True when `startingAt` rests on a stale price: no plan with a fresh price (seen within 90 days of
   * the dataset version, no later price change reported) meets `minimumSpec`, so the cheapest stale one is used.
   */
  startingAtStale: boolean;

  /** How the recommended spec is reached when no recommended provider sells a plan that big. */
  @ApiPropertyOptional()
  recommendedSpecNote?: string;

  /** Absolute URL of the use-case page. */
  @ApiProperty({ format: 'uri' })
  url: string;
}
