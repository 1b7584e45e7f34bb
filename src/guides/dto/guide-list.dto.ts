import { ApiProperty } from '@nestjs/swagger';
import { Guide } from '../../dataset/dto/guide.dto.js';

/** The guide index, newest first. */
export class GuideList {
  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  /** Number of guides. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  count: number;

  /** Newest first: `published` descending, then `slug`. */
  guides: Guide[];
}
