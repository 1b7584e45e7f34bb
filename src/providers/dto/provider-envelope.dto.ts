import { ApiProperty } from '@nestjs/swagger';
import { ServedProvider } from './served-provider.dto.js';

/** One provider; the record is identical to its entry in the list. */
export class ProviderEnvelope {
  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  provider: ServedProvider;
}
