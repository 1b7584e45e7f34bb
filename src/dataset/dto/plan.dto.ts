import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsISO4217CurrencyCode, IsNotEmpty, IsNumber, IsString, Matches, Min } from 'class-validator';

export const CPU_TYPES = ['shared', 'dedicated'] as const;
export type CpuType = (typeof CPU_TYPES)[number];

/** One row of a provider's plan matrix, as the provider publishes it. */
export class Plan {
  /** The provider's own plan name. */
  @IsString()
  @IsNotEmpty()
  name: string;

  /** Monthly price excluding VAT, in `currency`. */
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  price: number;

  /** ISO 4217 code of the currency the provider bills this plan in. */
  @IsISO4217CurrencyCode()
  @ApiProperty({ example: 'USD', pattern: '^[A-Z]{3}$' })
  currency: string;

  /** Virtual CPUs, e.g. "2 vCPU". */
  @Matches(/^\d+ vCPU$/, { message: 'must read like "2 vCPU"' })
  cpu: string;

  /** Memory, e.g. "4GB" or "512MB". */
  @Matches(/^\d+(\.\d+)?(MB|GB)$/, { message: 'must read like "4GB" or "512MB"' })
  ram: string;

  /** Disk size and kind, e.g. "80GB NVMe". */
  @Matches(/^\d+(\.\d+)?(GB|TB) ([A-Za-z]+ )?(NVMe|SSD|HDD)$/, { message: 'must read like "80GB NVMe", "25GB MaxIOPS SSD" or "1TB HDD"' })
  storage: string;

  /** Included monthly traffic, e.g. "20TB", or "Unmetered". */
  @IsString()
  @IsNotEmpty()
  bandwidth: string;

  /** Whether the vCPUs are shared with other tenants or dedicated to this server. */
  @IsIn(CPU_TYPES)
  cpuType: CpuType;
}
