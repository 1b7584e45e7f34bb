/** The constraints of a plan search a plan can miss. */
export const PLAN_CONSTRAINTS = [
  'minVcpus',
  'minRamGb',
  'minStorageGb',
  'minTransferTb',
  'maxMonthlyPrice',
  'storageType',
  'cpuType',
  'architecture',
  'providers',
  'location',
  'country',
  'noCommitment',
  'maxPriceAgeDays',
] as const;
export type PlanConstraint = (typeof PLAN_CONSTRAINTS)[number];

/** A plan's CPU type as the tools answer it: "unknown" where the plan line's data does not say (never guessed). */
export type PlanCpuType = 'shared' | 'dedicated' | 'unknown';
/** A plan's CPU architecture as its line's data states it, or "unknown". */
export type PlanArchitecture = 'x86_64' | 'arm64' | 'unknown';

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
export function overOf(
  required: number,
  actual: number,
  constraint: 'maxMonthlyPrice' | 'maxPriceAgeDays' = 'maxMonthlyPrice',
): ConstraintMiss {
  const by = round2(actual - required);
  return { constraint, required, actual, by, byPercent: round1((by / required) * 100) };
}

/** How far a plan is from meeting everything: a yes/no miss counts as wholly missed, a figure by its share missing. */
const distance = (misses: readonly ConstraintMiss[]) =>
  misses.reduce((sum, m) => sum + (m.byPercent === undefined ? 1 : m.byPercent / 100), 0);

/** Closer first: fewer constraints missed, then less missed, then cheaper. */
const byCloseness = (a: ClosestPlan, b: ClosestPlan) =>
  a.misses.length - b.misses.length ||
  distance(a.misses) - distance(b.misses) ||
  a.normalizedPrice - b.normalizedPrice ||
  a.providerId.localeCompare(b.providerId) ||
  a.planName.localeCompare(b.planName);

const missesOnlyPrice = (c: ClosestPlan) => c.misses.length === 1 && c.misses[0].constraint === 'maxMonthlyPrice';
const withinPrice = (c: ClosestPlan) => !c.misses.some((m) => m.constraint === 'maxMonthlyPrice');

/**
 * The plans closest to matching, at most `count`: those that miss the fewest constraints by the least,
 * then the cheapest. With a price ceiling, two ways out are shown side by side, since a price overshoot
 * and a missing resource are not comparable shares (a plan at twice the budget is no "further" than
 * one with half the RAM): first the cheapest plans that meet everything but the budget (half of
 * `count`, rounded up; the price miss says how much more), then the closest plans within the budget
 * with what they lack; places either kind leaves empty go to the next closest plans.
 */
export function closestPlans(candidates: readonly ClosestPlan[], count: number, priceCeiling = false): ClosestPlan[] {
  const ranked = [...candidates].sort(byCloseness);
  if (!priceCeiling) return ranked.slice(0, count);
  const raiseBudget = ranked.filter(missesOnlyPrice).slice(0, Math.ceil(count / 2));
  const withinBudget = ranked.filter(withinPrice).slice(0, count - raiseBudget.length);
  const chosen = new Set([...raiseBudget, ...withinBudget]);
  return [...chosen, ...ranked.filter((c) => !chosen.has(c))].slice(0, count);
}

/** The largest figures among plans still sold; transfer as the largest stated volume, and whether any plan is unmetered. */
export interface LargestFigures {
  vcpus: number;
  ramGb: number;
  storageGb: number;
  transferTb: number;
  /** True when some plan still sold has unmetered traffic, which meets any transfer need. */
  unmeteredTransfer: boolean;
}

/** A minimum asked for that no plan still sold reaches. */
export interface BeyondDatasetMiss {
  constraint: 'minVcpus' | 'minRamGb' | 'minStorageGb' | 'minTransferTb';
  required: number;
  largest: number;
}

/** When a search asks for more than any plan still sold has: which figures, and the largest the dataset has. */
export interface BeyondDataset {
  misses: BeyondDatasetMiss[];
  largest: LargestFigures;
}

type FigureRow = {
  vcpus: number | null;
  ramGb: number | null;
  storageGb: number | null;
  bandwidthTb: number | null;
  unmetered: boolean;
  discontinued: boolean;
};

/** The largest figures of the plans still sold among `rows`. */
export function largestFigures(rows: readonly FigureRow[]): LargestFigures {
  const sold = rows.filter((r) => !r.discontinued);
  const most = (values: (number | null)[]) => Math.max(0, ...values.map((v) => v ?? 0));
  return {
    vcpus: most(sold.map((r) => r.vcpus)),
    ramGb: most(sold.map((r) => r.ramGb)),
    storageGb: most(sold.map((r) => r.storageGb)),
    transferTb: most(sold.map((r) => r.bandwidthTb)),
    unmeteredTransfer: sold.some((r) => r.unmetered),
  };
}

/** The minimums of `bounds` beyond every plan still sold, with the largest figures; undefined when each is reached by some plan. */
export function beyondDataset(
  bounds: { minVcpus?: number; minRamGb?: number; minStorageGb?: number; minTransferTb?: number },
  rows: readonly FigureRow[],
): BeyondDataset | undefined {
  const largest = largestFigures(rows);
  const misses: BeyondDatasetMiss[] = [];
  const check = (constraint: BeyondDatasetMiss['constraint'], required: number | undefined, most: number) => {
    if (required !== undefined && required > most) misses.push({ constraint, required, largest: most });
  };
  check('minVcpus', bounds.minVcpus, largest.vcpus);
  check('minRamGb', bounds.minRamGb, largest.ramGb);
  check('minStorageGb', bounds.minStorageGb, largest.storageGb);
  if (!largest.unmeteredTransfer) check('minTransferTb', bounds.minTransferTb, largest.transferTb);
  return misses.length > 0 ? { misses, largest } : undefined;
}
