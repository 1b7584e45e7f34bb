import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import { IsCalendarDate, SLUG_MAX_LENGTH, SLUG_PATTERN } from './validators.js';

export const GUIDE_TYPES = ['review', 'comparison', 'workload', 'best-of', 'alternatives', 'tutorial'] as const;
export type GuideType = (typeof GUIDE_TYPES)[number];

/** One version as a tutorial names it: `12`, `24.04`, `3.6.1`, `v3.6`, `22.x`, `10.11.6-1`. */
export const SOFTWARE_VERSION = /^v?\d+(?:\.(?:\d+|x))*(?:[-+~][0-9A-Za-z.~+-]+)?$/;

/** The versions of one `verifiedWith` entry: one version, or several separated by commas (`"12, 13"`). */
export const verifiedVersions = (value: string): string[] => value.split(',').map((v) => v.trim());

/** The systems a tutorial may name as supported (`systems`). */
export const TUTORIAL_SYSTEMS = ['debian-12', 'debian-13', 'ubuntu-22.04', 'ubuntu-24.04', 'ubuntu-26.04'] as const;

/**
 * The tutorials' checks run with the tools of Debian releases only. For an Ubuntu release, whose tools
 * cannot run here, the checks use the Debian release of the same generation in its place.
 */
export const CHECKED_IN_PLACE_OF: Readonly<Record<string, string>> = {
  'ubuntu-22.04': 'debian-12',
  'ubuntu-24.04': 'debian-13',
  'ubuntu-26.04': 'debian-13',
};

/** The Debian releases whose tools check a tutorial that names `systems`, in order. */
export const checkedSystems = (systems: readonly string[]): string[] =>
  [
    ...new Set(
      systems.map((s) => (s.startsWith('debian-') ? s : CHECKED_IN_PLACE_OF[s])).filter((s): s is string => Boolean(s)),
    ),
  ].sort();

/** A software name as `verifiedWith` writes it: lowercase, as the product names itself (`docker-engine`, `actions/checkout`). */
export const SOFTWARE_NAME = /^[a-z0-9][a-z0-9._/-]*$/;

/** Software name to a version, or comma-separated versions (`verifiedWith`, `writtenFor`). */
function IsSoftwareVersions(): PropertyDecorator {
  return ValidateBy({
    name: 'isSoftwareVersions',
    validator: {
      validate: (value) =>
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.keys(value).length > 0 &&
        Object.entries(value).every(
          ([name, version]) =>
            SOFTWARE_NAME.test(name) &&
            typeof version === 'string' &&
            verifiedVersions(version).every((v) => SOFTWARE_VERSION.test(v)),
        ),
      defaultMessage: () =>
        'must map each software name (lowercase: a-z, 0-9, . _ / -) to its version, as a quoted string ("12", "24.04", "3.6.1", or several: "12, 13")',
    },
  });
}

/** The front matter of a guide file, `guides/{slug}.md`. */
export class GuideFrontMatter {
  /** Equals the file name without `.md`. */
  @Matches(SLUG_PATTERN, { message: 'must be a lowercase slug (a-z, 0-9, single hyphens)' })
  @MaxLength(SLUG_MAX_LENGTH)
  slug: string;

  @IsString()
  @IsNotEmpty()
  title: string;

  @IsString()
  @IsNotEmpty()
  description: string;

  @IsIn(GUIDE_TYPES, { message: `must be one of ${GUIDE_TYPES.join(', ')}` })
  type: GuideType;

  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  keywords: string[];

  @IsCalendarDate()
  published: string;

  /** Day of the last substantive change; a guide that quotes dataset figures is updated no earlier than them. */
  @IsOptional()
  @IsCalendarDate()
  updated?: string;

  /** Author id from `authors.json`. */
  @Matches(SLUG_PATTERN, { message: 'must be an author id' })
  author: string;

  /**
   * Tutorials: each tool or system a check here ran with (the tutorial checker's tools, the executed
   * runner's software, `debian`) to the versions it ran (product names as in `software-releases.json`).
   * Written with `reviewed`; the system tests refuse an entry no check ran.
   */
  @IsOptional()
  @IsSoftwareVersions()
  verifiedWith?: Record<string, string>;

  /**
   * Tutorials: software the steps were written for at a version no check here ran (e.g. Ubuntu 24.04's
   * PostgreSQL 16 where the runner ran Debian 13's 17). Not verified; written with `reviewed`.
   */
  @IsOptional()
  @IsSoftwareVersions()
  writtenFor?: Record<string, string>;

  /** Day a person or a check last read the tutorial against its software: not before `published`, not after today. */
  @IsOptional()
  @IsCalendarDate()
  reviewed?: string;

  /** Tutorials: the systems the steps are written for (required on a tutorial), e.g. `[debian-13, ubuntu-24.04]`. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(TUTORIAL_SYSTEMS, { each: true })
  systems?: string[];
}

/** A guide in the index; its markdown body is at `markdownUrl`. */
export class Guide {
  /** Stable identifier. */
  @ApiProperty({ example: 'hetzner-review' })
  slug: string;

  title: string;

  /** One sentence on what the reader gets. */
  description: string;

  @ApiProperty({ enum: GUIDE_TYPES })
  type: GuideType;

  keywords: string[];

  /** Day of publication. */
  @ApiProperty({ format: 'date' })
  published: string;

  /** Day of the last substantive change (equal to `published` when there was none); never before the figures the guide quotes. */
  @ApiProperty({ format: 'date' })
  updated: string;

  /** Author id, as in `authors.json`. */
  @ApiProperty({ example: 'lena-brandt' })
  author: string;

  /** The author's display name. */
  @ApiProperty({ example: 'Lena Brandt' })
  authorName: string;

  /** Words in the body. */
  @ApiProperty({ type: 'integer', minimum: 1 })
  wordCount: number;

  /** Estimated reading time at 230 words a minute, at least 1. */
  @ApiProperty({ type: 'integer', minimum: 1 })
  readTimeMinutes: number;

  /** Absolute URL of the HTML page. */
  @ApiProperty({ format: 'uri' })
  url: string;

  /** Absolute URL of the raw markdown. */
  @ApiProperty({ format: 'uri' })
  markdownUrl: string;

  /** Tutorials: each tool or system the checks here ran with, to the versions they ran (absent otherwise). */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { debian: '13', nginx: '1.26' },
  })
  verifiedWith?: Record<string, string>;

  /** Tutorials: software the steps were written for, at versions no check here ran (not verified; absent when none). */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { postgresql: '16' },
  })
  writtenFor?: Record<string, string>;

  /** Day a person or a check last read the tutorial against its software (absent when it states no versions). */
  @ApiPropertyOptional({ format: 'date' })
  reviewed?: string;

  /** Tutorials: the systems the steps are written for (absent on other guides). */
  @ApiPropertyOptional({ type: [String], enum: TUTORIAL_SYSTEMS, example: ['debian-13', 'ubuntu-24.04'] })
  systems?: string[];

  /** Tutorials: the Debian releases whose tools checked the steps; an Ubuntu release in `systems` is checked with the Debian release of its generation in its place. */
  @ApiPropertyOptional({ type: [String], example: ['debian-13'] })
  checkedOn?: string[];
}
