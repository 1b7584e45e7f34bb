import type { Spec } from '../dataset/dto/use-case.dto.js';
import type { ReasonClaims } from '../dataset/reason-claims.js';
import type { PlanMatch } from '../plans/plans.service.js';
import type { WorkloadMatch } from './workload-matcher.js';

/** What narrowed a recommendation's picks, as applied. */
export interface WorkloadFilters {
  budget?: number;
  currency?: string;
  /** A city as the dataset spells it. */
  location?: string;
  /** ISO 3166-1 alpha-2, when the place given was a country. */
  country?: string;
  visitsPerMonth?: number;
  /** True when plans the provider shows as not orderable may be picked too (flagged). */
  includeUnorderable?: boolean;
}

/** The cheapest plan of a provider for a workload, and which spec it meets. */
export interface MatchingPlan extends Pick<
  PlanMatch,
  | 'planName'
  | 'price'
  | 'currency'
  | 'cpu'
  | 'ram'
  | 'storage'
  | 'bandwidth'
  | 'cpuType'
  | 'priceBasis'
  | 'termMonths'
  | 'promotional'
  | 'renewalPrice'
  | 'monthToMonthPrice'
  | 'observedAt'
  | 'stale'
  | 'staleReason'
> {
  /**
   * `recommended` when it meets the recommended spec, `minimum` when only the minimum one: all four
   * parts (vCPUs, RAM, disk, transfer); `scaled` when a scale was given and it meets the spec scaled to it.
   */
  meets: 'recommended' | 'minimum' | 'scaled';
  /** With a budget or a location: the no-commitment monthly price there, in the answer's currency, that was compared and bounded. */
  normalizedPrice?: number;
  normalizedCurrency?: string;
  /** With a location whose price differs from the list: the listed price times this is the price there. */
  regionalPriceFactor?: number;
  /** Present, false, only for a plan the provider shows as not orderable (picked only with includeUnorderable). */
  orderable?: false;
}

export interface RecommendedProvider {
  id: string;
  name: string;
  reason: string;
  /**
   * Only when the reason says something of its plans (dedicated or shared vCPUs, a disk technology),
   * read from its words: `cheapestMatchingPlan` is picked among such plans only.
   */
  reasonClaims?: ReasonClaims;
  url: string;
  /** Null when none of the provider's plans (that the reason describes) meets even the minimum spec. */
  cheapestMatchingPlan: MatchingPlan | null;
  /**
   * Only when some of the provider's plans reach a spec's vCPUs, RAM and disk but state no traffic
   * allowance, so were not counted as meeting it: which, and what to ask the provider.
   */
  transferNote?: string;
  /** With a budget or a location, when no plan of the provider fits them all: which conditions, in words. */
  noPlanNote?: string;
}

export interface WorkloadRecommendation {
  useCase: { slug: string; title: string; url: string };
  /** How the workload was matched: `slug` for an exact id, `search` for free text. */
  matchedBy: 'slug' | 'search';
  /** How the text was matched and how surely (src/use-cases/workload-matcher.ts states the rule). */
  match: WorkloadMatch;
  /** Only when a budget, location or scale was given: what narrowed the picks, normalized. */
  filters?: WorkloadFilters;
  /** Only with a scale: the spec the traffic calls for, which each pick's plan meets, and how the scale changed it. */
  scaledSpec?: Spec;
  scaleNote?: string;
  minimumSpec: Spec;
  recommendedSpec: Spec;
  startingAt: string;
  /** The day the provider showed the price `startingAt` rests on. */
  startingAtObservedAt: string;
  /** True when no plan with a fresh price meets the minimum spec, so `startingAt` rests on a stale one. */
  startingAtStale: boolean;
  providers: RecommendedProvider[];
  /** The dataset version (release day) the prices and their ages are read from. */
  datasetVersion: string;
  /** Other use cases the text also matched, best first. */
  alternatives: { slug: string; title: string }[];
}
