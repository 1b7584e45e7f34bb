import type { ProviderRecord } from './dto/provider.dto.js';
import type { SpecRecord, UseCaseRecord } from './dto/use-case.dto.js';
import { meetsSpec, planFigures, specBounds, type PlanFigures } from './plan-figures.js';
import { pricedPlans } from './plan-pricing.js';
import { claimsText, hasClaims, meetsClaims, reasonClaims } from './reason-claims.js';

interface SoldRow extends PlanFigures {
  providerId: string;
  monthToMonthPrice: number | null;
  cpuType: string;
  storage: string;
}

/** The rows of the providers list being validated (validateDataset builds a new list for every dataset): each of its use cases reads the same rows. */
const rowsOf = new WeakMap<readonly ProviderRecord[], { version: string; rows: SoldRow[] }>();

/** Every plan still sold, with its figures (computed once per providers list and version). */
function soldRows(providers: readonly ProviderRecord[], version: string): SoldRow[] {
  const known = rowsOf.get(providers);
  if (known?.version === version) return known.rows;
  const rows = allSoldRows(providers, version);
  rowsOf.set(providers, { version, rows });
  return rows;
}

const allSoldRows = (providers: readonly ProviderRecord[], version: string): SoldRow[] =>
  providers.flatMap((p) =>
    pricedPlans(p, version)
      .filter((plan) => !plan.discontinued)
      .map((plan) => ({
        providerId: p.id,
        monthToMonthPrice: plan.monthToMonthPrice,
        cpuType: plan.cpuType,
        storage: plan.storage,
        ...planFigures(plan),
      })),
  );

/**
 * The sizing of a use case must be buyable from the dataset, on all four parts of a spec (vCPUs, RAM,
 * disk and transfer):
 * - some plan with a no-commitment price meets the minimum spec (its `startingAt` is derived from it);
 * - every recommended provider sells a plan that meets the minimum spec: a pick nobody can buy for the
 *   workload is refused, whatever its reason says;
 * - a pick whose reason claims something of its plans (dedicated or shared vCPUs, a disk technology:
 *   src/dataset/reason-claims.ts) sells such a plan that meets the minimum spec, since that is the plan
 *   the pick shows: otherwise the reason says what the pick cannot show, and is refused, naming the claim;
 * - some plan of a recommended provider (one its reason describes) meets the recommended spec, or
 *   `recommendedSpecNote` says how it is reached. The note is refused when a plan does meet the spec,
 *   so it cannot outlive the gap it explains.
 */
export function checkUseCaseSizing(
  u: UseCaseRecord,
  providers: readonly ProviderRecord[],
  at: string,
  version: string,
): string[] {
  const problems: string[] = [];
  const rows = soldRows(providers, version);
  const entry = rows.filter((r) => r.monthToMonthPrice !== null && meetsSpec(r, specBounds(u.minimumSpec)));
  if (entry.length === 0)
    problems.push(`${at}.minimumSpec: no plan sold without commitment meets it, so there is no entry price`);
  const described = new Map<string, SoldRow[]>();
  u.recommendedProviders.forEach((pick, j) => {
    if (!providers.some((p) => p.id === pick.id)) return; // reported as naming no provider
    const own = rows.filter((r) => r.providerId === pick.id);
    const claims = reasonClaims(pick.reason);
    const claimed = own.filter((r) => meetsClaims(r, claims));
    described.set(pick.id, [...(described.get(pick.id) ?? []), ...claimed]);
    if (!own.some((r) => meetsSpec(r, specBounds(u.minimumSpec)))) {
      const why = own.length === 0 ? 'it sells none of its listed plans any more' : missedParts(own, u.minimumSpec);
      problems.push(
        `${at}.recommendedProviders[${j}] (${pick.id}): no plan of it still sold meets the minimum spec (${why}), so it cannot be bought for this use case; recommend a provider that sells such a plan`,
      );
      return;
    }
    if (!hasClaims(claims) || claimed.some((r) => meetsSpec(r, specBounds(u.minimumSpec)))) return;
    const why = claimed.length === 0 ? 'it sells no such plan' : missedParts(claimed, u.minimumSpec);
    problems.push(
      `${at}.recommendedProviders[${j}] (${pick.id}).reason: it claims ${claimsText(claims)}, but no plan of it still sold with ${claimsText(claims)} meets the minimum spec (${why}), so the pick would show a plan the reason does not describe; reword the reason or recommend a provider that sells such a plan`,
    );
  });
  const met = [...described.values()].some((own) => own.some((r) => meetsSpec(r, specBounds(u.recommendedSpec))));
  if (!met && !u.recommendedSpecNote) {
    problems.push(
      `${at}.recommendedSpec: no plan of a recommended provider meets it; lower it, recommend a provider that sells it, or say how it is reached in recommendedSpecNote`,
    );
  }
  if (met && u.recommendedSpecNote)
    problems.push(
      `${at}.recommendedSpecNote: a recommended provider's plan meets the recommended spec, so there is nothing to explain`,
    );
  return problems;
}

/** The parts of a spec that none of `rows` reaches on its own, in words (e.g. "disk: at most 160 GB, needs 200 GB"). */
function missedParts(rows: readonly SoldRow[], spec: SpecRecord): string {
  const parts: string[] = [];
  const most = (values: (number | null)[]) => Math.max(...values.map((v) => v ?? 0));
  const check = (name: string, unit: string, best: number, need: number) => {
    if (best < need) parts.push(`${name}: at most ${best} ${unit}, needs ${need} ${unit}`);
  };
  check('vCPUs', 'vCPU', most(rows.map((r) => r.vcpus)), spec.vcpus);
  check('RAM', 'GB', most(rows.map((r) => r.ramGb)), spec.ramGb);
  check('disk', 'GB', most(rows.map((r) => r.storageGb)), spec.storageGb);
  if (!rows.some((r) => meetsSpec(r, { minTransferTb: spec.bandwidthTb }))) {
    if (rows.some((r) => r.bandwidthTb !== null))
      check('transfer', 'TB', most(rows.map((r) => r.bandwidthTb)), spec.bandwidthTb);
    else parts.push(`transfer: no plan states its allowance as a volume or as unmetered, needs ${spec.bandwidthTb} TB`);
  }
  return parts.length > 0 ? parts.join('; ') : 'each part is met by some plan, never all four by one';
}
