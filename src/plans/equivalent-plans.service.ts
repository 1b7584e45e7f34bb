import { Injectable } from '@nestjs/common';
import { InvalidArgumentError } from '../common/errors/domain-errors.js';
import { didYouMean } from '../common/suggest.js';
import { resolveProviderId } from './provider-ids.js';
import { DatasetService } from '../dataset/dataset.service.js';
import { DEFAULT_CURRENCY } from '../dataset/dataset-validator.js';
import { CPU_TYPES } from '../dataset/dto/plan.dto.js';
import { meetsSpec } from '../dataset/plan-figures.js';
import type { PlanCpuType } from './closest-plans.js';
import type { PlanTableRow } from './dto/plan-table-row.dto.js';
import {
  placesOf,
  resolveLocation,
  soldInOf,
  tallyUnpriced,
  type LocationFilter,
  type PlanPlace,
  type SoldIn,
  type UnpricedAtLocation,
} from './plan-locations.js';
import { refusePlanWithFigures } from './argument-conflicts.js';
import { PlanTableService } from './plan-table.service.js';
import { cpuTypeOf } from './plans.service.js';

export interface EquivalentQuery {
  providerId?: string;
  planName?: string;
  vcpus?: number;
  ramGb?: number;
  storageGb?: number;
  /** Without a plan: `shared` or `dedicated` vCPUs to match (any case); a plan's own CPU type otherwise. */
  cpuType?: string;
  currency?: string;
  limit?: number;
  /** Only plans sold in this data-centre city (any case, accents optional), at the price there. */
  location?: string;
  /** Only plans sold in a data centre in this country (ISO 3166-1 alpha-2), at the lowest known price there. */
  country?: string;
  /** List plans the provider shows as not orderable too (flagged); by default they are left out. */
  includeUnorderable?: boolean;
}

/** The figures compared side by side. */
export const COMPARED_FIGURES = ['vcpus', 'ramGb', 'storageGb', 'bandwidthTb'] as const;
/** The figures, and whether traffic is unmetered (`bandwidthTb` null then): an unmetered allowance meets any volume. */
type Figures = Record<(typeof COMPARED_FIGURES)[number], number | null> & {
  storageType: string | null;
  unmetered: boolean;
};

/**
 * Which figures of a plan are below the reference's, and which cannot be compared. Traffic follows the
 * one rule of plan search (transferFit): an unmetered allowance meets any volume, a stated volume meets
 * a need up to it, an allowance stated neither way compares with nothing.
 */
export function comparedWith(
  r: Figures,
  ref: Figures,
  byPlan: boolean,
): { lowerThanReference: string[]; notComparable: string[] } {
  const lowerThanReference: string[] = [];
  const notComparable: string[] = [];
  for (const f of ['vcpus', 'ramGb', 'storageGb'] as const) {
    if (r[f] !== null && ref[f] !== null && r[f] < ref[f]) lowerThanReference.push(f);
    else if (byPlan && (r[f] === null) !== (ref[f] === null)) notComparable.push(f);
  }
  const refStated = ref.unmetered || ref.bandwidthTb !== null;
  if (byPlan && refStated && !r.unmetered) {
    if (r.bandwidthTb === null) notComparable.push('bandwidthTb');
    else if (ref.unmetered || r.bandwidthTb < ref.bandwidthTb!) lowerThanReference.push('bandwidthTb');
  } else if (byPlan && !refStated && (r.unmetered || r.bandwidthTb !== null)) notComparable.push('bandwidthTb');
  return { lowerThanReference, notComparable };
}

/** How many plans with shared vCPUs a dedicated reference lists beside its equivalents, at most. */
export const MAX_SHARED_ALTERNATIVES = 3;

export interface Equivalent extends Figures, SoldIn {
  providerId: string;
  planName: string;
  price: number;
  currency: string;
  normalizedPrice: number;
  cpuType: PlanCpuType;
  /** The day the provider showed `price`, and whether it is stale. */
  observedAt: string;
  stale: boolean;
  /** Present, false, only for a plan the provider shows as not orderable (listed only with includeUnorderable). */
  orderable?: false;
  /** Against the reference's no-commitment price; absent when the reference has none. */
  priceDifferencePercent?: number;
  /** Figures below the reference's: traffic can be, and (among sharedCpuAlternatives only) cpuType. */
  lowerThanReference: string[];
  /** Figures that cannot be compared (unmetered or not a volume on one side). */
  notComparable: string[];
  /** With a location: the data centres there where the plan is sold at `normalizedPrice`, and the regional multiple when not 1. */
  datacenters?: string[];
  regionalPriceFactor?: number;
}

/** A plan with shared vCPUs that meets a dedicated reference's figures: cheaper, but lower, and why. */
export interface LowerEquivalent extends Equivalent {
  reason: string;
}

/** Plans at other providers that meet or exceed a reference plan or figures, cheapest first with no commitment. */
@Injectable()
export class EquivalentPlansService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly table: PlanTableService,
  ) {}

  /**
   * Equivalents of a plan (providerId + planName) or of figures, sold where `location`/`country`
   * says when given; a dedicated-vCPU reference is met only by dedicated plans (shared ones are
   * listed apart as lower). Throws NotFoundError / InvalidArgumentError.
   */
  find(query: EquivalentQuery) {
    const snapshot = this.dataset.current;
    const rates = snapshot.exchangeRates;
    const currency = (query.currency ?? DEFAULT_CURRENCY).toUpperCase();
    if (!rates.has(currency))
      throw new InvalidArgumentError(
        'currency',
        `No exchange rate for "${currency.slice(0, 10)}". Use one of: ${rates.currencies.join(', ')}.`,
      );
    refusePlanWithFigures(query, ['vcpus', 'ramGb', 'storageGb', 'cpuType']);
    const where = resolveLocation(snapshot.providers, query.location, query.country);
    const rows = this.table.rows();
    const refRow = this.referenceRow(query, rows);
    const ref: Figures = refRow
      ? {
          vcpus: refRow.vcpus,
          ramGb: refRow.ramGb,
          storageGb: refRow.storageGb,
          bandwidthTb: refRow.bandwidthTb,
          storageType: refRow.storageType ?? null,
          unmetered: refRow.unmetered,
        }
      : {
          vcpus: query.vcpus ?? null,
          ramGb: query.ramGb ?? null,
          storageGb: query.storageGb ?? null,
          bandwidthTb: null,
          storageType: null,
          unmetered: false,
        };
    if (!refRow && ref.vcpus === null && ref.ramGb === null && ref.storageGb === null) {
      throw new InvalidArgumentError(
        'providerId',
        'Give a plan (providerId and planName) or at least one of vcpus, ramGb, storageGb.',
      );
    }
    const refCpu = refRow ? cpuTypeOf(refRow) : this.cpuTypeArgument(query.cpuType);
    const refPrice =
      refRow?.monthToMonthPrice == null
        ? undefined
        : rates.convert(refRow.monthToMonthPrice, refRow.currency, currency);
    const bounds = {
      minVcpus: ref.vcpus ?? undefined,
      minRamGb: ref.ramGb ?? undefined,
      minStorageGb: ref.storageGb ?? undefined,
    };

    // Every plan still sold month to month at another provider that meets the figures, priced where asked.
    const unpriced = new Map<string, UnpricedAtLocation>();
    const candidates: Equivalent[] = [];
    for (const r of rows) {
      // Plans of a line no longer sold are not alternatives anyone can buy.
      if (
        r.providerId === refRow?.providerId ||
        r.discontinued ||
        (r.orderable === false && !query.includeUnorderable) ||
        r.monthToMonthPrice === null ||
        !meetsSpec(r, bounds)
      )
        continue;
      const at = where ? this.priceAt(r, where) : { factor: 1 };
      if (at === undefined) continue;
      if ('unpricedIn' in at) {
        tallyUnpriced(unpriced, r, at.unpricedIn);
        continue;
      }
      candidates.push(this.toEquivalent(r, ref, refRow !== undefined, refPrice, currency, at));
    }
    candidates.sort(
      (a, b) =>
        a.normalizedPrice - b.normalizedPrice ||
        a.providerId.localeCompare(b.providerId) ||
        a.planName.localeCompare(b.planName),
    );
    // A dedicated reference is never met by shared vCPUs: those are a downgrade, listed apart with the reason.
    const cpuMeets = (e: Equivalent) =>
      refCpu === undefined ||
      refCpu === 'unknown' ||
      e.cpuType === refCpu ||
      (refCpu === 'shared' && e.cpuType === 'dedicated');
    const equivalents = candidates.filter(cpuMeets);
    const lower = candidates.filter((e) => !cpuMeets(e));
    const limit = Math.min(Math.max(1, query.limit ?? 10), 50);
    const referencePrice = refPrice === undefined ? {} : { normalizedPrice: refPrice };
    return {
      reference: {
        ...(refRow
          ? {
              providerId: refRow.providerId,
              planName: refRow.planName,
              price: refRow.price,
              currency: refRow.currency,
              observedAt: refRow.observedAt,
              stale: refRow.stale,
            }
          : {}),
        ...referencePrice,
        ...ref,
        ...(refCpu ? { cpuType: refCpu } : {}),
      },
      comparedOn: 'no-commitment' as const,
      currency,
      exchangeRatesDate: rates.dateUsedBy(
        [...(refPrice === undefined ? [] : [refRow!]), ...candidates].map((c) => [c.currency, currency] as const),
      ),
      datasetVersion: snapshot.version,
      ...(where ? { location: where } : {}),
      totalMatches: equivalents.length,
      equivalents: equivalents.slice(0, limit),
      ...(refCpu === 'dedicated' && lower.length > 0
        ? {
            sharedCpuAlternatives: lower.slice(0, MAX_SHARED_ALTERNATIVES).map((e): LowerEquivalent => ({
              ...e,
              lowerThanReference: [...e.lowerThanReference, 'cpuType'],
              reason:
                'Shared vCPUs where the reference has dedicated ones: cheaper, but its cores are shared with other tenants, so performance can vary. Not an equal.',
            })),
            sharedCpuLeftOut: lower.length,
          }
        : {}),
      ...(where ? { priceUnknownAtLocation: [...unpriced.values()] } : {}),
      ...(equivalents.length === 0 ? { emptyReason: this.emptyReason(rows, refRow, bounds, refCpu, where) } : {}),
    };
  }

  /** Where a row is sold in the filter: the cheapest known regional factor and its cities; the places when sold there only at unknown prices; undefined when not sold there. */
  private priceAt(
    row: PlanTableRow,
    where: LocationFilter,
  ): { factor: number; cities: string[] } | { unpricedIn: PlanPlace[] } | undefined {
    const provider = this.dataset.current.providersById.get(row.providerId)!;
    const line = provider.planLines.find((l) => l.id === row.lineId)!;
    const places = placesOf(provider, line, where);
    if (places.length === 0) return undefined;
    const priced = places.filter((p) => p.priceFactor !== null);
    if (priced.length === 0) return { unpricedIn: places };
    const factor = Math.min(...priced.map((p) => p.priceFactor!));
    return { factor, cities: priced.filter((p) => p.priceFactor === factor).map((p) => p.city) };
  }

  private toEquivalent(
    r: PlanTableRow,
    ref: Figures,
    byPlan: boolean,
    refPrice: number | undefined,
    currency: string,
    at: { factor: number; cities?: string[] },
  ): Equivalent {
    const { exchangeRates: rates, providersById } = this.dataset.current;
    const provider = providersById.get(r.providerId)!;
    const normalizedPrice = rates.convert(
      Math.round(r.monthToMonthPrice! * at.factor * 100) / 100,
      r.currency,
      currency,
    );
    return {
      providerId: r.providerId,
      planName: r.planName,
      price: r.price,
      currency: r.currency,
      normalizedPrice,
      cpuType: cpuTypeOf(r),
      observedAt: r.observedAt,
      stale: r.stale,
      ...(r.orderable === false ? { orderable: false as const } : {}),
      ...(refPrice
        ? { priceDifferencePercent: Math.round(((normalizedPrice - refPrice) / refPrice) * 1000) / 10 }
        : {}),
      vcpus: r.vcpus,
      ramGb: r.ramGb,
      storageGb: r.storageGb,
      bandwidthTb: r.bandwidthTb,
      storageType: r.storageType ?? null,
      unmetered: r.unmetered,
      ...comparedWith(r, ref, byPlan),
      ...soldInOf(
        provider,
        provider.planLines.find((l) => l.id === r.lineId)!,
      ),
      ...(at.cities ? { datacenters: at.cities } : {}),
      ...(at.factor !== 1 ? { regionalPriceFactor: at.factor } : {}),
    };
  }

  /** Why nothing qualified, and which constraint to relax: each one dropped in turn, with how many plans that would bring. */
  private emptyReason(
    rows: readonly PlanTableRow[],
    refRow: PlanTableRow | undefined,
    bounds: { minVcpus?: number; minRamGb?: number; minStorageGb?: number },
    refCpu: PlanCpuType | undefined,
    where: LocationFilter | undefined,
  ): string {
    const buyable = rows.filter(
      (r) =>
        r.providerId !== refRow?.providerId && !r.discontinued && r.orderable !== false && r.monthToMonthPrice !== null,
    );
    const sized = buyable.filter((r) => meetsSpec(r, bounds));
    const cpuOk = (r: PlanTableRow) =>
      !refCpu || refCpu === 'unknown' || refCpu === 'shared' || cpuTypeOf(r) === refCpu;
    const soldThere = (r: PlanTableRow) => !where || Boolean(this.priceAt(r, where));
    const place = where ? ` in ${where.location ?? where.country}` : '';
    const asked = [
      bounds.minVcpus !== undefined ? `${bounds.minVcpus} vCPUs` : undefined,
      bounds.minRamGb !== undefined ? `${bounds.minRamGb} GB RAM` : undefined,
      bounds.minStorageGb !== undefined ? `${bounds.minStorageGb} GB disk` : undefined,
    ].filter(Boolean);
    const parts = [
      `No plan at ${refRow ? `a provider other than ${refRow.providerId}` : 'any provider'} with at least ${asked.join(', ')}${refCpu === 'dedicated' ? ' and dedicated vCPUs' : ''} is sold month to month${place}.`,
    ];
    const relax: string[] = [];
    const count = (n: number) => `${n} plan${n === 1 ? '' : 's'} qualif${n === 1 ? 'ies' : 'y'}`;
    const anywhere = sized.filter(cpuOk).length;
    const shared = sized.filter(soldThere).length;
    if (where && anywhere > 0) relax.push(`without location/country, ${count(anywhere)}`);
    if (refCpu === 'dedicated' && shared > 0)
      relax.push(`accepting shared vCPUs, ${count(shared)} (lower: see sharedCpuAlternatives)`);
    const smaller = buyable.filter((r) => cpuOk(r) && soldThere(r));
    if (smaller.length > 0) {
      const biggest = (f: 'vcpus' | 'ramGb' | 'storageGb') => Math.max(...smaller.map((r) => r[f] ?? 0));
      relax.push(
        `the largest figures of such plans${place} are ${biggest('vcpus')} vCPUs, ${biggest('ramGb')} GB RAM and ${biggest('storageGb')} GB disk`,
      );
    }
    if (relax.length > 0) parts.push(`To relax: ${relax.join('; ')}.`);
    return parts.join(' ');
  }

  private cpuTypeArgument(cpuType?: string): PlanCpuType | undefined {
    if (cpuType === undefined) return undefined;
    const found = CPU_TYPES.find((t) => t === cpuType.trim().toLowerCase());
    if (!found) throw new InvalidArgumentError('cpuType', `Use one of ${CPU_TYPES.join(', ')}.`);
    return found;
  }

  private referenceRow(query: EquivalentQuery, rows: readonly PlanTableRow[]): PlanTableRow | undefined {
    if (query.providerId === undefined && query.planName === undefined) return undefined;
    const ids = [...this.dataset.current.providersById.keys()];
    if (query.providerId === undefined || query.planName === undefined)
      throw new InvalidArgumentError('providerId', 'Give both providerId and planName, or figures instead.');
    const providerId = resolveProviderId(query.providerId, ids);
    const own = rows.filter((r) => r.providerId === providerId);
    const row = own.find((r) => r.planName.toLowerCase() === query.planName!.toLowerCase());
    if (row) return row;
    const elsewhere = rows.find((r) => r.planName.toLowerCase() === query.planName!.toLowerCase());
    throw new InvalidArgumentError(
      'planName',
      `${providerId} sells no plan named "${query.planName.slice(0, 64)}".${
        elsewhere
          ? ` "${elsewhere.planName}" is a plan of ${elsewhere.providerId}.`
          : didYouMean(
              query.planName,
              own.map((r) => r.planName),
            )
      } Plans of ${providerId}: ${own.map((r) => r.planName).join(', ')}.`,
    );
  }
}
