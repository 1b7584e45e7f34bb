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
  return [
    `${at}.rating: must be the weighted mean of the sub-scores with meta.json's ratingWeights, ${mean.toFixed(2)} (within ${RATING_TOLERANCE})`,
  ];
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
    if (prepaid && line.termMonths === null)
      problems.push(`${where}.termMonths: a prepaid-term line must say how many months the price needs`);
    if (!prepaid && line.termMonths !== null)
      problems.push(`${where}.termMonths: must be null unless priceBasis is prepaid-term`);
    if (!prepaid && line.monthToMonthSold !== undefined)
      problems.push(
        `${where}.monthToMonthSold: only a prepaid-term line can say whether it is also sold month to month`,
      );
    if (!p.plans.some((plan) => plan.line === line.id))
      problems.push(`${where}: no plan belongs to the line "${line.id}"`);
    if (!line.complete && !line.notListed)
      problems.push(`${where}.notListed: an incomplete line must say what the dataset leaves out`);
  });
  p.plans.forEach((plan, j) => {
    const where = `${at}.plans[${j}] (${plan.name})`;
    const index = lines.get(plan.line);
    if (index === undefined) {
      problems.push(
        `${where}.line: names no plan line of ${p.id} ("${plan.line}"); lines: ${[...lines.keys()].join(', ')}`,
      );
      return;
    }
    const line = p.planLines[index];
    const wantsMonthToMonth = line.priceBasis === 'prepaid-term' && line.monthToMonthSold !== false;
    if (line.promotional && plan.renewalPrice === undefined) {
      problems.push(
        `${where}.renewalPrice: a promotional price needs its renewal price (null only when it could not be confirmed)`,
      );
    }
    if (!line.promotional && plan.renewalPrice !== undefined)
      problems.push(`${where}.renewalPrice: only plans of a promotional line have a renewal price`);
    if (wantsMonthToMonth && plan.monthToMonthPrice === undefined) {
      problems.push(
        `${where}.monthToMonthPrice: a prepaid plan also sold month to month needs that price (null only when it could not be confirmed)`,
      );
    }
    if (!wantsMonthToMonth && plan.monthToMonthPrice !== undefined) {
      problems.push(
        `${where}.monthToMonthPrice: only plans of a prepaid-term line sold month to month carry a separate month-to-month price`,
      );
    }
    for (const key of ['renewalPrice', 'monthToMonthPrice'] as const) {
      const value = plan[key];
      if (typeof value === 'number' && value < plan.price)
        problems.push(`${where}.${key}: must not be below the headline price (${plan.price})`);
    }
  });
  return problems;
}

/** The recommendation that compares prices: it is derived from them. */
export const BEST_BUDGET = 'bestBudget';

/**
 * The provider whose cheapest plan sold with no commitment costs least in USD (ties by id), or
 * undefined when no provider has one. Only fresh offers compete (a stale price is never ranked as if it
 * were fresh, a discontinued line or an unorderable plan never picked); when no provider has a fresh one,
 * orderable plans of current lines with stale prices do.
 */
export function cheapestNoCommitmentProvider(
  providers: readonly ProviderRecord[],
  rates: ExchangeRates,
  version: string,
): string | undefined {
  return cheapestNoCommitmentOffer(providers, rates, version)?.providerId;
}

/** The plan `cheapestNoCommitmentProvider` picks its provider by: the cheapest offer in USD (ties by provider id). */
export function cheapestNoCommitmentOffer(
  providers: readonly ProviderRecord[],
  rates: ExchangeRates,
  version: string,
): { providerId: string; planName: string } | undefined {
  const priced = providers.map((p) => ({
    p,
    plans: pricedPlans(p, version).filter((plan) => !plan.discontinued && plan.orderable !== false),
  }));
  const anyFresh = priced.some(({ plans }) =>
    plans.some((plan) => isFreshOffer(plan) && plan.monthToMonthPrice !== null),
  );
  const entries = priced.flatMap(({ p, plans }) =>
    plans
      .filter((plan) => (!anyFresh || isFreshOffer(plan)) && plan.monthToMonthPrice !== null)
      .map((plan) => ({
        providerId: p.id,
        planName: plan.name,
        usd: rates.convert(plan.monthToMonthPrice!, plan.currency, 'USD'),
      })),
  );
  entries.sort((a, b) => a.usd - b.usd || a.providerId.localeCompare(b.providerId));
  const best = entries[0];
  return best && { providerId: best.providerId, planName: best.planName };
}

/** `recommendations.bestBudget` is derived from the prices when the dataset loads, so it is never written by hand. */
export function checkBestBudgetNotWritten(recommendations: Record<string, string>, file: string): string[] {
  if (recommendations[BEST_BUDGET] === undefined) return [];
  return [
    `${file}: recommendations.${BEST_BUDGET}: remove it; it is derived when the dataset loads (the provider with the cheapest plan sold without commitment, in USD)`,
  ];
}

/**
 * What a generated guide quotes of one provider, each dated by the sources it was read from:
 * - `plans`: the plans still sold (each line's price source, a reported later price change, and the
 *   source that says a line is discontinued, since that decides which plans are still quoted);
 * - `listedPlans`: every plan, discontinued lines included (a review's full plan table);
 * - `support`, `datacenters`, `features`: facts of the provider record that have no source of their own.
 * Ratings and editorial prose carry no date in the data, so they date nothing.
 */
export type QuotedFact = 'plans' | 'listedPlans' | 'support' | 'datacenters' | 'features';

/** The figures a generated guide quotes: per provider id, which of its facts; and whether it converts a price between currencies (then the exchange rates count). */
export interface QuotedFigures {
  providers: ReadonlyMap<string, readonly QuotedFact[]>;
  convertsPrices: boolean;
}

/** What each kind of generated guide always quotes of the providers it is about (the templates and the validator share these). */
export const REVIEW_FACTS: readonly QuotedFact[] = ['listedPlans', 'support', 'datacenters', 'features'];
export const COMPARISON_FACTS: readonly QuotedFact[] = ['plans', 'support', 'datacenters', 'features'];
export const ALTERNATIVES_FACTS: readonly QuotedFact[] = ['plans', 'datacenters', 'features'];

/**
 * The provider's own `sources` that back the facts of its record with no source of their own (support,
 * data centers, features, uptime): every provider source except the pages a plan line, an add-on or the
 * tax treatment cites, which are dated where they are cited. The data does not say which of the
 * remaining pages backs which of those facts, so each of them dates all of them.
 */
export function recordSources(p: ProviderRecord): ProviderRecord['sources'] {
  const cited = new Set<string>();
  for (const line of p.planLines) {
    for (const s of [line.source, line.laterPriceChange?.source, line.discontinued?.source]) {
      if (s) [s.url, s.copyOf].forEach((u) => u && cited.add(u));
    }
  }
  for (const item of Object.values(p.addOns) as { source?: { url: string } }[])
    if (item.source) cited.add(item.source.url);
  for (const s of p.tax.sources) cited.add(s.url);
  return p.sources.filter((s) => !cited.has(s.url));
}

/**
 * The days (`retrievedAt`: the day we read the page, the date of our last substantive check) of the
 * sources behind one fact of a provider.
 */
export function factDates(p: ProviderRecord, fact: QuotedFact): string[] {
  if (fact === 'plans' || fact === 'listedPlans') {
    return p.planLines.flatMap((line) => {
      const quoted = fact === 'listedPlans' || !line.discontinued;
      return [
        quoted ? line.source : undefined,
        quoted ? line.laterPriceChange?.source : undefined,
        line.discontinued?.source,
      ].flatMap((s) => (s ? [s.retrievedAt] : []));
    });
  }
  return recordSources(p).map((s) => s.retrievedAt);
}

/** The day of the newest figure among those quoted (undefined when none is dated): the earliest `updated` the guide may carry. */
export function quotedFiguresDate(
  quoted: QuotedFigures,
  byId: ReadonlyMap<string, ProviderRecord>,
  ratesDate: string,
): string | undefined {
  const dates = [...quoted.providers].flatMap(([id, facts]) => {
    const p = byId.get(id);
    return p ? facts.flatMap((f) => factDates(p, f)) : [];
  });
  if (quoted.convertsPrices) dates.push(ratesDate);
  return dates.sort().at(-1);
}

/** A generated guide's `updated`: the day of the newest figure it quotes, never before it was published. */
export function generatedGuideUpdated(published: string, figuresDate: string | undefined): string {
  return figuresDate !== undefined && figuresDate > published ? figuresDate : published;
}

/**
 * What a generated guide certainly quotes, read from its type and slug alone (the validator cannot see the
 * editorial inputs): a review or alternatives guide `<id>-review`/`<id>-alternatives` quotes its provider,
 * a comparison `<a>-vs-<b>[-vs-<c>]` each provider it names. A best-of list's figures depend on its
 * criteria, which only the generator reads; undefined then (the regeneration test covers it).
 */
export function subjectFigures(
  type: string,
  slug: string,
  byId: ReadonlyMap<string, Pick<ProviderRecord, 'currency'>>,
): QuotedFigures | undefined {
  const one = (suffix: string, facts: readonly QuotedFact[]) =>
    slug.endsWith(suffix) ? [[slug.slice(0, -suffix.length), facts] as const] : [];
  const entries =
    type === 'review'
      ? one('-review', REVIEW_FACTS)
      : type === 'alternatives'
        ? one('-alternatives', ALTERNATIVES_FACTS)
        : type === 'comparison'
          ? slug.split('-vs-').map((id) => [id, COMPARISON_FACTS] as const)
          : [];
  if (entries.length === 0 || entries.some(([id]) => !byId.has(id))) return undefined;
  return { providers: new Map(entries), convertsPrices: entries.some(([id]) => byId.get(id)!.currency !== 'USD') };
}
