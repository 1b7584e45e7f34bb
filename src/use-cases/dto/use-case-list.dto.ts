import { ApiProperty } from '@nestjs/swagger';
import { UseCase } from '../../dataset/dto/use-case.dto.js';

/** Every workload use case. */
export class UseCaseList {
  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ example: '2026-02-06' })
  version: string;

  /** Number of use cases. */
  count: number;

  useCases: UseCase[];
}
