import { ApiProperty } from '@nestjs/swagger';
import { License } from '../../dataset/dto/meta.dto.js';
import { PriceAgeSummary } from '../../plans/dto/price-age-summary.dto.js';
import { ServedProvider } from './served-provider.dto.js';

/** Every reviewed provider with the editorial recommendations. */
export class ProviderList {
  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  /** Day the prices were last verified. */
  @ApiProperty({ format: 'date' })
  lastUpdated: string;

  /** Publisher of the dataset. */
  source: string;

  description: string;

  /** Terms of reuse and the credit line to show. */
  license: License;

  /** Number of providers. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  count: number;

  /**
   * Editorial picks: scenario name to provider id, e.g. `bestValue: "hetzner"`. The OpenAPI document
   * declares the dataset's keys and ids (openapi/dataset-vocabularies.ts); a new key is additive.
   */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  recommendations: Record<string, string>;

  /** A plan price seen more than this many days before the day of the answer (UTC) is stale (each plan's `stale`). */
  @ApiProperty({ type: 'integer', minimum: 1, example: 90 })
  staleAfterDays: number;

  /** How old every provider's plan prices are, together. */
  priceAge: PriceAgeSummary;

  providers: ServedProvider[];
}
