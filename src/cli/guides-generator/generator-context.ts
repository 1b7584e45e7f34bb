import type { ProviderRecord } from '../../dataset/dto/provider.dto.js';
import type { UseCaseRecord } from '../../dataset/dto/use-case.dto.js';
import type { ExchangeRates } from '../../dataset/exchange-rates.js';
import { planFigures, type PlanFigures } from '../../dataset/plan-figures.js';
import type { Plan } from '../../dataset/dto/plan.dto.js';
import { pricedPlans } from '../../dataset/plan-pricing.js';
import {
  generatedGuideUpdated,
  quotedFiguresDate,
  type QuotedFact,
  type QuotedFigures,
} from '../../dataset/provider-rules.js';
import type { ComparisonEditorial, Editorial } from './editorial.js';

/** A plan with its figures and its prices in USD. */
export interface PricedPlan extends PlanFigures {
  plan: Plan;
  /** The headline price in USD. */
  usd: number;
  /** The no-commitment monthly price in USD; null when the plan has none (or it is not known). */
  noCommitmentUsd: number | null;
}

/** What the templates read. */
export interface GeneratorContext {
  providers: ProviderRecord[];
  byId: ReadonlyMap<string, ProviderRecord>;
  useCases: UseCaseRecord[];
  rates: ExchangeRates;
  /** The day of the oldest rate that turns the providers' prices into US dollars, the currency every guide compares in. */
  usdRatesDate: string;
  editorial: Editorial;
  /**
   * A generated guide's `updated`: the day of the newest source behind the figures it quotes (the day we
   * read it, `retrievedAt`), never before `published`.
   */
  updated(published: string, quoted: QuotedFigures): string;
  /**
   * The plans of a provider still sold, priced in USD, for picks and rankings: fresh prices before stale
   * ones (a stale price is never ranked as if fresh), each cheapest with no commitment first, then those
   * that need one. Plans of discontinued lines, and plans the provider shows as not orderable, are left out.
   */
  plansOf(id: string): PricedPlan[];
  /** Every plan of a provider in the dataset's order, discontinued ones included: the full plan table. */
  listedPlansOf(id: string): PricedPlan[];
  /** The comparison guide of a pair, in either order. */
  comparisonOf(a: string, b: string): ComparisonEditorial | undefined;
}

export function generatorContext(
  providers: ProviderRecord[],
  useCases: UseCaseRecord[],
  rates: ExchangeRates,
  editorial: Editorial,
  version: string,
): GeneratorContext {
  const listed = new Map(
    providers.map((p) => [
      p.id,
      pricedPlans(p, version).map((plan) => ({
        plan,
        usd: rates.convert(plan.price, plan.currency, 'USD'),
        noCommitmentUsd:
          plan.monthToMonthPrice === null ? null : rates.convert(plan.monthToMonthPrice, plan.currency, 'USD'),
        ...planFigures(plan),
      })),
    ]),
  );
  const plans = new Map(
    [...listed].map(([id, list]) => [
      id,
      list
        .filter((x) => !x.plan.discontinued && x.plan.orderable !== false)
        .sort((a, b) => Number(a.plan.stale) - Number(b.plan.stale) || byNoCommitmentPrice(a, b)),
    ]),
  );
  const pairKey = (a: string, b: string) => [a, b].sort().join('|');
  const pairs = new Map(
    editorial.comparisons
      .filter((c) => c.providers.length === 2)
      .map((c) => [pairKey(c.providers[0], c.providers[1]), c]),
  );
  const byId = new Map(providers.map((p) => [p.id, p]));
  const usdRatesDate = rates.dateUsedBy(providers.map((p) => [p.currency, 'USD'] as const));
  return {
    providers,
    byId,
    useCases,
    rates,
    usdRatesDate,
    editorial,
    updated: (published, quoted) => generatedGuideUpdated(published, quotedFiguresDate(quoted, byId, usdRatesDate)),
    plansOf: (id) => plans.get(id) ?? [],
    listedPlansOf: (id) => listed.get(id) ?? [],
    comparisonOf: (a, b) => pairs.get(pairKey(a, b)),
  };
}

/** Cheapest no-commitment price first; plans that need a commitment after, by headline price. */
export function byNoCommitmentPrice(
  a: Omit<PricedPlan, keyof PlanFigures>,
  b: Omit<PricedPlan, keyof PlanFigures>,
): number {
  if ((a.noCommitmentUsd === null) !== (b.noCommitmentUsd === null)) return a.noCommitmentUsd === null ? 1 : -1;
  return (
    (a.noCommitmentUsd ?? a.usd) - (b.noCommitmentUsd ?? b.usd) ||
    a.usd - b.usd ||
    a.plan.name.localeCompare(b.plan.name)
  );
}

/** The figures a guide quotes: these facts of each of these providers; the exchange rates when any of them bills in another currency than USD and the guide shows prices. */
export function quoting(
  providers: readonly ProviderRecord[],
  facts: readonly QuotedFact[],
  showsPrices: boolean,
): QuotedFigures {
  return {
    providers: new Map(providers.map((p) => [p.id, facts])),
    convertsPrices: showsPrices && providers.some((p) => p.currency !== 'USD'),
  };
}

/** Two quotations as one (facts of a provider named in both are joined). */
export function joinQuotes(a: QuotedFigures, b: QuotedFigures): QuotedFigures {
  const providers = new Map(a.providers);
  for (const [id, facts] of b.providers) providers.set(id, [...new Set([...(providers.get(id) ?? []), ...facts])]);
  return { providers, convertsPrices: a.convertsPrices || b.convertsPrices };
}
