import { pairPlans } from '../../dataset/plan-identity.js';
import type {
  DatasetChanges,
  PlanRepricing,
  ProviderFactChange,
  ReleasedGuide,
  ReleasedPlan,
} from '../../dataset/dto/changelog.dto.js';

/** What a release compares: the provider records as written, and the guide index. */
export interface ReleaseContent {
  providers: readonly ({
    id: string;
    plans: readonly { name: string; price: number; currency: string; providerPlanId?: string }[];
  } & Record<string, unknown>)[];
  guides: readonly { slug: string; title: string; published: string; updated?: string }[];
}

const guideDate = (g: ReleaseContent['guides'][number]) => g.updated ?? g.published;
/** Deep equality of JSON values, key order ignored. */
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/**
 * The changes from `previous` to `current`: providers and plans added or removed, plans repriced,
 * provider fields (other than plans) that changed, guides added or re-dated. With no previous
 * release everything is added. Lists follow the current dataset's order (removals the previous one's).
 */
export function diffReleases(previous: ReleaseContent | null, current: ReleaseContent): DatasetChanges {
  const before = new Map((previous?.providers ?? []).map((p) => [p.id, p]));
  const after = new Map(current.providers.map((p) => [p.id, p]));
  const plansOf = (content: ReleaseContent | null) =>
    (content?.providers ?? []).flatMap((p) =>
      p.plans.map((plan): ReleasedPlan => ({
        providerId: p.id,
        planName: plan.name,
        ...(plan.providerPlanId ? { providerPlanId: plan.providerPlanId } : {}),
        price: plan.price,
        currency: plan.currency,
      })),
    );
  const { pairs, added, removed } = pairPlans(plansOf(previous), plansOf(current));

  const plansRepriced: PlanRepricing[] = [];
  for (const [old, plan] of pairs) {
    if (old.price !== plan.price || old.currency !== plan.currency) {
      const { price: newPrice, ...ref } = plan;
      plansRepriced.push({ ...ref, oldPrice: old.price, newPrice, oldCurrency: old.currency, currency: plan.currency });
    }
  }

  const providerFacts: ProviderFactChange[] = [];
  for (const [id, record] of after) {
    const old = before.get(id);
    if (!old) continue;
    const fields = [...new Set([...Object.keys(old), ...Object.keys(record)])].filter((f) => f !== 'plans');
    for (const field of fields) {
      if (!sameJson(old[field], record[field]))
        providerFacts.push({ providerId: id, field, oldValue: old[field] ?? null, newValue: record[field] ?? null });
    }
  }

  const oldGuides = new Map((previous?.guides ?? []).map((g) => [g.slug, g]));
  const released = (g: ReleaseContent['guides'][number]): ReleasedGuide => ({
    slug: g.slug,
    title: g.title,
    date: guideDate(g),
  });
  return {
    providersAdded: [...after.keys()].filter((id) => !before.has(id)),
    providersRemoved: [...before.keys()].filter((id) => !after.has(id)),
    plansAdded: added,
    plansRemoved: removed,
    plansRepriced,
    providerFacts,
    guidesAdded: current.guides.filter((g) => !oldGuides.has(g.slug)).map(released),
    guidesUpdated: current.guides
      .filter((g) => oldGuides.has(g.slug) && guideDate(oldGuides.get(g.slug)!) !== guideDate(g))
      .map(released),
  };
}

/** One line saying what a release changed. */
export function releaseSummary(changes: DatasetChanges, initial: boolean): string {
  if (initial) return 'initial release';
  const parts: [number, string, string][] = [
    [changes.providersAdded.length, 'provider added', 'providers added'],
    [changes.providersRemoved.length, 'provider removed', 'providers removed'],
    [changes.plansAdded.length, 'plan added', 'plans added'],
    [changes.plansRemoved.length, 'plan removed', 'plans removed'],
    [changes.plansRepriced.length, 'plan repriced', 'plans repriced'],
    [changes.providerFacts.length, 'provider fact changed', 'provider facts changed'],
    [changes.guidesAdded.length, 'guide added', 'guides added'],
    [changes.guidesUpdated.length, 'guide updated', 'guides updated'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return said.length > 0 ? said.join(', ') : 'no data changes';
}
