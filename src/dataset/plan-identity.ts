/**
 * Which plan of one release is which plan of the next: the provider's own id of the size where both
 * sides have one, else the plan's name (releases made before plans carried ids, editorial lines). A
 * size that is renamed or re-specced keeps its id, so it is the same plan with new specs, never a
 * removal, an addition and a repricing of a neighbour that happens to take its old name.
 */
export interface IdentifiedPlan {
  providerId: string;
  planName: string;
  providerPlanId?: string;
}

/** Pairs each plan of `next` with its plan in `previous` (one each at most); unpaired plans are added or removed. */
export function pairPlans<P extends IdentifiedPlan>(
  previous: readonly P[],
  next: readonly P[],
): { pairs: [P, P][]; added: P[]; removed: P[] } {
  const unpaired = new Set(previous);
  const byId = new Map(previous.filter((p) => p.providerPlanId).map((p) => [idKey(p), p]));
  const pairs: [P, P][] = [];
  const added: P[] = [];
  const pending: P[] = [];
  for (const plan of next) {
    const same = plan.providerPlanId ? byId.get(idKey(plan)) : undefined;
    if (same && unpaired.has(same)) {
      unpaired.delete(same);
      pairs.push([same, plan]);
    } else pending.push(plan);
  }
  // By name only between plans that cannot be told apart by id: one side has none.
  for (const plan of pending) {
    const same = [...unpaired].find(
      (p) =>
        p.providerId === plan.providerId && p.planName === plan.planName && !(p.providerPlanId && plan.providerPlanId),
    );
    if (same) {
      unpaired.delete(same);
      pairs.push([same, plan]);
    } else added.push(plan);
  }
  return { pairs, added, removed: previous.filter((p) => unpaired.has(p)) };
}

/** The key a plan's history is kept under: its provider's id of the size, else its name. */
export function planHistoryKey(plan: IdentifiedPlan): string {
  return plan.providerPlanId ? idKey(plan) : nameKey(plan);
}

/** The key a plan had before releases recorded ids. */
export const nameKey = (plan: Pick<IdentifiedPlan, 'providerId' | 'planName'>) =>
  `${plan.providerId}\u0000name\u0000${plan.planName}`;
const idKey = (plan: IdentifiedPlan) => `${plan.providerId}\u0000id\u0000${plan.providerPlanId}`;
