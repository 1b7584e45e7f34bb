import { ApiProperty } from '@nestjs/swagger';
import { DatasetRelease } from '../../dataset/dto/changelog.dto.js';

/** Every release of the dataset, newest first, with what each changed. */
export class ChangeList {
  /** Dataset version being served, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  /** Number of releases. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  count: number;

  /** The Atom feed of the same releases. */
  @ApiProperty({ format: 'uri' })
  feed: string;

  /** Newest first. */
  releases: DatasetRelease[];
}
