import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsNotEmpty, IsNumber, IsObject, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Source } from './source.dto.js';
import { IsCalendarDate } from './validators.js';

/** The standard VAT rate of one country. */
export class VatRate {
  /** Country name in English. */
  @IsString()
  @IsNotEmpty()
  country: string;

  /** Standard rate in percent, e.g. 19. */
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  @Max(100)
  @ApiProperty({ example: 19 })
  standardRate: number;

  /** Day the rate took effect. */
  @IsCalendarDate()
  @ApiProperty({ format: 'date' })
  since: string;

  @ValidateNested()
  @Type(() => Source)
  source: Source;
}

/** `vat-rates.json`: the standard VAT rate of every EU member state and the United Kingdom. */
export class VatRatesRecord {
  @IsString()
  @IsNotEmpty()
  description: string;

  /** Keyed by ISO 3166-1 alpha-2 code (`GB` for the United Kingdom); the validator checks each entry. */
  @IsObject()
  rates: Record<string, VatRate>;
}
