import { IsNotEmpty, IsString, Matches } from 'class-validator';
import { SLUG_PATTERN } from './validators.js';

/** A guide author, as written in `authors.json`. */
export class AuthorRecord {
  @Matches(SLUG_PATTERN, { message: 'must be a lowercase slug (a-z, 0-9, single hyphens)' })
  id: string;

  @IsString()
  @IsNotEmpty()
  name: string;

  @IsString()
  @IsNotEmpty()
  bio: string;
}
