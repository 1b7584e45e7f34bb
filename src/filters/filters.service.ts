import { Injectable } from '@nestjs/common';
import { VAT_COUNTRIES } from '../dataset/add-on-rules.js';
import { DatasetService } from '../dataset/dataset.service.js';
import { GUIDE_TYPES } from '../dataset/dto/guide.dto.js';
import { STORAGE_TYPES } from '../plans/dto/plan-table-row.dto.js';
import type { PlanTableRow } from '../plans/dto/plan-table-row.dto.js';
import { PlanTableService } from '../plans/plan-table.service.js';

type Figure = 'vcpus' | 'ramGb' | 'storageGb' | 'bandwidthTb';

/** The valid values and ranges the tools accept, read from the dataset so an agent never has to guess. */
@Injectable()
export class FiltersService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly table: PlanTableService,
  ) {}

  /** Provider ids, places, storage types, currencies, use-case slugs, guide types and the range of each plan figure. */
  describe() {
    const { providers, useCases, exchangeRates, vatRates } = this.dataset.current;
    const rows = this.table.rows();
    const countries = [...new Set(providers.flatMap((p) => p.datacenters.map((d) => d.country)))].sort();
    const range = (figure: Figure) => {
      const values = rows.map((r: PlanTableRow) => r[figure]).filter((v): v is number => v !== null);
      return { min: Math.min(...values), max: Math.max(...values) };
    };
    const usd = rows.map((r) => r.monthToMonthPriceUsd).filter((v): v is number => v !== null);
    return {
      providers: providers.map((p) => ({
        id: p.id,
        name: p.name,
        currency: p.currency,
        datacenters: p.datacenters.map((d) => ({ city: d.city, country: d.country, region: d.region })),
      })),
      datacenterCountries: countries,
      storageTypes: [...STORAGE_TYPES],
      currencies: exchangeRates.currencies,
      // The answer converts prices into US dollars only (the price range); each currency's rate has its own day.
      exchangeRatesDate: exchangeRates.dateUsedBy(rows.map((r) => [r.currency, 'USD'] as const)),
      rateDates: exchangeRates.rateDates,
      useCaseSlugs: useCases.map((u) => u.slug),
      guideTypes: [...GUIDE_TYPES],
      customerCountries: {
        vatRates: VAT_COUNTRIES.map((code) => ({
          code,
          country: vatRates[code].country,
          standardRate: vatRates[code].standardRate,
        })),
        note: 'estimate_monthly_cost takes any ISO 3166-1 alpha-2 code; tax treatment is recorded for EU member states, GB and US only, so other countries get an unknown tax line.',
      },
      figureRanges: {
        vcpus: range('vcpus'),
        ramGb: range('ramGb'),
        storageGb: range('storageGb'),
        bandwidthTb: range('bandwidthTb'),
        monthToMonthPriceUsd: { min: Math.min(...usd), max: Math.max(...usd) },
      },
    };
  }
}
