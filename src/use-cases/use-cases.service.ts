import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import { carriedDeprecations } from '../dataset/deprecations.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { Spec, SpecRecord, UseCase, UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import { specText } from '../dataset/plan-figures.js';
import { JsonDocument } from '../dataset/json-document.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { meetsSpec, type PlanRow } from '../plans/plan-rows.js';
import { PlansService } from '../plans/plans.service.js';
import { MAX_QUERY_LENGTH, SearchIndex } from '../search/search-index.js';
import type { UseCaseList } from './dto/use-case-list.dto.js';
import type { MatchingPlan, WorkloadRecommendation } from './workload-recommendation.js';

export type Recommendation = Omit<WorkloadRecommendation, 'matchedBy' | 'alternatives'>;

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
    plans: PlansService,
    config: AppConfig,
  ) {
    this.views = dataset.view((snapshot) => {
      const useCases: UseCase[] = snapshot.useCases.map((u) => toUseCase(u, config));
      const id = (u: UseCaseRecord) => u.slug;
      const rows = plans.rowsFor(snapshot);
      const recommendation = (u: UseCaseRecord): Recommendation => ({
        useCase: { slug: u.slug, title: u.title, url: config.url(u.url) },
        minimumSpec: toSpec(u.minimumSpec),
        recommendedSpec: toSpec(u.recommendedSpec),
        startingAt: u.startingAt,
        providers: u.recommendedProviders.map((pick) => {
          const provider = snapshot.providersById.get(pick.id)!;
          return {
            id: pick.id,
            name: provider.name,
            reason: pick.reason,
            url: config.url(provider.url),
            cheapestMatchingPlan: cheapestFor(rows.filter((r) => r.providerId === pick.id), u),
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
    const { useCasesBySlug, useCases } = this.dataset.current;
    const views = this.views.get();
    const exact = useCasesBySlug.get(text.toLowerCase());
    const hits = exact ? [] : views.search.search(text);
    const useCase = exact ?? (hits.length > 0 ? useCasesBySlug.get(hits[0].id) : undefined);
    if (!useCase) {
      const closest = views.suggest.search(text, undefined, { fuzzy: 0.45 }).slice(0, 3).map((h) => h.id);
      throw new NotFoundError('use case', text, useCases.map((u) => u.slug), closest);
    }
    const { useCase: matched, ...rest } = views.recommendations.get(useCase.slug)!;
    return {
      useCase: matched,
      matchedBy: exact ? 'slug' : 'search',
      ...rest,
      alternatives: hits
        .filter((h) => h.id !== useCase.slug)
        .slice(0, 3)
        .map((h) => ({ slug: h.id, title: useCasesBySlug.get(h.id)!.title })),
    };
  }
}

/** A use case as the API serves it: absolute `url`, and each spec with the contract's text fields. */
export function toUseCase(record: UseCaseRecord, config: AppConfig): UseCase {
  return { ...record, minimumSpec: toSpec(record.minimumSpec), recommendedSpec: toSpec(record.recommendedSpec), url: config.url(record.url) };
}

/** The contract's text fields first, then the figures they are written from. */
function toSpec(spec: SpecRecord): Spec {
  return { ...specText(spec), ...spec };
}

function cheapestFor(rows: readonly PlanRow[], useCase: UseCaseRecord): MatchingPlan | null {
  const bounds = (spec: SpecRecord) => ({ minVcpus: spec.vcpus, minRamGb: spec.ramGb, minStorageGb: spec.storageGb });
  for (const [spec, meets] of [[useCase.recommendedSpec, 'recommended'], [useCase.minimumSpec, 'minimum']] as const) {
    const fitting = rows.filter((r) => meetsSpec(r, bounds(spec)));
    if (fitting.length === 0) continue;
    const { plan } = fitting.reduce((best, r) => (r.plan.price < best.plan.price ? r : best));
    return { planName: plan.name, price: plan.price, currency: plan.currency, cpu: plan.cpu, ram: plan.ram, storage: plan.storage, bandwidth: plan.bandwidth, meets };
  }
  return null;
}
