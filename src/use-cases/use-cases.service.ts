import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import { carriedDeprecations } from '../dataset/deprecations.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { Spec, SpecRecord, UseCase, UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import { meetsSpec, sizeBounds, specBounds, specText, transferFit } from '../dataset/plan-figures.js';
import { JsonDocument } from '../dataset/json-document.js';
import { hasClaims, meetsClaims, reasonClaims } from '../dataset/reason-claims.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { PlanTableRow as PlanRow } from '../plans/dto/plan-table-row.dto.js';
import { PlanTableService } from '../plans/plan-table.service.js';
import { cpuTypeOf } from '../plans/plans.service.js';
import { MAX_QUERY_LENGTH, SearchIndex } from '../search/search-index.js';
import type { UseCaseList } from './dto/use-case-list.dto.js';
import type { MatchingPlan, WorkloadRecommendation } from './workload-recommendation.js';

export type Recommendation = Omit<WorkloadRecommendation, 'matchedBy' | 'alternatives' | 'datasetVersion'>;

interface UseCaseViews {
  list: JsonDocument<UseCaseList>;
  /** The answer for each use case, computed once: specs, picks and each pick's cheapest fitting plan. */
  recommendations: ReadonlyMap<string, Recommendation>;
  search: SearchIndex<UseCaseRecord>;
  /** Slugs and titles only, searched with a wide typo tolerance to suggest something for a miss. */
  suggest: SearchIndex<UseCaseRecord>;
}

/** Reads workload use cases from the dataset and matches workloads to them; shared by HTTP and MCP. */
@Injectable()
export class UseCasesService {
  private readonly views: DatasetView<UseCaseViews>;

  constructor(
    private readonly dataset: DatasetService,
    plans: PlanTableService,
    config: AppConfig,
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
        providers: u.recommendedProviders.map((pick) => {
          const provider = snapshot.providersById.get(pick.id)!;
          // Only plans the reason describes: "Dedicated vCPU plans with local NVMe" shows such a plan.
          const claims = reasonClaims(pick.reason);
          const own = rows.filter((r) => r.providerId === pick.id && meetsClaims(r, claims));
          const note = transferNote(own, u, provider.name);
          return {
            id: pick.id,
            name: provider.name,
            reason: pick.reason,
            ...(hasClaims(claims) ? { reasonClaims: claims } : {}),
            url: config.url(provider.url),
            cheapestMatchingPlan: cheapestFor(own, u),
            ...(note ? { transferNote: note } : {}),
          };
        }),
      });
      return {
        recommendations: new Map(snapshot.useCases.map((u) => [u.slug, recommendation(u)])),
        list: new JsonDocument<UseCaseList>(
          { version: snapshot.version, count: useCases.length, useCases },
          snapshot.meta.lastUpdated,
          carriedDeprecations(snapshot.meta.deprecations, { UseCase: useCases }),
        ),
        search: new SearchIndex(snapshot.useCases, {
          id,
          fields: {
            slug: { text: (u) => u.slug.replace(/-/g, ' '), boost: 4 },
            title: { text: (u) => u.title, boost: 3 },
            tags: { text: (u) => u.tags.join(' '), boost: 3 },
            description: { text: (u) => u.description, boost: 1 },
          },
        }),
        suggest: new SearchIndex(snapshot.useCases, {
          id,
          fields: { slug: { text: (u) => u.slug.replace(/-/g, ' '), boost: 2 }, title: { text: (u) => u.title, boost: 1 } },
        }),
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
   * friends"), its specs, and for each recommended provider the cheapest plan that meets the
   * recommended spec, or failing that the minimum one.
   */
  recommend(workload: string): WorkloadRecommendation {
    const text = workload.trim();
    if (text.length === 0 || text.length > MAX_QUERY_LENGTH) {
      throw new InvalidArgumentError('workload', `Describe the workload in 1 to ${MAX_QUERY_LENGTH} characters, or pass a use-case slug.`);
    }
    const { useCasesBySlug, useCases, version } = this.dataset.current;
    const views = this.views.get();
    const exact = useCasesBySlug.get(text.toLowerCase());
    const hits = exact ? [] : views.search.search(text);
    const useCase = exact ?? (hits.length > 0 ? useCasesBySlug.get(hits[0].id) : undefined);
    if (!useCase) {
      const closest = views.suggest.search(text, undefined, { fuzzy: 0.45 }).slice(0, 3).map((h) => h.id);
      throw new NotFoundError('use case', text, useCases.map((u) => u.slug), closest, 'slug');
    }
    const { useCase: matched, ...rest } = views.recommendations.get(useCase.slug)!;
    return {
      useCase: matched,
      matchedBy: exact ? 'slug' : 'search',
      ...rest,
      datasetVersion: version,
      alternatives: hits
        .filter((h) => h.id !== useCase.slug)
        .slice(0, 3)
        .map((h) => ({ slug: h.id, title: useCasesBySlug.get(h.id)!.title })),
    };
  }
}

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

/** A use case's entry price in USD, and the age of the price it rests on. */
export interface EntryPrice {
  usd: number;
  observedAt: string;
  stale: boolean;
}

/**
 * The cheapest no-commitment monthly price, in USD, of a plan still sold that meets the use case's
 * minimum spec. Fresh prices are preferred, so a stale price is never ranked as if it were current: a
 * stale one is the entry price only when no fresh plan meets the spec. Ties go to the most recently
 * seen price. The validator guarantees some plan still sold meets the spec.
 */
export function entryPrice(rows: readonly PlanRow[], useCase: UseCaseRecord): EntryPrice {
  const fitting = rows.filter((r) => !r.discontinued && r.monthToMonthPriceUsd !== null && meetsSpec(r, specBounds(useCase.minimumSpec)));
  const fresh = fitting.filter((r) => !r.stale);
  const entry = (fresh.length > 0 ? fresh : fitting).reduce((best, r) =>
    r.monthToMonthPriceUsd! < best.monthToMonthPriceUsd! || (r.monthToMonthPriceUsd === best.monthToMonthPriceUsd && r.observedAt > best.observedAt) ? r : best,
  );
  return { usd: entry.monthToMonthPriceUsd!, observedAt: entry.observedAt, stale: entry.stale };
}

/**
 * When some of a provider's plans still sold reach a spec's vCPUs, RAM and disk but state no traffic
 * allowance (neither a volume nor unmetered), they are not counted as meeting it; the answer says so,
 * naming the spec and the allowance text, rather than leaving the reader to wonder why they were passed over.
 */
function transferNote(rows: readonly PlanRow[], useCase: UseCaseRecord, providerName: string): string | undefined {
  for (const [spec, name] of [[useCase.recommendedSpec, 'recommended'], [useCase.minimumSpec, 'minimum']] as const) {
    const unknown = rows.filter((r) => !r.discontinued && meetsSpec(r, sizeBounds(spec)) && transferFit(r, spec.bandwidthTb) === 'unknown');
    if (unknown.length === 0) continue;
    const allowances = [...new Set(unknown.map((r) => `"${r.bandwidth}"`))].join(', ');
    const n = unknown.length;
    return `${n} ${providerName} plan${n === 1 ? '' : 's'} reach${n === 1 ? 'es' : ''} the ${name} spec's vCPUs, RAM and disk but state${n === 1 ? 's' : ''} no traffic volume (${allowances}), so ${n === 1 ? 'it is' : 'they are'} not counted as including its ${spec.bandwidthTb} TB a month: ask ${providerName} for the allowance.`;
  }
  return undefined;
}

/** The contract's text fields first, then the figures they are written from. */
function toSpec(spec: SpecRecord): Spec {
  return { ...specText(spec), ...spec };
}

/**
 * The provider's cheapest plan meeting the recommended spec, or failing that the minimum one, by
 * no-commitment price, among the plans the pick's reason describes (the caller narrows `rows`). Discontinued plans are never picked; plans that need a commitment only when
 * the provider has no other; and within that, a plan with a stale price only when no fresh one fits.
 */
function cheapestFor(rows: readonly PlanRow[], useCase: UseCaseRecord): MatchingPlan | null {
  for (const [spec, meets] of [[useCase.recommendedSpec, 'recommended'], [useCase.minimumSpec, 'minimum']] as const) {
    const fitting = rows.filter((r) => !r.discontinued && meetsSpec(r, specBounds(spec)));
    if (fitting.length === 0) continue;
    const withoutCommitment = fitting.filter((r) => r.monthToMonthPrice !== null);
    const sold = withoutCommitment.length > 0 ? withoutCommitment : fitting;
    const fresh = sold.filter((r) => !r.stale);
    const pool = fresh.length > 0 ? fresh : sold;
    const price = (r: PlanRow) => r.monthToMonthPrice ?? r.price;
    const plan = pool.reduce((best, r) => (price(r) < price(best) ? r : best));
    return {
      planName: plan.planName,
      price: plan.price,
      currency: plan.currency,
      cpu: plan.cpu,
      ram: plan.ram,
      storage: plan.storage,
      bandwidth: plan.bandwidth,
      cpuType: cpuTypeOf(plan),
      priceBasis: plan.priceBasis,
      termMonths: plan.termMonths,
      promotional: plan.promotional,
      renewalPrice: plan.renewalPrice,
      monthToMonthPrice: plan.monthToMonthPrice,
      observedAt: plan.observedAt,
      stale: plan.stale,
      staleReason: plan.staleReason,
      meets,
    };
  }
  return null;
}
