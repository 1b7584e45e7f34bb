import type { ProviderRecord } from '../../dataset/dto/provider.dto.js';
import type { UseCaseRecord } from '../../dataset/dto/use-case.dto.js';
import type { ExchangeRates } from '../../dataset/exchange-rates.js';
import { planFigures, type PlanFigures } from '../../dataset/plan-figures.js';
import type { Plan } from '../../dataset/dto/plan.dto.js';
import type { ComparisonEditorial, Editorial } from './editorial.js';

/** A plan with its figures and its price in USD. */
export interface PricedPlan extends PlanFigures {
  plan: Plan;
  usd: number;
}

/** What the templates read. */
export interface GeneratorContext {
  providers: ProviderRecord[];
  byId: ReadonlyMap<string, ProviderRecord>;
  useCases: UseCaseRecord[];
  rates: ExchangeRates;
  editorial: Editorial;
  /** Every plan of a provider, priced in USD, cheapest first. */
  plansOf(id: string): PricedPlan[];
  /** The comparison guide of a pair, in either order. */
  comparisonOf(a: string, b: string): ComparisonEditorial | undefined;
}

export function generatorContext(providers: ProviderRecord[], useCases: UseCaseRecord[], rates: ExchangeRates, editorial: Editorial): GeneratorContext {
  const plans = new Map(
    providers.map((p) => [
      p.id,
      p.plans
        .map((plan) => ({ plan, usd: rates.convert(plan.price, plan.currency, 'USD'), ...planFigures(plan) }))
        .sort((a, b) => a.usd - b.usd || a.plan.name.localeCompare(b.plan.name)),
    ]),
  );
  const pairKey = (a: string, b: string) => [a, b].sort().join('|');
  const pairs = new Map(editorial.comparisons.filter((c) => c.providers.length === 2).map((c) => [pairKey(c.providers[0], c.providers[1]), c]));
  return {
    providers,
    byId: new Map(providers.map((p) => [p.id, p])),
    useCases,
    rates,
    editorial,
    plansOf: (id) => plans.get(id) ?? [],
    comparisonOf: (a, b) => pairs.get(pairKey(a, b)),
  };
}
