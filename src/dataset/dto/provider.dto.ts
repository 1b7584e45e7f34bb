import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO31661Alpha2,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsNumber,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Plan } from './plan.dto.js';
import { IsCalendarDate, SLUG_MAX_LENGTH, SLUG_PATTERN } from './validators.js';

export const REGIONS = ['europe', 'north-america', 'south-america', 'asia', 'oceania', 'africa', 'middle-east'] as const;
/** How each region is written in pages and guides. */
export const REGION_NAMES: Record<(typeof REGIONS)[number], string> = {
  europe: 'Europe',
  'north-america': 'North America',
  'south-america': 'South America',
  asia: 'Asia',
  oceania: 'Oceania',
  africa: 'Africa',
  'middle-east': 'Middle East',
};
export const SUPPORT_CHANNELS = ['ticket', 'chat', 'phone', 'email', 'community'] as const;
/** Fewest plans a provider record may list. */
export const MIN_PLANS = 4;
const HTTP_URL = { require_protocol: true, protocols: ['https', 'http'] };

/** An editorial score from 0 to 5 with one decimal. */
function Score(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ type: Number, minimum: 0, maximum: 5, example: 4.5 })(target, key);
    IsNumber({ maxDecimalPlaces: 1 })(target, key);
    Min(0)(target, key);
    Max(5)(target, key);
  };
}

/** Editorial sub-scores, each 0 to 5. */
export class ProviderRatings {
  /** CPU, disk and network performance in our tests. */
  @Score() performance: number;
  /** What each unit of money buys. */
  @Score() value: number;
  /** Responsiveness and competence of support. */
  @Score() support: number;
  /** How quickly a newcomer gets a server running. */
  @Score() easeOfUse: number;
  /** Breadth of the platform: snapshots, backups, API, networking, managed services. */
  @Score() features: number;
}

/** A city and country. */
export class Place {
  /** City name in English. */
  @IsString()
  @IsNotEmpty()
  city: string;

  /** ISO 3166-1 alpha-2 country code. */
  @IsISO31661Alpha2()
  @ApiProperty({ example: 'DE', pattern: '^[A-Z]{2}$' })
  country: string;
}

/** A data-center location where servers can be deployed. */
export class Location extends Place {
  /** Broad region used for filtering. */
  @IsIn(REGIONS)
  @ApiProperty({ enum: REGIONS })
  region: (typeof REGIONS)[number];
}

/** Platform features; `true` means offered for these plans. */
export class ProviderFeatures {
  @IsBoolean() ipv6: boolean;
  @IsBoolean() snapshots: boolean;
  @IsBoolean() automatedBackups: boolean;
  @IsBoolean() api: boolean;
  @IsBoolean() hourlyBilling: boolean;
  @IsBoolean() ddosProtection: boolean;
  @IsBoolean() managedKubernetes: boolean;
  @IsBoolean() objectStorage: boolean;
}

/** Where a figure in this record was checked. */
export class Source {
  /** Public page the figures were taken from. */
  @IsUrl(HTTP_URL)
  url: string;

  /** Day the page was read. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date', example: '2026-02-03' })
  retrievedAt: string;
}

/**
 * Fields every provider record has, in the data files and in the API alike.
 * `url` differs: a path in the files, an absolute URL in the API.
 */
export class ProviderBase {
  /** Stable, lowercase identifier; never changes. */
  @Matches(SLUG_PATTERN, { message: 'must be a lowercase slug (a-z, 0-9, single hyphens)' })
  @MaxLength(SLUG_MAX_LENGTH)
  @ApiProperty({ example: 'hetzner' })
  id: string;

  /** Display name. */
  @IsString()
  @IsNotEmpty()
  name: string;

  /** Who the provider is, in a sentence or two. */
  @IsString()
  @IsNotEmpty()
  summary: string;

  /** The editorial verdict. */
  @IsString()
  @IsNotEmpty()
  verdict: string;

  /** Overall editorial rating from 0 to 5. */
  @Score()
  rating: number;

  @ValidateNested()
  @Type(() => ProviderRatings)
  ratings: ProviderRatings;

  /** Price of the cheapest plan, in `currency`. */
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  startingPrice: number;

  /** ISO 4217 code of the currency the plans are billed in. */
  @IsISO4217CurrencyCode()
  @ApiProperty({ example: 'EUR', pattern: '^[A-Z]{3}$' })
  currency: string;

  /** How to read the prices: VAT, promotional terms, billing caps. */
  @IsString()
  @IsNotEmpty()
  pricingNotes: string;

  /** Year the company was founded. */
  @IsInt()
  @Min(1900)
  @Max(2100)
  founded: number;

  @ValidateNested()
  @Type(() => Place)
  headquarters: Place;

  /** The provider's home page. */
  @IsUrl(HTTP_URL)
  website: string;

  /** Where to sign up. The embedded dataset carries no referral codes. */
  @IsUrl(HTTP_URL)
  affiliateUrl: string;

  /** The provider's public status page. */
  @IsUrl(HTTP_URL)
  statusUrl: string;

  /** Data-center locations. */
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => Location)
  locations: Location[];

  /** Slugs of the use cases this provider suits best. */
  @IsArray()
  @Matches(SLUG_PATTERN, { each: true, message: 'must hold lowercase slugs' })
  bestFor: string[];

  /** Strengths. */
  @IsArray()
  @ArrayMinSize(3)
  @ArrayMaxSize(6)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  pros: string[];

  /** Weaknesses. */
  @IsArray()
  @ArrayMinSize(3)
  @ArrayMaxSize(6)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  cons: string[];

  @ValidateNested()
  @Type(() => ProviderFeatures)
  features: ProviderFeatures;

  /** Support channels offered. */
  @IsArray()
  @IsIn(SUPPORT_CHANNELS, { each: true })
  @ApiProperty({ enum: SUPPORT_CHANNELS, isArray: true })
  support: (typeof SUPPORT_CHANNELS)[number][];

  /**
   * The plan matrix, as published. At least four: some providers (Hostinger) sell only four VPS
   * plans, and a dataset must not invent a fifth.
   */
  @IsArray()
  @ArrayMinSize(MIN_PLANS)
  @ValidateNested({ each: true })
  @Type(() => Plan)
  plans: Plan[];

  /** Public pages the figures come from. */
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => Source)
  sources: Source[];
}

/** A provider as written in `providers.json`: `url` is a site path. */
export class ProviderRecord extends ProviderBase {
  /** Path of the review page, `/providers/{id}`. */
  @Matches(/^\/providers\/[a-z0-9-]+$/, { message: 'must be the path /providers/{id}' })
  url: string;
}

/** A reviewed VPS provider. */
export class Provider extends ProviderBase {
  /** Absolute URL of the review page. */
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/providers/hetzner' })
  url: string;
}
