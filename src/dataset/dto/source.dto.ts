import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUrl } from 'class-validator';
import { IsCalendarDate } from './validators.js';

const HTTP_URL = { require_protocol: true, protocols: ['https', 'http'] };

/** Where a figure in this record was checked. */
export class Source {
  /** Public page the figures were taken from. */
  @IsUrl(HTTP_URL)
  url: string;

  /** Day the page was read. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date', example: '2026-02-03' })
  retrievedAt: string;

  /** The date the page gives itself ("last updated", "effective"), when it gives one. */
  @IsOptional()
  @IsCalendarDate()
  @ApiPropertyOptional({ format: 'date' })
  pageDate?: string;

  /**
   * When `url` is a copy of the provider's own page (a mirror the stored copies had, the provider's page
   * not being readable here): the provider's address of that page. The figures were read from `url`.
   */
  @IsOptional()
  @IsUrl(HTTP_URL)
  @ApiPropertyOptional({ format: 'uri' })
  copyOf?: string;
}
