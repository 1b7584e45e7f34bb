import type { DatasetRelease } from '../dataset/dto/changelog.dto.js';
import { nameKey, planHistoryKey, type IdentifiedPlan } from '../dataset/plan-identity.js';
import type { PricePoint } from './dto/price-point.dto.js';

/** Each plan's price history, by `planHistoryKey`; read it with `historyOf`. */
export type PriceHistories = ReadonlyMap<string, readonly PricePoint[]>;

/**
 * Each plan's price at every release that added or repriced it, oldest first, replayed from the
 * changelog. Plans are followed by the provider's id of the size where the changelog records one, so a
 * renamed size keeps its history and never takes over another's; a history begun under the name alone
 * (releases before ids) goes on under the id. A plan removed in a release starts afresh if it comes
 * back. Plans changed since the last release show their current price in the row, not here, until the
 * next release records it.
 */
export function priceHistories(changelog: readonly DatasetRelease[]): PriceHistories {
  const histories = new Map<string, PricePoint[]>();
  const take = (plan: IdentifiedPlan): PricePoint[] => {
    const key = planHistoryKey(plan);
    const own = histories.get(key);
    if (own) {
      histories.delete(key);
      return own;
    }
    const legacy = histories.get(nameKey(plan)) ?? [];
    histories.delete(nameKey(plan));
    return legacy;
  };
  for (const { version, changes } of changelog) {
    for (const plan of changes.plansRemoved) take(plan);
    for (const plan of changes.plansAdded) histories.set(planHistoryKey(plan), [{ version, price: plan.price }]);
    for (const plan of changes.plansRepriced)
      histories.set(planHistoryKey(plan), [...take(plan), { version, price: plan.newPrice }]);
  }
  return histories;
}

/** The history of a plan as served now: under its id, else under its name. */
export function historyOf(
  histories: PriceHistories,
  providerId: string,
  plan: { name: string; providerPlanId?: string },
): readonly PricePoint[] {
  const ref = { providerId, planName: plan.name, providerPlanId: plan.providerPlanId };
  return histories.get(planHistoryKey(ref)) ?? histories.get(nameKey(ref)) ?? [];
}
