import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsISO31661Alpha2,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { FEATURE_STATUSES, type FeatureKey, type FeatureStatus } from '../features.js';
import { ProviderAddOns } from './add-ons.dto.js';
import { PlanLine } from './plan-line.dto.js';
import { ProviderTax } from './tax.dto.js';
import { Plan, PlanRecord } from './plan.dto.js';
import { Source } from './source.dto.js';
import { IsCalendarDate, OptionalText, SLUG_MAX_LENGTH, SLUG_PATTERN } from './validators.js';

export const REGIONS = [
  'europe',
  'north-america',
  'south-america',
  'asia',
  'oceania',
  'africa',
  'middle-east',
] as const;
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
/**
 * An uptime SLA as a percentage; "no published SLA" where the provider publishes none; "unknown"
 * where we could not confirm either from the provider's own pages (never a guessed figure).
 */
export const UPTIME_PATTERN = /^(\d{2,3}(\.\d{1,3})?%|no published SLA|unknown)$/;
/** Every price in the dataset is for one month. */
export const BILLING_CYCLE = 'monthly';
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
  /** Editorial score for CPU, disk and network performance. */
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

/** Whether a platform feature comes with the plans, costs extra, or is not offered. */
export class FeatureDetail {
  /** `included` in the plan price, a `paid` add-on, or `unavailable`. */
  @IsIn(FEATURE_STATUSES)
  @ApiProperty({ enum: FEATURE_STATUSES })
  status: FeatureStatus;

  /** What a paid add-on costs, in words (e.g. "20% of the server price"); only on paid features. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @ApiPropertyOptional({ example: '20% of the server price' })
  price?: string;

  /** A condition worth knowing (e.g. where the feature is not sold). */
  @OptionalText()
  note?: string;
}

/** Each platform feature with whether it is included, paid or unavailable. */
export class ProviderFeatureDetails implements Record<FeatureKey, FeatureDetail> {
  @Detail() ipv6: FeatureDetail;
  @Detail() snapshots: FeatureDetail;
  @Detail() automatedBackups: FeatureDetail;
  @Detail() api: FeatureDetail;
  @Detail() hourlyBilling: FeatureDetail;
  @Detail() ddosProtection: FeatureDetail;
  @Detail() managedKubernetes: FeatureDetail;
  @Detail() objectStorage: FeatureDetail;
}

function Detail(): PropertyDecorator {
  return (target, key) => {
    ValidateNested()(target, key);
    Type(() => FeatureDetail)(target, key);
    IsDefined()(target, key);
  };
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
  @ApiProperty({ type: 'integer', example: 1997 })
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
  @ApiProperty({ format: 'uri' })
  statusPageUrl: string;

  /** Advertised uptime SLA of these plans, e.g. "99.9%"; "no published SLA", or "unknown" where it could not be confirmed. */
  @Matches(UPTIME_PATTERN, { message: 'must read like "99.9%", or be "no published SLA" or "unknown"' })
  @ApiProperty({ example: '99.9%' })
  uptime: string;

  /** Support channels and hours, in words, e.g. "24/7 tickets; phone on weekdays". */
  @IsString()
  @IsNotEmpty()
  support: string;

  /** Data-centre locations, one per city; `locations` counts them. */
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => Location)
  datacenters: Location[];

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

  /** Each platform feature: included, a paid add-on, or unavailable; `features` lists the offered ones. */
  @ValidateNested()
  @Type(() => ProviderFeatureDetails)
  featureDetails: ProviderFeatureDetails;

  /** The add-ons that change a monthly bill (IPv4, backups, snapshots, traffic overage), with prices and sources. */
  @ValidateNested()
  @Type(() => ProviderAddOns)
  addOns: ProviderAddOns;

  /** Whether VAT or sales tax is added for consumers and businesses in the EU, the UK and the US. */
  @ValidateNested()
  @Type(() => ProviderTax)
  tax: ProviderTax;

  /** Support channels offered, as machine-readable values; `support` says the hours. */
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(SUPPORT_CHANNELS, { each: true })
  @ApiProperty({ enum: SUPPORT_CHANNELS, isArray: true })
  supportChannels: (typeof SUPPORT_CHANNELS)[number][];

  /** The product lines the plans belong to: how their prices are paid, and whether every size is listed. */
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => PlanLine)
  planLines: PlanLine[];

  /** Public pages the figures come from. */
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => Source)
  sources: Source[];
}

/** A provider as written in `providers.json`: `url` is a site path. */
export class ProviderRecord extends ProviderBase {
  /**
   * The plan matrix, as published. At least four: some providers (Hostinger) sell only four VPS
   * plans, and a dataset must not invent a fifth.
   */
  @IsArray()
  @ArrayMinSize(MIN_PLANS)
  @ValidateNested({ each: true })
  @Type(() => PlanRecord)
  plans: PlanRecord[];

  /** Path of the review page, `/providers/{id}`. */
  @Matches(/^\/providers\/[a-z0-9-]+$/, { message: 'must be the path /providers/{id}' })
  url: string;
}

/** A reviewed VPS provider, as the API serves it: the record plus the figures derived from it. */
export class Provider extends ProviderBase {
  /** Absolute URL of the review page. */
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/providers/hetzner' })
  url: string;

  /** Canonical URL of this record, `/api/providers/{id}.json`. */
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/api/providers/hetzner.json' })
  self: string;

  /** The period `startingPrice` and every plan `price` refer to: always `monthly`; `pricingNotes` says how it is billed. */
  @ApiProperty({ enum: [BILLING_CYCLE], example: BILLING_CYCLE })
  billingCycle: typeof BILLING_CYCLE;

  /** Number of data-centre locations (cities) in `datacenters`. */
  @ApiProperty({ type: 'integer', minimum: 1, example: 6 })
  locations: number;

  /** The plan matrix, each plan with how its price is paid. */
  plans: Plan[];

  /** The cheapest price any plan can be had for with no commitment, in `currency`; null when no plan has a confirmed one (see each plan's `priceBasis`). */
  @ApiProperty({ type: 'number', nullable: true, example: 3.49 })
  monthToMonthStartingPrice: number | null;

  /** True when every line in `planLines` is listed complete: then "no plan" in the dataset means the provider sells none. */
  planListComplete: boolean;

  /** Offered platform features, human-readable; paid ones end in " (paid add-on)". `featureDetails` has the detail. */
  @ApiProperty({
    type: [String],
    example: ['IPv6', 'Snapshots', 'Automated backups (paid add-on)', 'API', 'Hourly billing'],
  })
  features: string[];
}
