import type { RatingWeights } from './dto/meta.dto.js';
import type { ProviderRecord } from './dto/provider.dto.js';
import type { ExchangeRates } from './exchange-rates.js';
import { isFreshOffer, pricedPlans } from './plan-pricing.js';

/** How far the overall rating may sit from the weighted mean of the sub-scores (one decimal of rounding). */
export const RATING_TOLERANCE = 0.05;

/** The weighted mean of a provider's sub-scores. */
export function weightedRating(ratings: ProviderRecord['ratings'], weights: RatingWeights): number {
  return (Object.keys(weights) as (keyof RatingWeights)[]).reduce((sum, key) => sum + weights[key] * ratings[key], 0);
}

/** The overall rating is the documented weighted mean of the sub-scores, rounded to one decimal. */
export function checkRating(p: ProviderRecord, weights: RatingWeights, at: string): string[] {
  const mean = weightedRating(p.ratings, weights);
  if (Math.abs(p.rating - mean) <= RATING_TOLERANCE + 1e-9) return [];
  return [`${at}.rating: must be the weighted mean of the sub-scores with meta.json's ratingWeights, ${mean.toFixed(2)} (within ${RATING_TOLERANCE})`];
}

/**
 * Each plan belongs to a line of the provider, and each line says how its prices are paid. A prepaid
 * term needs its length; a promotional price needs the renewal price (null when it could not be
 * confirmed, but written); a prepaid plan sold month to month needs that price too. Figures a line
 * does not call for are refused, so that no written price is silently ignored.
 */
export function checkPlanLines(p: ProviderRecord, at: string): string[] {
  const problems: string[] = [];
  const lines = new Map<string, number>();
  p.planLines.forEach((line, i) => {
    const where = `${at}.planLines[${i}]`;
    if (lines.has(line.id)) problems.push(`${where}.id: duplicates planLines[${lines.get(line.id)}] ("${line.id}")`);
    else lines.set(line.id, i);
    const prepaid = line.priceBasis === 'prepaid-term';
    if (prepaid && line.termMonths === null) problems.push(`${where}.termMonths: a prepaid-term line must say how many months the price needs`);
    if (!prepaid && line.termMonths !== null) problems.push(`${where}.termMonths: must be null unless priceBasis is prepaid-term`);
    if (!prepaid && line.monthToMonthSold !== undefined) problems.push(`${where}.monthToMonthSold: only a prepaid-term line can say whether it is also sold month to month`);
    if (!p.plans.some((plan) => plan.line === line.id)) problems.push(`${where}: no plan belongs to the line "${line.id}"`);
    if (!line.complete && !line.notListed) problems.push(`${where}.notListed: an incomplete line must say what the dataset leaves out`);
  });
  p.plans.forEach((plan, j) => {
    const where = `${at}.plans[${j}] (${plan.name})`;
    const index = lines.get(plan.line);
    if (index === undefined) {
      problems.push(`${where}.line: names no plan line of ${p.id} ("${plan.line}"); lines: ${[...lines.keys()].join(', ')}`);
      return;
    }
    const line = p.planLines[index];
    const wantsMonthToMonth = line.priceBasis === 'prepaid-term' && line.monthToMonthSold !== false;
    if (line.promotional && plan.renewalPrice === undefined) {
      problems.push(`${where}.renewalPrice: a promotional price needs its renewal price (null only when it could not be confirmed)`);
    }
    if (!line.promotional && plan.renewalPrice !== undefined) problems.push(`${where}.renewalPrice: only plans of a promotional line have a renewal price`);
    if (wantsMonthToMonth && plan.monthToMonthPrice === undefined) {
      problems.push(`${where}.monthToMonthPrice: a prepaid plan also sold month to month needs that price (null only when it could not be confirmed)`);
    }
    if (!wantsMonthToMonth && plan.monthToMonthPrice !== undefined) {
      problems.push(`${where}.monthToMonthPrice: only plans of a prepaid-term line sold month to month carry a separate month-to-month price`);
    }
    for (const key of ['renewalPrice', 'monthToMonthPrice'] as const) {
      const value = plan[key];
      if (typeof value === 'number' && value < plan.price) problems.push(`${where}.${key}: must not be below the headline price (${plan.price})`);
    }
  });
  return problems;
}

/** The recommendation that compares prices: it is derived from them. */
export const BEST_BUDGET = 'bestBudget';

/**
 * The provider whose cheapest plan sold with no commitment costs least in USD (ties by id), or
 * undefined when no provider has one. Only fresh offers compete (a stale price is never ranked as if it
 * were fresh, a discontinued line never picked); when no provider has a fresh one, current lines with
 * stale prices do.
 */
export function cheapestNoCommitmentProvider(providers: readonly ProviderRecord[], rates: ExchangeRates, version: string): string | undefined {
  const priced = providers.map((p) => ({ p, plans: pricedPlans(p, version).filter((plan) => !plan.discontinued) }));
  const anyFresh = priced.some(({ plans }) => plans.some((plan) => isFreshOffer(plan) && plan.monthToMonthPrice !== null));
  const entries = priced.flatMap(({ p, plans }) => {
    const prices = plans.filter((plan) => !anyFresh || isFreshOffer(plan)).flatMap((plan) => (plan.monthToMonthPrice === null ? [] : [rates.convert(plan.monthToMonthPrice, plan.currency, 'USD')]));
    return prices.length > 0 ? [{ id: p.id, usd: Math.min(...prices) }] : [];
  });
  entries.sort((a, b) => a.usd - b.usd || a.id.localeCompare(b.id));
  return entries[0]?.id;
}

/** `recommendations.bestBudget` is derived from the prices when the dataset loads, so it is never written by hand. */
export function checkBestBudgetNotWritten(recommendations: Record<string, string>, file: string): string[] {
  if (recommendations[BEST_BUDGET] === undefined) return [];
  return [`${file}: recommendations.${BEST_BUDGET}: remove it; it is derived when the dataset loads (the provider with the cheapest plan sold without commitment, in USD)`];
}

/** The day of the newest figure the generated guides quote: a provider or plan-line source, or the exchange rates. */
export function newestFigureDate(providers: readonly ProviderRecord[], ratesDate: string): string {
  return [ratesDate, ...providers.flatMap((p) => [...p.sources, ...p.planLines.map((l) => l.source)].map((s) => s.retrievedAt))].sort().at(-1)!;
}
