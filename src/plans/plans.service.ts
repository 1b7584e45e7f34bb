import { Injectable } from '@nestjs/common';
import { InvalidArgumentError } from '../common/errors/domain-errors.js';
import { DatasetService } from '../dataset/dataset.service.js';
import { DEFAULT_CURRENCY } from '../dataset/dataset-validator.js';
import { ARCHITECTURES, type Architecture, type PlanLine, type PriceBasis } from '../dataset/dto/plan-line.dto.js';
import { transferFit, type SpecBounds } from '../dataset/plan-figures.js';
import { STALE_AFTER_DAYS } from '../dataset/price-age.js';
import { STORAGE_TYPES, type PlanTableRow } from './dto/plan-table-row.dto.js';
import {
  beyondDataset,
  closestPlans,
  MAX_CLOSEST,
  overOf,
  shortOf,
  type BeyondDataset,
  type ClosestPlan,
  type ConstraintMiss,
  type PlanArchitecture,
  type PlanCpuType,
} from './closest-plans.js';
import { CPU_TYPES, type CpuType } from '../dataset/dto/plan.dto.js';
import {
  placesOf,
  resolveLocation,
  soldInOf,
  soldWhere,
  tallyUnpriced,
  type LocationFilter,
  type SoldIn,
  type UnpricedAtLocation,
} from './plan-locations.js';
import { PlanTableService } from './plan-table.service.js';
import { resolveProviderId } from './provider-ids.js';

export const DEFAULT_PLAN_LIMIT = 10;
export const MAX_PLAN_LIMIT = 50;

export interface PlanQuery extends SpecBounds {
  /** Upper bound on the monthly price, in `currency`. */
  maxMonthlyPrice?: number;
  /** ISO 4217 code prices are compared and bounded in. */
  currency?: string;
  /** `NVMe`, `SSD` or `HDD`, any case. */
  storageType?: string;
  /** `shared` or `dedicated` vCPUs, any case; plans whose CPU type is not in the data never match it. */
  cpuType?: string;
  /** `x86_64` or `arm64`, any case; plans whose line states no architecture never match it. */
  architecture?: string;
  providers?: string[];
  limit?: number;
  /**
   * Rank by the lowest effective monthly price, commitments included (a prepaid term's monthly
   * equivalent, a promotional rate). By default plans are ranked by what they cost with no
   * commitment, and those with no such price are left out and counted.
   */
  includeCommitments?: boolean;
  /** Only plans sold in this data-centre city (any case, accents optional), at the price there. */
  location?: string;
  /** Only plans sold in a data centre in this country (ISO 3166-1 alpha-2), at the lowest known price there. */
  country?: string;
  /** Only plans whose price the provider showed at most this many whole days before today (UTC). */
  maxPriceAgeDays?: number;
  /** List plans of discontinued lines too (flagged); by default they are left out and counted. */
  includeDiscontinued?: boolean;
  /** List plans the provider shows as not orderable too (flagged); by default they are left out and counted. */
  includeUnorderable?: boolean;
}

/** The filters a search applied, normalized: defaults filled in, codes and names as the dataset spells them. */
export interface AppliedPlanFilters extends SpecBounds, LocationFilter {
  maxMonthlyPrice?: number;
  currency: string;
  storageType?: (typeof STORAGE_TYPES)[number];
  cpuType?: CpuType;
  architecture?: Architecture;
  providers?: string[];
  includeCommitments: boolean;
  maxPriceAgeDays?: number;
  includeDiscontinued: boolean;
  includeUnorderable: boolean;
  limit: number;
}

/** What the prices of a search were compared on. */
export type ComparedOn = 'no-commitment' | 'lowest-effective';

/** One plan that met every constraint, and where its line is sold. */
export interface PlanMatch extends SoldIn {
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
  /** True when the provider does not meter the plan's traffic. */
  unmetered: boolean;
  /** Shared or dedicated vCPUs; "unknown" where the plan line's data does not say. */
  cpuType: PlanCpuType;
  /** The CPU architecture the plan line's data states (with a source), or "unknown". */
  architecture: PlanArchitecture;
  /** How `price` is paid, and what it becomes: the plan's pricing fields as the API serves them. */
  priceBasis: PriceBasis;
  termMonths: number | null;
  promotional: boolean;
  renewalPrice: number | null;
  monthToMonthPrice: number | null;
  /** The age of the price: when the provider showed it, and whether it is stale (and why). */
  observedAt: string;
  priceAgeDays: number;
  stale: boolean;
  staleReason: string | null;
  /** How the price was read: provider-api, provider-page, copy or editorial. */
  priceSourceMethod: PlanTableRow['priceSourceMethod'];
  /** True for a plan of a line no longer sold (listed only with includeDiscontinued), with the line that replaces it. */
  discontinued: boolean;
  successor: string | null;
  /** Whether the plan can be ordered, as last read (false only with includeUnorderable). */
  orderable: boolean | 'unknown';
  url: string;
  /** With a location filter: the data centres there where the plan is sold at `normalizedPrice`. */
  datacenters?: string[];
  /** With a location filter, where the price there differs from the list: the multiple applied, and the dataset's note. */
  regionalPriceFactor?: number;
  regionalPriceNote?: string;
}

/** Plans sold in the requested location at a price the dataset does not have, by provider and line. */
export interface PlanSearchResult {
  filters: AppliedPlanFilters;
  plans: PlanMatch[];
  /** Plans that met the constraints before `limit` was applied. */
  totalMatches: number;
  /** The price each plan was ranked and bounded by: with no commitment (default), or the lowest effective one. */
  comparedOn: ComparedOn;
  /** Plans that met every constraint but were left out because they have no no-commitment price (0 with includeCommitments). */
  leftOutNeedingCommitment: number;
  /** Plans that met every constraint but were left out because their line is no longer sold (0 with includeDiscontinued). */
  leftOutDiscontinued: number;
  /** Plans that met every constraint but were left out because the provider shows them as not orderable (0 with includeUnorderable). */
  leftOutUnorderable: number;
  /**
   * Only with minTransferTb: plans that met every other constraint but whose traffic allowance the
   * provider does not state as a volume or as unmetered, so they are not counted as meeting it.
   */
  leftOutTransferUnknown?: number;
  /** Only when leftOutTransferUnknown is above 0: what that means, for the user. */
  transferNote?: string;
  /** How many of the `totalMatches` plans rest on a stale price. */
  stalePrices: number;
  /** Only when `stalePrices` is above 0: what a stale price means and what to do about it. */
  stalePriceNote?: string;
  currency: string;
  /** Day of the oldest exchange rate the comparison converts with; the newest rate's day when it converts nothing. */
  exchangeRatesDate: string;
  /** The dataset version (release day) every price and its age is read from. */
  datasetVersion: string;
  /** With a location filter: plans that meet every constraint and are sold there, but at a price not in the dataset (left out). */
  priceUnknownAtLocation?: UnpricedAtLocation[];
  /**
   * Only when nothing matched: the plans closest to matching, each with the constraints it misses and
   * by how much; with a price ceiling, plans that meet everything above it first, then plans within it.
   */
  closestMatches?: ClosestPlan[];
  /** Only when nothing matched and a minimum asked for is beyond every plan still sold: which, and the largest figures there are. */
  beyondDataset?: BeyondDataset;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Finds plans across providers by resources and price, comparing prices in one currency. */
@Injectable()
export class PlansService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly table: PlanTableService,
  ) {}

  /**
   * Every plan meeting all constraints, cheapest first by its compared price (with no commitment
   * unless `includeCommitments`, at the regional price of the location when one is given) converted
   * to `currency`; ties go to provider id, then plan name. With no match, the closest plans and what
   * each misses. Throws InvalidArgumentError or NotFoundError for unusable arguments.
   */
  find(query: PlanQuery): PlanSearchResult {
    const snapshot = this.dataset.current;
    const { exchangeRates, providersById } = snapshot;
    const filters = this.normalize(query);
    const { currency } = filters;
    const providers = filters.providers ? new Set(filters.providers) : undefined;
    const where: LocationFilter | undefined =
      filters.location || filters.country ? { location: filters.location, country: filters.country } : undefined;
    const comparedOn: ComparedOn = filters.includeCommitments ? 'lowest-effective' : 'no-commitment';

    const matches: PlanMatch[] = [];
    const nearMisses: ClosestPlan[] = [];
    const unpriced = new Map<string, UnpricedAtLocation>();
    let leftOutNeedingCommitment = 0;
    let leftOutDiscontinued = 0;
    let leftOutUnorderable = 0;
    let leftOutTransferUnknown = 0;
    const converted = new Set<string>();
    for (const row of this.table.rows()) {
      const provider = providersById.get(row.providerId)!;
      const line = provider.planLines.find((l) => l.id === row.lineId)!;
      const misses: ConstraintMiss[] = [];
      if (providers && !providers.has(row.providerId))
        misses.push({ constraint: 'providers', required: [...providers], actual: row.providerId });
      for (const [constraint, figure] of [
        ['minVcpus', 'vcpus'],
        ['minRamGb', 'ramGb'],
        ['minStorageGb', 'storageGb'],
      ] as const) {
        const min = filters[constraint];
        if (min !== undefined && !(row[figure] !== null && row[figure] >= min))
          misses.push(shortOf(constraint, min, row[figure]));
      }
      const transfer = filters.minTransferTb === undefined ? undefined : transferFit(row, filters.minTransferTb);
      if (transfer !== undefined && transfer !== 'meets') misses.push(transferMiss(filters.minTransferTb!, row));
      if (filters.storageType && row.storageType !== filters.storageType)
        misses.push({ constraint: 'storageType', required: filters.storageType, actual: row.storageType });
      if (filters.cpuType && cpuTypeOf(row) !== filters.cpuType)
        misses.push({ constraint: 'cpuType', required: filters.cpuType, actual: cpuTypeOf(row) });
      if (filters.architecture && architectureOf(line) !== filters.architecture)
        misses.push({ constraint: 'architecture', required: filters.architecture, actual: architectureOf(line) });
      if (filters.maxPriceAgeDays !== undefined && row.priceAgeDays > filters.maxPriceAgeDays)
        misses.push(overOf(filters.maxPriceAgeDays, row.priceAgeDays, 'maxPriceAgeDays'));
      const compared = comparedOn === 'no-commitment' ? row.monthToMonthPrice : row.price;
      if (compared === null)
        misses.push({
          constraint: 'noCommitment',
          required: 'sold month to month',
          actual: row.termMonths ? `${row.priceBasis} (${row.termMonths} months)` : row.priceBasis,
        });

      let at: { factor: number; cities: string[]; note?: string } | undefined;
      if (where) {
        const places = placesOf(provider, line, where);
        const priced = places.filter((p) => p.priceFactor !== null);
        if (places.length === 0) {
          const sold = soldWhere(provider, line);
          misses.push(
            where.location
              ? { constraint: 'location', required: where.location, actual: sold.cities }
              : { constraint: 'country', required: where.country!, actual: sold.countries },
          );
        } else if (priced.length === 0) {
          // Sold there, at a price the dataset does not have: never ranked on a guess.
          if (misses.length === 0 && offered(row, filters)) tallyUnpriced(unpriced, row, places);
          continue;
        } else {
          const factor = Math.min(...priced.map((p) => p.priceFactor!));
          const cheapest = priced.filter((p) => p.priceFactor === factor);
          at = { factor, cities: cheapest.map((p) => p.city), note: cheapest[0].note };
        }
      }
      // A plan with no no-commitment price is bounded by its effective price, so that the count of
      // those left out is the number includeCommitments would add.
      const normalizedPrice = exchangeRates.convert(
        round2((compared ?? row.price) * (at?.factor ?? 1)),
        row.currency,
        currency,
      );
      converted.add(row.currency);
      if (filters.maxMonthlyPrice !== undefined && normalizedPrice > filters.maxMonthlyPrice)
        misses.push(overOf(filters.maxMonthlyPrice, normalizedPrice));

      // A line no longer sold, or a plan that cannot be ordered, is never offered as a match (nor as a near one) unless asked for.
      if (row.discontinued && !filters.includeDiscontinued) {
        if (misses.length === 0) leftOutDiscontinued += 1;
        continue;
      }
      // A discontinued line is not orderable either; that is includeDiscontinued's to decide.
      if (!row.discontinued && row.orderable === false && !filters.includeUnorderable) {
        if (misses.length === 0) leftOutUnorderable += 1;
        continue;
      }
      if (misses.length === 0)
        matches.push(toMatch(row, normalizedPrice, currency, soldInOf(provider, line), architectureOf(line), at));
      else if (misses.length === 1 && misses[0].constraint === 'noCommitment') leftOutNeedingCommitment += 1;
      else if (misses.length === 1 && transfer === 'unknown') leftOutTransferUnknown += 1;
      if (misses.length > 0) nearMisses.push(toClosest(row, normalizedPrice, misses));
    }
    matches.sort(
      (a, b) =>
        a.normalizedPrice - b.normalizedPrice ||
        a.providerId.localeCompare(b.providerId) ||
        a.planName.localeCompare(b.planName),
    );
    const stalePrices = matches.filter((m) => m.stale).length;
    return {
      filters,
      plans: matches.slice(0, filters.limit),
      totalMatches: matches.length,
      comparedOn,
      leftOutNeedingCommitment,
      leftOutDiscontinued,
      leftOutUnorderable,
      ...(filters.minTransferTb !== undefined ? { leftOutTransferUnknown } : {}),
      ...(leftOutTransferUnknown > 0
        ? { transferNote: transferNote(leftOutTransferUnknown, filters.minTransferTb!) }
        : {}),
      stalePrices,
      ...(stalePrices > 0 ? { stalePriceNote: stalePriceNote(stalePrices, matches.length) } : {}),
      currency,
      exchangeRatesDate: exchangeRates.dateUsedBy([...converted].map((from) => [from, currency] as const)),
      datasetVersion: snapshot.version,
      ...(where ? { priceUnknownAtLocation: [...unpriced.values()] } : {}),
      ...(matches.length === 0
        ? {
            closestMatches: closestPlans(
              nearMisses,
              Math.min(filters.limit, MAX_CLOSEST),
              filters.maxMonthlyPrice !== undefined,
            ),
          }
        : {}),
      ...(matches.length === 0 ? beyond(filters, this.table.rows()) : {}),
    };
  }

  /** Checks every argument against the dataset and fills in the defaults. */
  private normalize(query: PlanQuery): AppliedPlanFilters {
    const { exchangeRates, providersById, providers } = this.dataset.current;
    const currency = (query.currency ?? DEFAULT_CURRENCY).toUpperCase();
    if (!exchangeRates.has(currency)) {
      throw new InvalidArgumentError(
        'currency',
        `No exchange rate for "${currency.slice(0, 10)}". Use one of: ${exchangeRates.currencies.join(', ')}.`,
      );
    }
    const ids = [...providersById.keys()];
    const providerIds = query.providers?.map((id) => resolveProviderId(id, ids));
    const storageType =
      query.storageType === undefined
        ? undefined
        : STORAGE_TYPES.find((t) => t.toLowerCase() === query.storageType!.toLowerCase());
    if (query.storageType !== undefined && !storageType)
      throw new InvalidArgumentError('storageType', `Use one of ${STORAGE_TYPES.join(', ')}.`);
    const cpuType =
      query.cpuType === undefined ? undefined : CPU_TYPES.find((t) => t === query.cpuType!.trim().toLowerCase());
    if (query.cpuType !== undefined && !cpuType)
      throw new InvalidArgumentError('cpuType', `Use one of ${CPU_TYPES.join(', ')}.`);
    const architecture = ARCHITECTURES.find((a) => a === query.architecture?.trim().toLowerCase());
    if (query.architecture !== undefined && !architecture)
      throw new InvalidArgumentError('architecture', `Use one of ${ARCHITECTURES.join(', ')}.`);
    if (query.minTransferTb !== undefined && !(Number.isFinite(query.minTransferTb) && query.minTransferTb > 0)) {
      throw new InvalidArgumentError('minTransferTb', 'Use a monthly traffic volume in TB above 0, e.g. 2 or 0.5.');
    }
    if (
      query.maxPriceAgeDays !== undefined &&
      !(Number.isInteger(query.maxPriceAgeDays) && query.maxPriceAgeDays > 0)
    ) {
      throw new InvalidArgumentError(
        'maxPriceAgeDays',
        'Use a whole number of days, 1 or more (e.g. 90 keeps only prices that are not stale by age).',
      );
    }
    const where = resolveLocation(providers, query.location, query.country);
    const defined = <T extends object>(o: T) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
    return defined({
      minVcpus: query.minVcpus,
      minRamGb: query.minRamGb,
      minStorageGb: query.minStorageGb,
      minTransferTb: query.minTransferTb,
      maxMonthlyPrice: query.maxMonthlyPrice,
      currency,
      storageType,
      cpuType,
      architecture,
      providers: providerIds?.length ? [...new Set(providerIds)] : undefined,
      location: where?.location,
      country: where?.country,
      includeCommitments: query.includeCommitments ?? false,
      maxPriceAgeDays: query.maxPriceAgeDays,
      includeDiscontinued: query.includeDiscontinued ?? false,
      includeUnorderable: query.includeUnorderable ?? false,
      limit: Math.min(Math.max(1, Math.trunc(query.limit ?? DEFAULT_PLAN_LIMIT)), MAX_PLAN_LIMIT),
    });
  }
}

/** `{ beyondDataset }` when a minimum of the search is beyond every plan still sold, else nothing. */
function beyond(filters: SpecBounds, rows: readonly PlanTableRow[]): { beyondDataset?: BeyondDataset } {
  const found = beyondDataset(filters, rows);
  return found ? { beyondDataset: found } : {};
}

/** A line's CPU architecture as its data states it, or "unknown": never guessed from a name. */
export function architectureOf(line: Pick<PlanLine, 'architecture'>): PlanArchitecture {
  return line.architecture?.value ?? 'unknown';
}

/** A row's CPU type, or "unknown" when the data holds none of the known kinds: never guessed from the plan's name. */
export function cpuTypeOf(row: Pick<PlanTableRow, 'cpuType'>): PlanCpuType {
  return (CPU_TYPES as readonly string[]).includes(row.cpuType) ? row.cpuType : 'unknown';
}

/** A plan whose allowance is below the need, or not stated: what it has instead. */
function transferMiss(required: number, row: PlanTableRow): ConstraintMiss {
  if (row.bandwidthTb === null)
    return { constraint: 'minTransferTb', required, actual: `not stated as a volume ("${row.bandwidth}")` };
  return shortOf('minTransferTb', required, row.bandwidthTb);
}

/** The sentence an answer carries when plans were left out for an allowance the provider does not size. */
function transferNote(count: number, minTb: number): string {
  return `${count} plan${count === 1 ? '' : 's'} met every other filter but ${count === 1 ? 'its' : 'their'} traffic allowance is not stated as a volume or as unmetered (e.g. "Fair-use allowance"), so ${count === 1 ? 'it is' : 'they are'} not counted as including ${minTb} TB a month: ask the provider for the allowance.`;
}

/** The sentence an answer with stale prices carries. */
function stalePriceNote(stale: number, total: number): string {
  return `${stale} of the ${total} matches rest on stale prices (seen over ${STALE_AFTER_DAYS} days ago, or before a reported price change): confirm them at the provider.`;
}

function toClosest(row: PlanTableRow, normalizedPrice: number, misses: ConstraintMiss[]): ClosestPlan {
  return {
    providerId: row.providerId,
    planName: row.planName,
    normalizedPrice,
    vcpus: row.vcpus,
    ramGb: row.ramGb,
    storageGb: row.storageGb,
    storageType: row.storageType,
    cpuType: cpuTypeOf(row),
    observedAt: row.observedAt,
    stale: row.stale,
    misses,
  };
}

/** Whether a row may be offered under these filters: its line still sold and the plan orderable, unless asked for. */
function offered(row: PlanTableRow, filters: Pick<AppliedPlanFilters, 'includeDiscontinued' | 'includeUnorderable'>) {
  return row.discontinued ? filters.includeDiscontinued : row.orderable !== false || filters.includeUnorderable;
}

function toMatch(
  row: PlanTableRow,
  normalizedPrice: number,
  currency: string,
  sold: SoldIn,
  architecture: PlanArchitecture,
  at?: { factor: number; cities: string[]; note?: string },
): PlanMatch {
  return {
    ...sold,
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
    unmetered: row.unmetered,
    cpuType: cpuTypeOf(row),
    architecture,
    priceBasis: row.priceBasis,
    termMonths: row.termMonths,
    promotional: row.promotional,
    renewalPrice: row.renewalPrice,
    monthToMonthPrice: row.monthToMonthPrice,
    observedAt: row.observedAt,
    priceAgeDays: row.priceAgeDays,
    stale: row.stale,
    staleReason: row.staleReason,
    priceSourceMethod: row.priceSourceMethod,
    discontinued: row.discontinued,
    successor: row.successor,
    orderable: row.orderable,
    url: row.reviewUrl,
    ...(at ? { datacenters: at.cities } : {}),
    ...(at && at.factor !== 1 ? { regionalPriceFactor: at.factor, regionalPriceNote: at.note! } : {}),
  };
}
