import { ApiProperty } from '@nestjs/swagger';

/** A plan's price as of one dataset release. */
export class PricePoint {
  /** The release (dataset version) that recorded the price, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  /** Monthly price in that release, in the plan's currency. */
  @ApiProperty({ example: 3.49 })
  price: number;
}
