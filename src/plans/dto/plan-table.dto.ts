import { ApiProperty } from '@nestjs/swagger';
import { License } from '../../dataset/dto/meta.dto.js';
import { PlanTableRow } from './plan-table-row.dto.js';
import { PriceAgeSummary } from './price-age-summary.dto.js';

/** Every plan of every provider as one flat table. */
export class PlanTable {
  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  /** Day the prices were last verified. */
  @ApiProperty({ format: 'date' })
  lastUpdated: string;

  /** Day of the oldest exchange rate any converted price of the table uses (each rate has its own day). */
  @ApiProperty({ format: 'date', example: '2026-09-28' })
  exchangeRatesDate: string;

  /** Terms of reuse and the credit line to show. */
  license: License;

  /** A price seen more than this many days before the day of the answer (UTC) is stale (each row's `stale`). */
  @ApiProperty({ type: 'integer', minimum: 1, example: 90 })
  staleAfterDays: number;

  /** How old the prices of every row are: oldest and newest `observedAt`, and how many are stale. */
  priceAge: PriceAgeSummary;

  /** Number of rows. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  count: number;

  /** One row per plan, providers in dataset order, each provider's plans as it lists them. */
  plans: PlanTableRow[];
}
