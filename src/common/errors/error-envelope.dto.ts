import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** What went wrong and what to do about it. */
export class ErrorBody {
  /** Stable, machine-readable code. */
  @ApiProperty({ enum: ERROR_CODES, example: 'not_found' })
  code: ErrorCode;

  /** What went wrong, for a person. */
  message: string;

  /** The HTTP status code, repeated for clients that only see the body. */
  @ApiProperty({ type: 'integer', example: 404 })
  status: number;

  /** What to do next. */
  resolution: string;

  /** Where the API is documented. */
  @ApiProperty({ format: 'uri' })
  documentation: string;
}

/** The one shape of every error answered under `/api/`. */
export class ErrorEnvelope {
  error: ErrorBody;
}
