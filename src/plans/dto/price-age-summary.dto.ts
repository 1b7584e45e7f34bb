import { ApiProperty } from '@nestjs/swagger';

/** How old a set of prices is: the oldest and newest day a provider showed one, and how many are stale. */
export class PriceAgeSummary {
  /** The earliest `observedAt` among the prices. */
  @ApiProperty({ format: 'date', example: '2024-01-29' })
  oldestObservedAt: string;

  /** The latest `observedAt` among the prices. */
  @ApiProperty({ format: 'date', example: '2026-10-06' })
  newestObservedAt: string;

  /** How many of the prices are stale (older than `staleAfterDays`, or seen before a reported price change). */
  @ApiProperty({ type: 'integer', minimum: 0, example: 3 })
  stalePrices: number;
}
