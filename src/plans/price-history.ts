import type { DatasetRelease } from '../dataset/dto/changelog.dto.js';
import type { PricePoint } from './dto/price-point.dto.js';

export const planKey = (providerId: string, planName: string) => `${providerId}\u0000${planName}`;

/**
 * Each plan's price at every release that added or repriced it, oldest first, replayed from the
 * changelog. A plan removed in a release starts afresh if it comes back. Plans changed since the last
 * release show their current price in the row, not here, until the next release records it.
 */
export function priceHistories(changelog: readonly DatasetRelease[]): ReadonlyMap<string, readonly PricePoint[]> {
  const histories = new Map<string, PricePoint[]>();
  for (const { version, changes } of changelog) {
    for (const plan of changes.plansRemoved) histories.delete(planKey(plan.providerId, plan.planName));
    for (const plan of changes.plansAdded) histories.set(planKey(plan.providerId, plan.planName), [{ version, price: plan.price }]);
    for (const plan of changes.plansRepriced) {
      const key = planKey(plan.providerId, plan.planName);
      histories.set(key, [...(histories.get(key) ?? []), { version, price: plan.newPrice }]);
    }
  }
  return histories;
}
