/** The constraints of a plan search a plan can miss. */
export const PLAN_CONSTRAINTS = ['minVcpus', 'minRamGb', 'minStorageGb', 'minTransferTb', 'maxMonthlyPrice', 'storageType', 'cpuType', 'providers', 'location', 'country', 'noCommitment', 'maxPriceAgeDays'] as const;
export type PlanConstraint = (typeof PLAN_CONSTRAINTS)[number];

/** A plan's CPU type as the tools answer it: "unknown" where the plan line's data does not say (never guessed). */
export type PlanCpuType = 'shared' | 'dedicated' | 'unknown';

/** One constraint a plan misses, and by how much. */
export interface ConstraintMiss {
  constraint: PlanConstraint;
  /** What the search asked for. */
  required: number | string | string[];
  /** What the plan has; null when the figure cannot be read. */
  actual: number | string | string[] | null;
  /** How far off, in the constraint's unit (vCPUs, GB, TB, the search's currency); only for figures and prices. */
  by?: number;
  /** `by` as a percentage of `required`, to one decimal. */
  byPercent?: number;
}

/** A plan that misses some constraints, with its figures and the compared price in the search's currency. */
export interface ClosestPlan {
  providerId: string;
  planName: string;
  normalizedPrice: number;
  vcpus: number | null;
  ramGb: number | null;
  storageGb: number | null;
  storageType: string | null;
  /** Shared or dedicated vCPUs; "unknown" where the data does not say. */
  cpuType: PlanCpuType;
  /** The day the provider showed the price, and whether it is stale. */
  observedAt: string;
  stale: boolean;
  misses: ConstraintMiss[];
}

/** How many closest plans an empty search answers with, at most. */
export const MAX_CLOSEST = 5;

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** A figure below its minimum: how much is missing. */
export function shortOf(constraint: PlanConstraint, required: number, actual: number | null): ConstraintMiss {
  if (actual === null) return { constraint, required, actual };
  const by = round2(required - actual);
  return { constraint, required, actual, by, byPercent: round1((by / required) * 100) };
}

/** A price, or a price's age, above its ceiling: how much too much. */
export function overOf(required: number, actual: number, constraint: 'maxMonthlyPrice' | 'maxPriceAgeDays' = 'maxMonthlyPrice'): ConstraintMiss {
  const by = round2(actual - required);
  return { constraint, required, actual, by, byPercent: round1((by / required) * 100) };
}

/** How far a plan is from meeting everything: a yes/no miss counts as wholly missed, a figure by its share missing. */
const distance = (misses: readonly ConstraintMiss[]) => misses.reduce((sum, m) => sum + (m.byPercent === undefined ? 1 : m.byPercent / 100), 0);

/** The plans that miss the fewest constraints by the least, then the cheapest; at most `count`. */
export function closestPlans(candidates: readonly ClosestPlan[], count: number): ClosestPlan[] {
  return [...candidates]
    .sort(
      (a, b) =>
        a.misses.length - b.misses.length ||
        distance(a.misses) - distance(b.misses) ||
        a.normalizedPrice - b.normalizedPrice ||
        a.providerId.localeCompare(b.providerId) ||
        a.planName.localeCompare(b.planName),
    )
    .slice(0, count);
}
