import { Injectable } from '@nestjs/common';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import { DatasetService } from '../dataset/dataset.service.js';
import { DEFAULT_CURRENCY } from '../dataset/dataset-validator.js';
import { meetsSpec } from '../dataset/plan-figures.js';
import type { PlanTableRow } from './dto/plan-table-row.dto.js';
import { PlanTableService } from './plan-table.service.js';

export interface EquivalentQuery {
  providerId?: string;
  planName?: string;
  vcpus?: number;
  ramGb?: number;
  storageGb?: number;
  currency?: string;
  limit?: number;
}

/** The figures compared side by side. */
export const COMPARED_FIGURES = ['vcpus', 'ramGb', 'storageGb', 'bandwidthTb'] as const;
type Figures = Record<(typeof COMPARED_FIGURES)[number], number | null> & { storageType: string | null };

export interface Equivalent extends Figures {
  providerId: string;
  planName: string;
  price: number;
  currency: string;
  normalizedPrice: number;
  /** The day the provider showed `price`, and whether it is stale. */
  observedAt: string;
  stale: boolean;
  /** Against the reference's no-commitment price; absent when the reference has none. */
  priceDifferencePercent?: number;
  /** Figures below the reference's: only traffic can be, since vCPUs, RAM and disk meet it. */
  lowerThanReference: string[];
  /** Figures that cannot be compared (unmetered or not a volume on one side). */
  notComparable: string[];
}

/** Plans at other providers that meet or exceed a reference plan or figures, cheapest first with no commitment. */
@Injectable()
export class EquivalentPlansService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly table: PlanTableService,
  ) {}

  /** Equivalents of a plan (providerId + planName) or of figures; throws NotFoundError / InvalidArgumentError. */
  find(query: EquivalentQuery) {
    const rates = this.dataset.current.exchangeRates;
    const currency = (query.currency ?? DEFAULT_CURRENCY).toUpperCase();
    if (!rates.has(currency)) throw new InvalidArgumentError('currency', `No exchange rate for "${currency.slice(0, 10)}". Use one of: ${rates.currencies.join(', ')}.`);
    const rows = this.table.rows();
    const refRow = this.referenceRow(query, rows);
    const ref: Figures = refRow
      ? { vcpus: refRow.vcpus, ramGb: refRow.ramGb, storageGb: refRow.storageGb, bandwidthTb: refRow.bandwidthTb, storageType: refRow.storageType ?? null }
      : { vcpus: query.vcpus ?? null, ramGb: query.ramGb ?? null, storageGb: query.storageGb ?? null, bandwidthTb: null, storageType: null };
    if (!refRow && ref.vcpus === null && ref.ramGb === null && ref.storageGb === null) {
      throw new InvalidArgumentError('providerId', 'Give a plan (providerId and planName) or at least one of vcpus, ramGb, storageGb.');
    }
    const refPrice = refRow?.monthToMonthPrice == null ? undefined : rates.convert(refRow.monthToMonthPrice, refRow.currency, currency);
    const bounds = { minVcpus: ref.vcpus ?? undefined, minRamGb: ref.ramGb ?? undefined, minStorageGb: ref.storageGb ?? undefined };
    // Plans of a line no longer sold are not alternatives anyone can buy.
    const equivalents: Equivalent[] = rows
      .filter((r) => r.providerId !== refRow?.providerId && !r.discontinued && r.monthToMonthPrice !== null && meetsSpec(r, bounds))
      .map((r) => {
        const normalizedPrice = rates.convert(r.monthToMonthPrice!, r.currency, currency);
        const lower = COMPARED_FIGURES.filter((f) => r[f] !== null && ref[f] !== null && r[f]! < ref[f]!);
        const notComparable = refRow ? COMPARED_FIGURES.filter((f) => (r[f] === null) !== (ref[f] === null)) : [];
        return {
          providerId: r.providerId,
          planName: r.planName,
          price: r.price,
          currency: r.currency,
          normalizedPrice,
          observedAt: r.observedAt,
          stale: r.stale,
          ...(refPrice ? { priceDifferencePercent: Math.round(((normalizedPrice - refPrice) / refPrice) * 1000) / 10 } : {}),
          vcpus: r.vcpus,
          ramGb: r.ramGb,
          storageGb: r.storageGb,
          bandwidthTb: r.bandwidthTb,
          storageType: r.storageType ?? null,
          lowerThanReference: lower,
          notComparable,
        };
      })
      .sort((a, b) => a.normalizedPrice - b.normalizedPrice || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName));
    const limit = Math.min(Math.max(1, query.limit ?? 10), 50);
    return {
      reference: {
        ...(refRow ? { providerId: refRow.providerId, planName: refRow.planName, price: refRow.price, currency: refRow.currency, observedAt: refRow.observedAt, stale: refRow.stale } : {}),
        ...(refPrice === undefined ? {} : { normalizedPrice: refPrice }),
        ...ref,
      },
      comparedOn: 'no-commitment' as const,
      currency,
      exchangeRatesDate: rates.date,
      totalMatches: equivalents.length,
      equivalents: equivalents.slice(0, limit),
    };
  }

  private referenceRow(query: EquivalentQuery, rows: readonly PlanTableRow[]): PlanTableRow | undefined {
    if (query.providerId === undefined && query.planName === undefined) return undefined;
    const ids = [...this.dataset.current.providersById.keys()];
    if (query.providerId === undefined || query.planName === undefined) throw new InvalidArgumentError('providerId', 'Give both providerId and planName, or figures instead.');
    if (!ids.includes(query.providerId)) throw new NotFoundError('provider', query.providerId, ids);
    const own = rows.filter((r) => r.providerId === query.providerId);
    const row = own.find((r) => r.planName.toLowerCase() === query.planName!.toLowerCase());
    if (row) return row;
    const elsewhere = rows.find((r) => r.planName.toLowerCase() === query.planName!.toLowerCase());
    throw new InvalidArgumentError('planName', `${query.providerId} sells no plan named "${query.planName.slice(0, 64)}".${elsewhere ? ` "${elsewhere.planName}" is a plan of ${elsewhere.providerId}.` : ''} Plans of ${query.providerId}: ${own.map((r) => r.planName).join(', ')}.`);
  }
}
