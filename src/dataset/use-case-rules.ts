import type { ProviderRecord } from './dto/provider.dto.js';
import type { UseCaseRecord } from './dto/use-case.dto.js';
import { meetsSpec, planFigures, specBounds } from './plan-figures.js';
import { pricedPlans } from './plan-pricing.js';

/**
 * The sizing of a use case must be buyable from the dataset: some plan with a no-commitment price
 * meets the minimum spec (its `startingAt` is derived from it), and some plan of a recommended
 * provider meets the recommended spec, or `recommendedSpecNote` says how to reach it. The note is
 * refused when a plan does meet the spec, so it cannot outlive the gap it explains.
 */
export function checkUseCaseSizing(u: UseCaseRecord, providers: readonly ProviderRecord[], at: string, version: string): string[] {
  const problems: string[] = [];
  const rows = providers.flatMap((p) => pricedPlans(p, version).filter((plan) => !plan.discontinued).map((plan) => ({ providerId: p.id, plan, ...planFigures(plan) })));
  const entry = rows.filter((r) => r.plan.monthToMonthPrice !== null && meetsSpec(r, specBounds(u.minimumSpec)));
  if (entry.length === 0) problems.push(`${at}.minimumSpec: no plan sold without commitment meets it, so there is no entry price`);
  const picks = new Set(u.recommendedProviders.map((p) => p.id));
  const met = rows.some((r) => picks.has(r.providerId) && meetsSpec(r, specBounds(u.recommendedSpec)));
  if (!met && !u.recommendedSpecNote) {
    problems.push(`${at}.recommendedSpec: no plan of a recommended provider meets it; lower it, recommend a provider that sells it, or say how it is reached in recommendedSpecNote`);
  }
  if (met && u.recommendedSpecNote) problems.push(`${at}.recommendedSpecNote: a recommended provider's plan meets the recommended spec, so there is nothing to explain`);
  return problems;
}
