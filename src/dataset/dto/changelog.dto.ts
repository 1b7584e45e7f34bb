import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsCalendarDate, SLUG_PATTERN } from './validators.js';

/** A list of nested records, each validated as `cls`. */
function ListOf(cls: new () => object): PropertyDecorator {
  return applyDecorators(
    IsArray(),
    ValidateNested({ each: true }),
    Type(() => cls),
  );
}

/** Which plan: its provider and its name. */
class PlanRef {
  /** Provider id. */
  @Matches(SLUG_PATTERN)
  @ApiProperty({ example: 'hetzner' })
  providerId: string;

  /** Plan name as sold. */
  @IsString()
  @IsNotEmpty()
  planName: string;

  /** The provider's own id of the size (`vc2-1c-1gb`), when the plan has one: what releases match plans by, so a renamed size is the same plan. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @ApiPropertyOptional({ example: 'vc2-1c-1gb' })
  providerPlanId?: string;
}

/** A monthly price, two decimals at most. */
function MonthlyPrice(): PropertyDecorator {
  return applyDecorators(IsNumber({ maxDecimalPlaces: 2 }), Min(0));
}

/** An ISO 4217 currency code. */
function Currency(): PropertyDecorator {
  return applyDecorators(IsISO4217CurrencyCode(), ApiProperty({ pattern: '^[A-Z]{3}$' }));
}

/** A plan as a release saw it. */
export class ReleasedPlan extends PlanRef {
  /** Monthly price in `currency`. */
  @MonthlyPrice()
  price: number;

  /** ISO 4217 code. */
  @Currency()
  currency: string;
}

/** A plan whose price changed between two releases. */
export class PlanRepricing extends PlanRef {
  /** Monthly price in the previous release, in `oldCurrency`. */
  @MonthlyPrice()
  oldPrice: number;

  /** Monthly price in this release, in `currency`. */
  @MonthlyPrice()
  newPrice: number;

  /** ISO 4217 code of `oldPrice`. */
  @Currency()
  oldCurrency: string;

  /** ISO 4217 code of `newPrice`. */
  @Currency()
  currency: string;
}

const ANY_JSON = {
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: {} },
    { type: 'object' },
    { type: 'null' },
  ],
};

/** One top-level field of a provider record (other than its plans) that changed. */
export class ProviderFactChange {
  @Matches(SLUG_PATTERN)
  providerId: string;

  /** Field name in the provider record, e.g. `uptime` or `datacenters`. */
  @IsString()
  @IsNotEmpty()
  field: string;

  /** The value in the previous release; null when the field was absent. */
  @Allow()
  @ApiProperty({ ...ANY_JSON, description: 'The value in the previous release; null when the field was absent.' })
  oldValue: unknown;

  /** The value in this release; null when the field was removed. */
  @Allow()
  @ApiProperty({ ...ANY_JSON, description: 'The value in this release; null when the field was removed.' })
  newValue: unknown;
}

/** A guide added or updated in a release. */
export class ReleasedGuide {
  @Matches(SLUG_PATTERN)
  slug: string;

  @IsString()
  @IsNotEmpty()
  title: string;

  /** The guide's `updated` date (its `published` date when it has none). */
  @IsCalendarDate()
  @ApiProperty({ format: 'date' })
  date: string;
}

/** What changed from the previous release to this one. Every list is present, empty when nothing of its kind changed. */
export class DatasetChanges {
  /** Providers new in this release, by id. */
  @IsArray()
  @Matches(SLUG_PATTERN, { each: true })
  providersAdded: string[];

  /** Providers no longer in the dataset, by id. */
  @IsArray()
  @Matches(SLUG_PATTERN, { each: true })
  providersRemoved: string[];

  /** Plans new in this release (every plan, in the initial release). */
  @ListOf(ReleasedPlan)
  plansAdded: ReleasedPlan[];

  /** Plans no longer listed, with their last price. */
  @ListOf(ReleasedPlan)
  plansRemoved: ReleasedPlan[];

  /** Plans whose price changed, with the old and the new price. */
  @ListOf(PlanRepricing)
  plansRepriced: PlanRepricing[];

  /** Provider facts (fields other than plans) that changed, one entry per field. */
  @ListOf(ProviderFactChange)
  providerFacts: ProviderFactChange[];

  /** Guides new in this release. */
  @ListOf(ReleasedGuide)
  guidesAdded: ReleasedGuide[];

  /** Guides whose `updated` (or `published`) date moved. */
  @ListOf(ReleasedGuide)
  guidesUpdated: ReleasedGuide[];
}

/** One release of the dataset: its version, the day it was released and what changed since the previous one. */
export class DatasetRelease {
  /** Dataset version, `YYYY-MM-DD`. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  /** Day the release was made. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  date: string;

  /** One line: "initial release", or counts of what changed. */
  @IsString()
  @IsNotEmpty()
  summary: string;

  @ValidateNested()
  @Type(() => DatasetChanges)
  changes: DatasetChanges;
}
