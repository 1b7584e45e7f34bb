/**
 * How old a price is, and whether it is stale. A price is stale when the provider showed it more than
 * STALE_AFTER_DAYS before the release that serves it, or when a credible dated report says the
 * provider changed the line's prices after it was seen (`planLines[].laterPriceChange`). Ages are
 * measured to the dataset version (the release date), so one release always gives the same answer.
 */
import type { PlanLine } from './dto/plan-line.dto.js';
import { daysBetween } from './dto/validators.js';

/** Prices seen more than this many days before the release are stale. */
export const STALE_AFTER_DAYS = 90;

export interface PriceAge {
  observedAt: string;
  priceAgeDays: number;
  stale: boolean;
  staleReason: string | null;
}

/** The age of a price seen on `observedAt`, in a line, for the release `version`. */
export function priceAge(observedAt: string, line: Pick<PlanLine, 'laterPriceChange'>, version: string): PriceAge {
  const priceAgeDays = Math.max(0, daysBetween(observedAt, version));
  const change = line.laterPriceChange;
  if (change && change.date > observedAt) {
    return { observedAt, priceAgeDays, stale: true, staleReason: `price seen ${observedAt}; ${change.note} (${change.source.url})` };
  }
  if (priceAgeDays > STALE_AFTER_DAYS) {
    return { observedAt, priceAgeDays, stale: true, staleReason: `price seen ${observedAt}, ${priceAgeDays} days before this release (prices older than ${STALE_AFTER_DAYS} days are stale)` };
  }
  return { observedAt, priceAgeDays, stale: false, staleReason: null };
}

/** The oldest and newest of some dates, and how many of the prices are stale. */
export interface PriceAgeSummary {
  oldestObservedAt: string;
  newestObservedAt: string;
  stalePrices: number;
  staleAfterDays: number;
}

/** Summarises the ages of priced plans (at least one). */
export function summarisePriceAges(plans: readonly { observedAt: string; stale: boolean }[]): PriceAgeSummary {
  const dates = plans.map((p) => p.observedAt).sort();
  return { oldestObservedAt: dates[0], newestObservedAt: dates[dates.length - 1], stalePrices: plans.filter((p) => p.stale).length, staleAfterDays: STALE_AFTER_DAYS };
}
