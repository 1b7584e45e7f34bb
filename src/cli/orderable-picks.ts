/**
 * A release never ranks a plan its provider does not let anyone order: every price the dataset puts
 * forward (a provider's startingPrice, recommendations.bestBudget, a use case's startingAt, the plans a
 * generated guide picks from) must rest on a plan that can be ordered. The served app derives each of
 * them with that rule; this check holds the derivations to it before a release is made.
 */
import { InvalidDatasetError } from '../dataset/dataset-loader.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { ProviderRecord } from '../dataset/dto/provider.dto.js';
import { pricedPlans } from '../dataset/plan-pricing.js';
import { cheapestNoCommitmentOffer } from '../dataset/provider-rules.js';
import { buildPlanRows } from '../plans/plan-rows.js';
import { entryPrice } from '../use-cases/use-cases.service.js';
import { generatorContext } from './guides-generator/generator-context.js';

/** A plan something puts forward, and what: `hetzner.startingPrice`, `recommendations.bestBudget`, `use case wordpress startingAt`. */
export interface PutForward {
  what: string;
  providerId: string;
  planName: string;
}

/** One problem for each price put forward that rests on a plan the provider shows as not orderable. */
export function unorderablePicks(picks: readonly PutForward[], providers: readonly ProviderRecord[], asOf: string) {
  const plans = new Map(providers.map((p) => [p.id, pricedPlans(p, asOf)]));
  return picks.flatMap((pick) => {
    const plan = plans.get(pick.providerId)?.find((x) => x.name === pick.planName);
    if (!plan || plan.orderable !== false) return [];
    const seen = plan.orderableObservedAt ? ` (seen ${plan.orderableObservedAt}, ${plan.orderableSourceUrl})` : '';
    return [
      `${pick.what} rests on ${pick.providerId} ${pick.planName}, which cannot be ordered${seen}: a release never puts forward a plan nobody can buy`,
    ];
  });
}

/** Every plan the snapshot puts forward: each provider's entry plan, bestBudget's plan, each use case's entry plan, and every plan a generated guide may pick. */
export function plansPutForward(snapshot: DatasetSnapshot): PutForward[] {
  const { providers, asOf } = snapshot;
  const picks: PutForward[] = [];
  for (const p of providers) {
    // The plan the entry price is: an orderable one at that price when there is one.
    const atStart = pricedPlans(p, asOf).filter((plan) => plan.price === p.startingPrice && !plan.discontinued);
    const plan = atStart.find((x) => x.orderable !== false) ?? atStart[0];
    if (plan) picks.push({ what: `providers.json: ${p.id}.startingPrice`, providerId: p.id, planName: plan.name });
  }
  const budget = cheapestNoCommitmentOffer(providers, snapshot.exchangeRates, asOf);
  if (budget) picks.push({ what: 'recommendations.bestBudget', ...budget });
  const rows = buildPlanRows(snapshot, { url: (path: string) => path });
  for (const u of snapshot.useCases) {
    const entry = entryPrice(rows, u);
    picks.push({ what: `use case ${u.slug} startingAt`, providerId: entry.providerId, planName: entry.planName });
  }
  // The plans a guide picks from depend on the data alone, not on the editors' prose.
  const prose = { reviews: {}, comparisons: [], bestOf: [], alternatives: {} };
  const ctx = generatorContext([...providers], [...snapshot.useCases], snapshot.exchangeRates, prose, snapshot.version);
  for (const p of providers)
    for (const { plan } of ctx.plansOf(p.id))
      picks.push({ what: `a generated guide's pick of ${p.id}`, providerId: p.id, planName: plan.name });
  return picks;
}

/** The snapshot, when nothing it puts forward rests on an unorderable plan; otherwise InvalidDatasetError listing each. */
export function checkedForRelease(snapshot: DatasetSnapshot, dir: string): DatasetSnapshot {
  const problems = unorderablePicks(plansPutForward(snapshot), snapshot.providers, snapshot.asOf);
  if (problems.length > 0) throw new InvalidDatasetError(dir, problems);
  return snapshot;
}
