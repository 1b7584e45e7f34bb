import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { InvalidArgumentError } from '../common/errors/domain-errors.js';
import { carriedDeprecations } from '../dataset/deprecations.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { Spec, SpecRecord, UseCase, UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import { meetsSpec, specBounds, specText } from '../dataset/plan-figures.js';
import { JsonDocument } from '../dataset/json-document.js';
import { reasonClaims } from '../dataset/reason-claims.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { DEFAULT_CURRENCY } from '../dataset/dataset-validator.js';
import type { PlanTableRow as PlanRow } from '../plans/dto/plan-table-row.dto.js';
import { placesOf, resolvePlace } from '../plans/plan-locations.js';
import { PlanTableService } from '../plans/plan-table.service.js';
import { MAX_QUERY_LENGTH, SearchIndex } from '../search/search-index.js';
import type { UseCaseList } from './dto/use-case-list.dto.js';
import { WorkloadMatcher } from './workload-matcher.js';
import { pickWithPlan, type PlanNarrowing, type SpecChoice } from './workload-picks.js';
import type { WorkloadFilters, WorkloadRecommendation } from './workload-recommendation.js';
import { scaleSpec } from './workload-scale.js';

export type Recommendation = Omit<
  WorkloadRecommendation,
  'matchedBy' | 'match' | 'filters' | 'scaledSpec' | 'scaleNote' | 'alternatives' | 'datasetVersion'
>;

/** What narrows a recommendation's picks: a budget (in `currency`, default USD), a place, expected traffic. */
export interface WorkloadNarrowing {
  budget?: number;
  currency?: string;
  location?: string;
  scale?: { visitsPerMonth: number };
  /** Let picks show plans the provider lists but does not let anyone order (flagged). */
  includeUnorderable?: boolean;
}

interface UseCaseViews {
  list: JsonDocument<UseCaseList>;
  /** The answer for each use case, computed once: specs, picks and each pick's cheapest fitting plan. */
  recommendations: ReadonlyMap<string, Recommendation>;
  /** Free text to a use case, by its names, with how surely. */
  matcher: WorkloadMatcher;
  /** The plan rows the picks are chosen from. */
  rows: readonly PlanRow[];
}

/** Reads workload use cases from the dataset and matches workloads to them; shared by HTTP and MCP. */
@Injectable()
export class UseCasesService {
  private readonly views: DatasetView<UseCaseViews>;

  constructor(
    private readonly dataset: DatasetService,
    plans: PlanTableService,
    private readonly config: AppConfig,
  ) {
    this.views = dataset.view((snapshot) => {
      const rows = plans.rowsFor(snapshot);
      const useCases: UseCase[] = snapshot.useCases.map((u) => toUseCase(u, entryPrice(rows, u), config));
      const bySlug = new Map(useCases.map((u) => [u.slug, u]));
      const id = (u: UseCaseRecord) => u.slug;
      const recommendation = (u: UseCaseRecord): Recommendation => ({
        useCase: { slug: u.slug, title: u.title, url: config.url(u.url) },
        minimumSpec: toSpec(u.minimumSpec),
        recommendedSpec: toSpec(u.recommendedSpec),
        startingAt: bySlug.get(u.slug)!.startingAt,
        startingAtObservedAt: bySlug.get(u.slug)!.startingAtObservedAt,
        startingAtStale: bySlug.get(u.slug)!.startingAtStale,
        providers: this.picks(snapshot, rows, u, defaultSpecs(u)),
      });
      const search = new SearchIndex(snapshot.useCases, {
        id,
        fields: {
          slug: { text: (u) => u.slug.replace(/-/g, ' '), boost: 4 },
          title: { text: (u) => u.title, boost: 3 },
          tags: { text: (u) => u.tags.join(' '), boost: 3 },
          description: { text: (u) => u.description, boost: 1 },
        },
      });
      // Slugs and titles only, searched with a wide typo tolerance to suggest something for a miss.
      const suggest = new SearchIndex(snapshot.useCases, {
        id,
        fields: {
          slug: { text: (u) => u.slug.replace(/-/g, ' '), boost: 2 },
          title: { text: (u) => u.title, boost: 1 },
        },
      });
      return {
        recommendations: new Map(snapshot.useCases.map((u) => [u.slug, recommendation(u)])),
        list: new JsonDocument<UseCaseList>(
          { version: snapshot.version, count: useCases.length, useCases },
          snapshot.meta.lastUpdated,
          carriedDeprecations(snapshot.meta.deprecations, { UseCase: useCases }),
        ),
        matcher: new WorkloadMatcher(
          snapshot.useCases,
          (text) => search.search(text).map((h) => h.id),
          (text) =>
            suggest
              .search(text, undefined, { fuzzy: 0.45 })
              .slice(0, 3)
              .map((h) => h.id),
        ),
        rows,
      };
    });
  }

  /** The precomputed recommendation of each use case of a snapshot, by slug. */
  recommendationsFor(snapshot: DatasetSnapshot): ReadonlyMap<string, Recommendation> {
    return this.views.for(snapshot).recommendations;
  }

  /** The use cases of a snapshot as the API serves them (for views built before it is served). */
  useCasesFor(snapshot: DatasetSnapshot): readonly UseCase[] {
    return this.views.for(snapshot).list.value.useCases;
  }

  /** Every use case, in dataset order. */
  list(): JsonDocument<UseCaseList> {
    return this.views.get().list;
  }

  /**
   * The use case that best fits `workload` (a slug, or free text such as "minecraft server for ten
   * friends"), how and how surely it was matched, its specs, and for each recommended provider the
   * cheapest plan its reason describes that meets the recommended spec, or failing that the minimum
   * one; `narrowing` keeps only plans within a budget and sold in a place, and sizes the spec to
   * expected traffic. Throws InvalidArgumentError for a text that matches no use case surely enough
   * (naming why and every use case) or an unusable budget, currency or place.
   */
  recommend(workload: string, narrowing: WorkloadNarrowing = {}): WorkloadRecommendation {
    const text = workload.trim();
    if (text.length === 0 || text.length > MAX_QUERY_LENGTH) {
      throw new InvalidArgumentError(
        'workload',
        `Describe the workload in 1 to ${MAX_QUERY_LENGTH} characters, or pass a use-case slug.`,
      );
    }
    const snapshot = this.dataset.current;
    const { useCasesBySlug, useCases, version } = snapshot;
    const views = this.views.get();
    const exact = useCasesBySlug.get(text.toLowerCase());
    const found = exact
      ? {
          match: { kind: 'exact' as const, confidence: 1, matchedUseCase: exact.slug, matchedOn: [exact.slug] },
          alternatives: [],
        }
      : views.matcher.match(text);
    if ('miss' in found) {
      const list = useCases.map((u) => `${u.slug} (${u.title})`).join(', ');
      const closest = found.miss.closest.length > 0 ? ` Closest matches: ${found.miss.closest.join(', ')}.` : '';
      throw new InvalidArgumentError(
        'workload',
        `No use case matches ${JSON.stringify(text.slice(0, 64))}: ${found.miss.why}.${closest} Use cases: ${list}. Pass one of these slugs, or say what will run in other words.`,
      );
    }
    const useCase = useCasesBySlug.get(found.match.matchedUseCase)!;
    const filters = this.filtersOf(snapshot, narrowing);
    const scaled = narrowing.scale ? scaleSpec(useCase, narrowing.scale.visitsPerMonth) : undefined;
    const { useCase: matched, providers, ...rest } = views.recommendations.get(useCase.slug)!;
    const narrowed = filters !== undefined;
    return {
      useCase: matched,
      matchedBy: exact ? 'slug' : 'search',
      match: found.match,
      ...(filters ? { filters } : {}),
      ...rest,
      ...(scaled ? { scaledSpec: toSpec(scaled.spec), scaleNote: scaled.note } : {}),
      providers: narrowed
        ? this.picks(
            snapshot,
            views.rows,
            useCase,
            scaled ? [[scaled.spec, 'scaled']] : defaultSpecs(useCase),
            this.narrowingOf(snapshot, filters),
          )
        : providers,
      datasetVersion: version,
      alternatives: found.alternatives.map((slug) => ({ slug, title: useCasesBySlug.get(slug)!.title })),
    };
  }

  /** Each recommended provider of `u` with the cheapest plan its reason describes that meets the first of `specs` it can. */
  private picks(
    snapshot: DatasetSnapshot,
    rows: readonly PlanRow[],
    u: UseCaseRecord,
    specs: readonly SpecChoice[],
    narrowing?: PlanNarrowing,
  ) {
    return u.recommendedProviders.map((pick) => {
      const provider = snapshot.providersById.get(pick.id)!;
      // Only plans the reason describes: "Dedicated vCPU plans with local NVMe" shows such a plan.
      return pickWithPlan(
        pick,
        { name: provider.name, url: this.config.url(provider.url) },
        rows,
        reasonClaims(pick.reason),
        specs,
        narrowing,
      );
    });
  }

  /** The narrowing arguments checked and normalized; undefined when none was given. */
  private filtersOf(snapshot: DatasetSnapshot, narrowing: WorkloadNarrowing): WorkloadFilters | undefined {
    const { budget, location, scale } = narrowing;
    const includeUnorderable = narrowing.includeUnorderable === true;
    if (
      budget === undefined &&
      location === undefined &&
      scale === undefined &&
      narrowing.currency === undefined &&
      !includeUnorderable
    )
      return undefined;
    const currency = (narrowing.currency ?? DEFAULT_CURRENCY).toUpperCase();
    if (!snapshot.exchangeRates.has(currency)) {
      throw new InvalidArgumentError(
        'currency',
        `No exchange rate for "${currency.slice(0, 10)}". Use one of: ${snapshot.exchangeRates.currencies.join(', ')}.`,
      );
    }
    if (budget !== undefined && !(Number.isFinite(budget) && budget > 0))
      throw new InvalidArgumentError('budget', 'Use a monthly amount above 0, e.g. 20.');
    if (scale !== undefined && !(Number.isInteger(scale.visitsPerMonth) && scale.visitsPerMonth > 0)) {
      throw new InvalidArgumentError(
        'scale',
        'Pass { "visitsPerMonth": N } with N a whole number of visits a month, 1 or more.',
      );
    }
    const place = location === undefined ? undefined : resolvePlace(snapshot.providers, location);
    return {
      ...(budget !== undefined ? { budget } : {}),
      currency,
      ...(place ?? {}),
      ...(scale ? { visitsPerMonth: scale.visitsPerMonth } : {}),
      ...(includeUnorderable ? { includeUnorderable } : {}),
    };
  }

  /** How applied filters narrow the plans: where each can be bought, at what price in the answer's currency, within what budget. */
  private narrowingOf(snapshot: DatasetSnapshot, filters: WorkloadFilters): PlanNarrowing {
    const currency = filters.currency ?? DEFAULT_CURRENCY;
    const where =
      filters.location || filters.country ? { location: filters.location, country: filters.country } : undefined;
    return {
      currency,
      budget: filters.budget,
      where: filters.location ?? filters.country,
      includeUnorderable: filters.includeUnorderable,
      comparedPrice: (row) => {
        let factor = 1;
        if (where) {
          const provider = snapshot.providersById.get(row.providerId)!;
          const line = provider.planLines.find((l) => l.id === row.lineId)!;
          const priced = placesOf(provider, line, where).filter((p) => p.priceFactor !== null);
          // Not sold there, or sold at a price the dataset does not have: never shown on a guess.
          if (priced.length === 0) return null;
          factor = Math.min(...priced.map((p) => p.priceFactor!));
        }
        const listed = row.monthToMonthPrice ?? row.price;
        return {
          price: snapshot.exchangeRates.convert(Math.round(listed * factor * 100) / 100, row.currency, currency),
          factor,
        };
      },
    };
  }
}

/** The specs a pick's plan is chosen by with no scale: the recommended one, failing that the minimum. */
const defaultSpecs = (u: UseCaseRecord): SpecChoice[] => [
  [u.recommendedSpec, 'recommended'],
  [u.minimumSpec, 'minimum'],
];

/** A use case as the API serves it: absolute `url`, each spec with the contract's text fields, and the derived entry price with its age. */
export function toUseCase(record: UseCaseRecord, entry: EntryPrice, config: AppConfig): UseCase {
  return {
    ...record,
    minimumSpec: toSpec(record.minimumSpec),
    recommendedSpec: toSpec(record.recommendedSpec),
    startingAt: `$${entry.usd.toFixed(2)}/mo`,
    startingAtUsd: entry.usd,
    startingAtObservedAt: entry.observedAt,
    startingAtStale: entry.stale,
    url: config.url(record.url),
  };
}

/** A use case's entry price in USD, the age of the price it rests on, and the plan it is. */
export interface EntryPrice {
  usd: number;
  observedAt: string;
  stale: boolean;
  providerId: string;
  planName: string;
}

/**
 * The cheapest no-commitment monthly price, in USD, of a plan still sold that meets the use case's
 * minimum spec. Fresh prices are preferred, so a stale price is never ranked as if it were current: a
 * stale one is the entry price only when no fresh plan meets the spec. Ties go to the most recently
 * seen price. The validator guarantees some plan still sold meets the spec.
 */
export function entryPrice(rows: readonly PlanRow[], useCase: UseCaseRecord): EntryPrice {
  const fitting = rows.filter(
    (r) =>
      !r.discontinued &&
      r.orderable !== false &&
      r.monthToMonthPriceUsd !== null &&
      meetsSpec(r, specBounds(useCase.minimumSpec)),
  );
  const fresh = fitting.filter((r) => !r.stale);
  const entry = (fresh.length > 0 ? fresh : fitting).reduce((best, r) =>
    r.monthToMonthPriceUsd! < best.monthToMonthPriceUsd! ||
    (r.monthToMonthPriceUsd === best.monthToMonthPriceUsd && r.observedAt > best.observedAt)
      ? r
      : best,
  );
  return {
    usd: entry.monthToMonthPriceUsd!,
    observedAt: entry.observedAt,
    stale: entry.stale,
    providerId: entry.providerId,
    planName: entry.planName,
  };
}

/** The contract's text fields first, then the figures they are written from. */
function toSpec(spec: SpecRecord): Spec {
  return { ...specText(spec), ...spec };
}
