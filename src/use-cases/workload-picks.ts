import type { SpecRecord } from '../dataset/dto/use-case.dto.js';
import { meetsSpec, sizeBounds, specBounds, transferFit } from '../dataset/plan-figures.js';
import { claimsText, hasClaims, meetsClaims, type ReasonClaims } from '../dataset/reason-claims.js';
import type { PlanTableRow as PlanRow } from '../plans/dto/plan-table-row.dto.js';
import { cpuTypeOf } from '../plans/plans.service.js';
import type { MatchingPlan, RecommendedProvider } from './workload-recommendation.js';

/** A spec a pick's plan may meet, and what `meets` then says; tried in order. */
export type SpecChoice = readonly [spec: SpecRecord, meets: MatchingPlan['meets']];

/** What narrows the plans a pick can show, beyond the spec and the reason's claims. */
export interface PlanNarrowing {
  /** Where the plan is bought and in what currency: its compared monthly price there, or null when it cannot be bought there at a known price. */
  comparedPrice: (row: PlanRow) => { price: number; factor: number } | null;
  currency: string;
  /** Highest compared price, in `currency`. */
  budget?: number;
  /** The place, in words, for the note on a pick left without a plan. */
  where?: string;
  /** Plans the provider shows as not orderable may be picked too (flagged). */
  includeUnorderable?: boolean;
}

/**
 * One recommended provider with the cheapest plan it can show: among its plans still sold that the
 * reason describes (its claims), sold where asked and within the budget, the cheapest meeting the
 * first spec of `specs` some plan meets.
 */
export function pickWithPlan(
  pick: { id: string; reason: string },
  provider: { name: string; url: string },
  rows: readonly PlanRow[],
  claims: ReasonClaims,
  specs: readonly SpecChoice[],
  narrowing?: PlanNarrowing,
): RecommendedProvider {
  const compared = new Map<PlanRow, { price: number; factor: number }>();
  const own = rows.filter((r) => {
    if (r.providerId !== pick.id || !meetsClaims(r, claims)) return false;
    if (!narrowing) return true;
    const at = narrowing.comparedPrice(r);
    if (!at || (narrowing.budget !== undefined && at.price > narrowing.budget)) return false;
    compared.set(r, at);
    return true;
  });
  const offered = (r: PlanRow) => !r.discontinued && (r.orderable !== false || narrowing?.includeUnorderable === true);
  const note = transferNote(own, specs, provider.name, offered);
  const plan = cheapestFor(own, specs, compared, offered, narrowing?.currency);
  return {
    id: pick.id,
    name: provider.name,
    reason: pick.reason,
    ...(hasClaims(claims) ? { reasonClaims: claims } : {}),
    url: provider.url,
    cheapestMatchingPlan: plan,
    ...(note ? { transferNote: note } : {}),
    ...(!plan && narrowing ? { noPlanNote: noPlanNote(provider.name, claims, specs, narrowing) } : {}),
  };
}

/** Why a pick shows no plan once narrowed: the conditions no plan of it meets together. */
function noPlanNote(
  name: string,
  claims: ReasonClaims,
  specs: readonly SpecChoice[],
  narrowing: PlanNarrowing,
): string {
  const claimed = hasClaims(claims) ? ` with ${claimsText(claims)}` : '';
  const spec = specs.map(([, meets]) => meets).join(' or ');
  const where = narrowing.where ? ` sold in ${narrowing.where} at a price the dataset has` : '';
  const budget = narrowing.budget !== undefined ? ` within ${narrowing.budget} ${narrowing.currency} a month` : '';
  return `No ${name} plan still sold${claimed} meets the ${spec} spec${where}${budget}.`;
}

/**
 * When some of a provider's plans still sold reach a spec's vCPUs, RAM and disk but state no traffic
 * allowance (neither a volume nor unmetered), they are not counted as meeting it; the answer says so,
 * naming the spec and the allowance text, rather than leaving the reader to wonder why they were passed over.
 */
function transferNote(
  rows: readonly PlanRow[],
  specs: readonly SpecChoice[],
  providerName: string,
  offered: (r: PlanRow) => boolean,
): string | undefined {
  for (const [spec, name] of specs) {
    const unknown = rows.filter(
      (r) => offered(r) && meetsSpec(r, sizeBounds(spec)) && transferFit(r, spec.bandwidthTb) === 'unknown',
    );
    if (unknown.length === 0) continue;
    const allowances = [...new Set(unknown.map((r) => `"${r.bandwidth}"`))].join(', ');
    const n = unknown.length;
    return `${n} ${providerName} plan${n === 1 ? '' : 's'} reach${n === 1 ? 'es' : ''} the ${name} spec's vCPUs, RAM and disk but state${n === 1 ? 's' : ''} no traffic volume (${allowances}), so ${n === 1 ? 'it is' : 'they are'} not counted as including its ${spec.bandwidthTb} TB a month: ask ${providerName} for the allowance.`;
  }
  return undefined;
}

/**
 * The provider's cheapest plan meeting the first spec some plan meets, by no-commitment price (the
 * compared price where one is given). Discontinued plans are never picked; plans that need a
 * commitment only when the provider has no other; and within that, a plan with a stale price only
 * when no fresh one fits.
 */
function cheapestFor(
  rows: readonly PlanRow[],
  specs: readonly SpecChoice[],
  compared: ReadonlyMap<PlanRow, { price: number; factor: number }>,
  offered: (r: PlanRow) => boolean,
  currency?: string,
): MatchingPlan | null {
  for (const [spec, meets] of specs) {
    const fitting = rows.filter((r) => offered(r) && meetsSpec(r, specBounds(spec)));
    if (fitting.length === 0) continue;
    const withoutCommitment = fitting.filter((r) => r.monthToMonthPrice !== null);
    const sold = withoutCommitment.length > 0 ? withoutCommitment : fitting;
    const fresh = sold.filter((r) => !r.stale);
    const pool = fresh.length > 0 ? fresh : sold;
    const price = (r: PlanRow) => compared.get(r)?.price ?? r.monthToMonthPrice ?? r.price;
    const plan = pool.reduce((best, r) => (price(r) < price(best) ? r : best));
    const at = compared.get(plan);
    return {
      planName: plan.planName,
      price: plan.price,
      currency: plan.currency,
      cpu: plan.cpu,
      ram: plan.ram,
      storage: plan.storage,
      bandwidth: plan.bandwidth,
      cpuType: cpuTypeOf(plan),
      priceBasis: plan.priceBasis,
      termMonths: plan.termMonths,
      promotional: plan.promotional,
      renewalPrice: plan.renewalPrice,
      monthToMonthPrice: plan.monthToMonthPrice,
      observedAt: plan.observedAt,
      stale: plan.stale,
      staleReason: plan.staleReason,
      ...(at && currency ? { normalizedPrice: at.price, normalizedCurrency: currency } : {}),
      ...(at && at.factor !== 1 ? { regionalPriceFactor: at.factor } : {}),
      ...(plan.orderable === false ? { orderable: false as const } : {}),
      meets,
    };
  }
  return null;
}
