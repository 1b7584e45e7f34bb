/**
 * How old a price is, and whether it is stale. A price is stale when the provider showed it more than
 * STALE_AFTER_DAYS before the day it is measured to, or when a credible dated report says the provider
 * changed the line's prices after it was seen (`planLines[].laterPriceChange`). The service measures to
 * the day of the answer (UTC; the snapshot's `asOf`), so a price ages into stale without a release; the
 * validator and the guide generator measure to the release's own date.
 */
import type { PlanLine } from './dto/plan-line.dto.js';
import { daysBetween } from './dto/validators.js';

/** Prices seen more than this many days before the day they are measured to are stale. */
export const STALE_AFTER_DAYS = 90;

export interface PriceAge {
  observedAt: string;
  priceAgeDays: number;
  stale: boolean;
  staleReason: string | null;
}

/** The age on `day` (YYYY-MM-DD) of a price seen on `observedAt`, in a line. */
export function priceAge(observedAt: string, line: Pick<PlanLine, 'laterPriceChange'>, day: string): PriceAge {
  const priceAgeDays = Math.max(0, daysBetween(observedAt, day));
  const change = line.laterPriceChange;
  if (change && change.date > observedAt) {
    return {
      observedAt,
      priceAgeDays,
      stale: true,
      staleReason: `price seen ${observedAt}; ${change.note} (${change.source.url})`,
    };
  }
  if (priceAgeDays > STALE_AFTER_DAYS) {
    return {
      observedAt,
      priceAgeDays,
      stale: true,
      staleReason: `price seen ${observedAt}, ${priceAgeDays} days before ${day} (prices older than ${STALE_AFTER_DAYS} days are stale)`,
    };
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
  return {
    oldestObservedAt: dates[0],
    newestObservedAt: dates[dates.length - 1],
    stalePrices: plans.filter((p) => p.stale).length,
    staleAfterDays: STALE_AFTER_DAYS,
  };
}

/**
 * How fresh a set of prices is, in words, for pages and answers: the oldest and newest day a provider
 * showed one, and how many are stale on `day`. Never a release date: a release can re-publish old prices.
 */
export function freshnessText(
  summary: Pick<PriceAgeSummary, 'oldestObservedAt' | 'newestObservedAt' | 'stalePrices'>,
  total: number,
  day: string,
): string {
  const seen =
    summary.oldestObservedAt === summary.newestObservedAt
      ? `prices seen on ${summary.oldestObservedAt}`
      : `prices seen between ${summary.oldestObservedAt} and ${summary.newestObservedAt}`;
  return `${seen}; ${summary.stalePrices} of ${total} stale on ${day} (seen more than ${STALE_AFTER_DAYS} days earlier, or before a reported price change)`;
}
