import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUrl } from 'class-validator';
import { IsCalendarDate } from './validators.js';

const HTTP_URL = { require_protocol: true, protocols: ['https', 'http'] };

/**
 * How a figure was read:
 * - `provider-api`: from the provider's own catalogue API, by the refresher (`npm run data:refresh`);
 * - `provider-page`: from the provider's own web page, by a program;
 * - `copy`: from a dated copy of the provider's own answer or page that someone else published (`copyOf` names the original);
 * - `editorial`: typed by an editor from the page `url`; no program keeps it current.
 */
export const SOURCE_METHODS = ['provider-api', 'provider-page', 'copy', 'editorial'] as const;
export type SourceMethod = (typeof SOURCE_METHODS)[number];

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

  /** How the figures were read (required for the source of a plan line's prices). */
  @IsOptional()
  @IsIn(SOURCE_METHODS)
  @ApiPropertyOptional({ enum: SOURCE_METHODS })
  method?: SourceMethod;
}
