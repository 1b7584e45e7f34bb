import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsNotEmpty, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Source } from './source.dto.js';
import { OptionalText } from './validators.js';

/**
 * How a provider taxes one kind of customer:
 * - `customer-country-vat`: VAT at the standard rate of the customer's country (`vat-rates.json`);
 * - `reverse-charge`: no VAT on the invoice, the business accounts for it itself;
 * - `us-sales-tax`: US sales tax at a rate that depends on the state (not in the dataset);
 * - `unknown`: could not be confirmed (`unknownReason` says why).
 */
export const TAX_TREATMENTS = ['customer-country-vat', 'reverse-charge', 'us-sales-tax', 'unknown'] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];
export const TAX_CUSTOMERS = [
  'euConsumer',
  'euBusinessWithVatId',
  'ukConsumer',
  'ukBusiness',
  'usConsumer',
  'usBusiness',
] as const;
export type TaxCustomer = (typeof TAX_CUSTOMERS)[number];

/** The tax treatment of one kind of customer. */
export class TaxCase {
  @IsIn(TAX_TREATMENTS)
  @ApiProperty({ enum: TAX_TREATMENTS })
  treatment: TaxTreatment;

  @OptionalText()
  note?: string;

  /** Why the treatment is unknown; required with `unknown`. */
  @OptionalText()
  unknownReason?: string;
}

function Case(): PropertyDecorator {
  return (target, key) => {
    ValidateNested()(target, key);
    Type(() => TaxCase)(target, key);
  };
}

/** Whether VAT or sales tax is added to the prices, for consumers and businesses in the EU, the UK and the US. */
export class ProviderTax {
  @Case() euConsumer: TaxCase;
  /** An EU business that gives a valid VAT id. */
  @Case() euBusinessWithVatId: TaxCase;
  @Case() ukConsumer: TaxCase;
  /** A UK business that gives a valid VAT id. */
  @Case() ukBusiness: TaxCase;
  @Case() usConsumer: TaxCase;
  @Case() usBusiness: TaxCase;

  /** Where the treatments were read; empty when no page could be found. */
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Source)
  sources: Source[];
}
