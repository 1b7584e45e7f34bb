import { ApiProperty } from '@nestjs/swagger';
import { Guide } from '../../dataset/dto/guide.dto.js';

/** The guide index, newest first. */
export class GuideList {
  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ example: '2026-02-06' })
  version: string;

  /** Number of guides. */
  count: number;

  /** Newest first: `published` descending, then `slug`. */
  guides: Guide[];
}
