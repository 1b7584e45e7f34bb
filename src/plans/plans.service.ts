import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import { DEFAULT_CURRENCY } from '../dataset/dataset-validator.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { buildPlanRows, meetsSpec, type PlanRow, type SpecBounds } from './plan-rows.js';

export const DEFAULT_PLAN_LIMIT = 10;
export const MAX_PLAN_LIMIT = 50;

export interface PlanQuery extends SpecBounds {
  /** Upper bound on the monthly price, in `currency`. */
  maxMonthlyPrice?: number;
  /** ISO 4217 code prices are compared and bounded in. */
  currency?: string;
  /** `NVMe`, `SSD` or `HDD`, any case. */
  storageType?: string;
  providers?: string[];
  limit?: number;
}

/** One plan that met every constraint. */
export interface PlanMatch {
  providerId: string;
  providerName: string;
  planName: string;
  price: number;
  currency: string;
  normalizedPrice: number;
  normalizedCurrency: string;
  cpu: string;
  ram: string;
  storage: string;
  bandwidth: string;
  vcpus: number | null;
  ramGb: number | null;
  storageGb: number | null;
  bandwidthTb: number | null;
  url: string;
}

export interface PlanSearchResult {
  plans: PlanMatch[];
  /** Plans that met the constraints before `limit` was applied. */
  totalMatches: number;
  currency: string;
  exchangeRatesDate: string;
}

/** Finds plans across providers by resources and price, comparing prices in one currency. */
@Injectable()
export class PlansService {
  private readonly rows: DatasetView<PlanRow[]>;

  constructor(
    private readonly dataset: DatasetService,
    config: AppConfig,
  ) {
    this.rows = dataset.view((snapshot) => buildPlanRows(snapshot, config));
  }

  /** Every plan of a snapshot, with parsed figures (computed once per snapshot). */
  rowsFor(snapshot: DatasetSnapshot): readonly PlanRow[] {
    return this.rows.for(snapshot);
  }

  /**
   * Every plan meeting all constraints, cheapest first by price converted to `currency`; ties go to
   * provider id, then plan name. Throws InvalidArgumentError or NotFoundError for unusable arguments.
   */
  find(query: PlanQuery): PlanSearchResult {
    const { exchangeRates, providersById } = this.dataset.current;
    const currency = (query.currency ?? DEFAULT_CURRENCY).toUpperCase();
    if (!exchangeRates.has(currency)) {
      throw new InvalidArgumentError('currency', `No exchange rate for "${currency.slice(0, 10)}". Use one of: ${exchangeRates.currencies.join(', ')}.`);
    }
    const ids = [...providersById.keys()];
    for (const id of query.providers ?? []) {
      if (!providersById.has(id)) throw new NotFoundError('provider', id, ids);
    }
    const providers = query.providers?.length ? new Set(query.providers) : undefined;
    const storageType = query.storageType?.toLowerCase();
    const limit = Math.min(Math.max(1, Math.trunc(query.limit ?? DEFAULT_PLAN_LIMIT)), MAX_PLAN_LIMIT);

    const matches: PlanMatch[] = [];
    for (const row of this.rows.get()) {
      if (providers && !providers.has(row.providerId)) continue;
      if (!meetsSpec(row, query)) continue;
      if (storageType && row.storageType?.toLowerCase() !== storageType) continue;
      const normalizedPrice = exchangeRates.convert(row.plan.price, row.plan.currency, currency);
      if (query.maxMonthlyPrice !== undefined && normalizedPrice > query.maxMonthlyPrice) continue;
      matches.push(toMatch(row, normalizedPrice, currency));
    }
    matches.sort(
      (a, b) => a.normalizedPrice - b.normalizedPrice || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName),
    );
    return { plans: matches.slice(0, limit), totalMatches: matches.length, currency, exchangeRatesDate: exchangeRates.date };
  }
}

function toMatch(row: PlanRow, normalizedPrice: number, currency: string): PlanMatch {
  const { plan } = row;
  return {
    providerId: row.providerId,
    providerName: row.providerName,
    planName: plan.name,
    price: plan.price,
    currency: plan.currency,
    normalizedPrice,
    normalizedCurrency: currency,
    cpu: plan.cpu,
    ram: plan.ram,
    storage: plan.storage,
    bandwidth: plan.bandwidth,
    vcpus: row.vcpus,
    ramGb: row.ramGb,
    storageGb: row.storageGb,
    bandwidthTb: row.bandwidthTb,
    url: row.url,
  };
}
