import { summarisePriceAges } from '../dataset/price-age.js';
import type { PriceAgeSummary } from './dto/price-age-summary.dto.js';

/** The age summary of some priced plans (at least one), without the threshold the answer states once beside it. */
export function priceAgeSummary(plans: readonly { observedAt: string; stale: boolean }[]): PriceAgeSummary {
  const { oldestObservedAt, newestObservedAt, stalePrices } = summarisePriceAges(plans);
  return { oldestObservedAt, newestObservedAt, stalePrices };
}
