import { Injectable } from '@nestjs/common';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import { DatasetService } from '../dataset/dataset.service.js';
import { DEFAULT_CURRENCY } from '../dataset/dataset-validator.js';
import type { PriceBasis } from '../dataset/dto/plan-line.dto.js';
import { meetsSpec, type SpecBounds } from '../dataset/plan-figures.js';
import type { PlanTableRow } from './dto/plan-table-row.dto.js';
import { PlanTableService } from './plan-table.service.js';

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
  /**
   * Rank by the lowest effective monthly price, commitments included (a prepaid term's monthly
   * equivalent, a promotional rate). By default plans are ranked by what they cost with no
   * commitment, and those with no such price are left out and counted.
   */
  includeCommitments?: boolean;
}

/** What the prices of a search were compared on. */
export type ComparedOn = 'no-commitment' | 'lowest-effective';

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
  /** How `price` is paid, and what it becomes: the plan's pricing fields as the API serves them. */
  priceBasis: PriceBasis;
  termMonths: number | null;
  promotional: boolean;
  renewalPrice: number | null;
  monthToMonthPrice: number | null;
  url: string;
}

export interface PlanSearchResult {
  plans: PlanMatch[];
  /** Plans that met the constraints before `limit` was applied. */
  totalMatches: number;
  /** The price each plan was ranked and bounded by: with no commitment (default), or the lowest effective one. */
  comparedOn: ComparedOn;
  /** Plans that met every constraint but were left out because they have no no-commitment price (0 with includeCommitments). */
  leftOutNeedingCommitment: number;
  currency: string;
  exchangeRatesDate: string;
}

/** Finds plans across providers by resources and price, comparing prices in one currency. */
@Injectable()
export class PlansService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly table: PlanTableService,
  ) {}

  /**
   * Every plan meeting all constraints, cheapest first by its compared price (with no commitment
   * unless `includeCommitments`) converted to `currency`; ties go to provider id, then plan name. Throws InvalidArgumentError or NotFoundError for unusable arguments.
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

    const comparedOn: ComparedOn = query.includeCommitments ? 'lowest-effective' : 'no-commitment';
    const matches: PlanMatch[] = [];
    let leftOutNeedingCommitment = 0;
    for (const row of this.table.rows()) {
      if (providers && !providers.has(row.providerId)) continue;
      if (!meetsSpec(row, query)) continue;
      if (storageType && row.storageType?.toLowerCase() !== storageType) continue;
      const compared = comparedOn === 'no-commitment' ? row.monthToMonthPrice : row.price;
      // A plan with no no-commitment price is bounded by its effective price, so that the count of
      // those left out is the number includeCommitments would add.
      const normalizedPrice = exchangeRates.convert(compared ?? row.price, row.currency, currency);
      if (query.maxMonthlyPrice !== undefined && normalizedPrice > query.maxMonthlyPrice) continue;
      if (compared === null) leftOutNeedingCommitment += 1;
      else matches.push(toMatch(row, normalizedPrice, currency));
    }
    matches.sort(
      (a, b) => a.normalizedPrice - b.normalizedPrice || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName),
    );
    return {
      plans: matches.slice(0, limit),
      totalMatches: matches.length,
      comparedOn,
      leftOutNeedingCommitment,
      currency,
      exchangeRatesDate: exchangeRates.date,
    };
  }
}

function toMatch(row: PlanTableRow, normalizedPrice: number, currency: string): PlanMatch {
  return {
    providerId: row.providerId,
    providerName: row.providerName,
    planName: row.planName,
    price: row.price,
    currency: row.currency,
    normalizedPrice,
    normalizedCurrency: currency,
    cpu: row.cpu,
    ram: row.ram,
    storage: row.storage,
    bandwidth: row.bandwidth,
    vcpus: row.vcpus,
    ramGb: row.ramGb,
    storageGb: row.storageGb,
    bandwidthTb: row.bandwidthTb,
    priceBasis: row.priceBasis,
    termMonths: row.termMonths,
    promotional: row.promotional,
    renewalPrice: row.renewalPrice,
    monthToMonthPrice: row.monthToMonthPrice,
    url: row.reviewUrl,
  };
}
