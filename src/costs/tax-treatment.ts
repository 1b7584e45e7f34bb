import type { ProviderRecord } from '../dataset/dto/provider.dto.js';
import type { TaxCustomer } from '../dataset/dto/tax.dto.js';
import type { VatRate } from '../dataset/dto/vat-rates.dto.js';
import { EU_COUNTRIES, UK_COUNTRY } from '../dataset/add-on-rules.js';

/** The tax rate a customer pays on a provider's prices, in percent, or why it is unknown. */
export type TaxRate = { known: true; percent: number; note: string } | { known: false; reason: string };

/** Which of a provider's tax cases applies to a customer, or undefined outside the EU, the UK and the US. */
export function taxCustomer(country: string, business: boolean): TaxCustomer | undefined {
  if ((EU_COUNTRIES as readonly string[]).includes(country)) return business ? 'euBusinessWithVatId' : 'euConsumer';
  if (country === UK_COUNTRY) return business ? 'ukBusiness' : 'ukConsumer';
  if (country === 'US') return business ? 'usBusiness' : 'usConsumer';
  return undefined;
}

/**
 * The rate from the provider's stated treatment and the dataset's VAT table. A reverse charge only
 * covers sales across a border, so a business in the provider's home country is left unknown: the
 * dataset does not say which entity invoices it.
 */
export function taxRate(
  provider: ProviderRecord,
  country: string,
  business: boolean,
  vatRates: Record<string, VatRate>,
): TaxRate {
  const customer = taxCustomer(country, business);
  if (!customer)
    return {
      known: false,
      reason: `The dataset records tax treatment for EU, UK (GB) and US customers only, not ${country}.`,
    };
  const taxCase = provider.tax[customer];
  switch (taxCase.treatment) {
    case 'customer-country-vat': {
      const vat = vatRates[country];
      if (!vat) return { known: false, reason: `No VAT rate for ${country} in the dataset.` };
      return {
        known: true,
        percent: vat.standardRate,
        note: `${provider.name} adds VAT at ${vat.country}'s standard rate, ${vat.standardRate}%.`,
      };
    }
    case 'reverse-charge':
      if (country === provider.headquarters.country) {
        return {
          known: false,
          reason: `A business in ${country}, ${provider.name}'s home country, is not covered by the reverse charge, and the dataset does not say which VAT its invoice carries.`,
        };
      }
      return {
        known: true,
        percent: 0,
        note: `${provider.name} invoices a business with a valid VAT id without VAT (reverse charge): the business accounts for the VAT itself.`,
      };
    case 'us-sales-tax':
      return {
        known: false,
        reason: `${provider.name} adds US sales tax at a rate that depends on the state; the rates are not in the dataset.${taxCase.note ? ` ${taxCase.note}` : ''}`,
      };
    case 'unknown':
      return { known: false, reason: taxCase.unknownReason ?? 'Not confirmed.' };
  }
}
