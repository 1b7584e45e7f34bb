import { ApiProperty } from '@nestjs/swagger';
import { UseCase } from '../../dataset/dto/use-case.dto.js';

/** Every workload use case. */
export class UseCaseList {
  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  /** Number of use cases. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  count: number;

  useCases: UseCase[];
}
