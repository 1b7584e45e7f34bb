/**
 * What a refresh would change in one provider's plans, and the plausibility gate that decides
 * whether it may be written. Plans are matched by the provider's own id where the dataset has one,
 * otherwise by name, so a renamed size is a spec-checked match, not a removal and an addition.
 */
import type { PlanRecord } from '../../../dataset/dto/plan.dto.js';
import type { ProviderRecord } from '../../../dataset/dto/provider.dto.js';
import type { CataloguePlan } from '../catalogue.js';

/** The largest rise and fall a price may make in one refresh without the operator's word. */
export const MAX_PRICE_RISE = 1.5;
export const MAX_PRICE_FALL = 0.5;
/** The largest share of a line's plans a refresh may remove without the operator's word. */
export const MAX_LINE_LOSS = 0.2;

export interface PlanChange {
  line: string;
  name: string;
  /** The provider's id where known, else the name: what `--accept` names. */
  key: string;
}

export interface ProviderDiff {
  providerId: string;
  added: (PlanChange & { price: number; currency: string })[];
  removed: (PlanChange & { price: number; currency: string; why: string })[];
  repriced: (PlanChange & { oldPrice: number; newPrice: number; currency: string })[];
  specsChanged: (PlanChange & { fields: { field: string; old: string; new: string }[] })[];
  citiesChanged: { line: string; old: string[]; new: string[] }[];
  observedChanged: { line: string; old: string; new: string }[];
  /** Plans whose orderability, or the day it was read, changed: "true 2026-10-06", "false 2026-09-03", "unknown". */
  availabilityChanged: (PlanChange & { old: string; new: string })[];
  currencyChanged: { old: string; new: string } | null;
}

/** A case the plausibility gate refuses unless the operator accepts its id. */
export interface GateCase {
  /** `provider:key`, `provider:line:<id>`, `provider:currency`: what `--accept` takes. */
  id: string;
  why: string;
}

/** What a size is: a plan whose provider id stays while one of these changes is re-specced or renamed (a gate case), not repriced. */
const SPEC_FIELDS = ['name', 'cpu', 'ram', 'storage', 'bandwidth', 'cpuType'] as const;

/** The changes from the provider record as served to the refreshed one, for the lines the refresh manages. */
export function diffProvider(
  before: ProviderRecord,
  after: ProviderRecord,
  managed: readonly string[],
  deprecated: readonly CataloguePlan[],
): ProviderDiff {
  const inScope = (p: PlanRecord) => managed.includes(p.line);
  const keyOf = (p: PlanRecord) => p.providerPlanId ?? p.name;
  const old = before.plans.filter(inScope);
  const next = after.plans.filter(inScope);
  const match = (p: PlanRecord, list: PlanRecord[]) =>
    list.find((q) =>
      p.providerPlanId && q.providerPlanId ? p.providerPlanId === q.providerPlanId : p.name === q.name,
    );
  const diff: ProviderDiff = {
    providerId: before.id,
    added: [],
    removed: [],
    repriced: [],
    specsChanged: [],
    citiesChanged: [],
    observedChanged: [],
    availabilityChanged: [],
    currencyChanged: null,
  };
  for (const p of next) {
    const was = match(p, old);
    const change = { line: p.line, name: p.name, key: keyOf(p) };
    if (!was) {
      diff.added.push({ ...change, price: p.price, currency: p.currency });
      continue;
    }
    if (was.price !== p.price)
      diff.repriced.push({ ...change, oldPrice: was.price, newPrice: p.price, currency: p.currency });
    const fields = SPEC_FIELDS.filter((f) => was[f] !== p[f]).map((f) => ({
      field: f,
      old: String(was[f]),
      new: String(p[f]),
    }));
    if (fields.length > 0) diff.specsChanged.push({ ...change, fields });
    if (availabilityText(was) !== availabilityText(p))
      diff.availabilityChanged.push({ ...change, old: availabilityText(was), new: availabilityText(p) });
  }
  for (const p of old) {
    if (match(p, next)) continue;
    const gone = deprecated.find((d) => d.id === p.providerPlanId || d.name === p.name);
    const why = gone
      ? `deprecated by the provider${gone.successor ? ` (successor ${gone.successor})` : ''}`
      : 'no longer in the catalogue';
    diff.removed.push({ line: p.line, name: p.name, key: keyOf(p), price: p.price, currency: p.currency, why });
  }
  for (const id of managed) {
    const a = before.planLines.find((l) => l.id === id);
    const b = after.planLines.find((l) => l.id === id);
    if (!a || !b) continue;
    const oldCities = a.datacenters ?? [];
    const newCities = b.datacenters ?? [];
    if (oldCities.join('|') !== newCities.join('|'))
      diff.citiesChanged.push({ line: id, old: oldCities, new: newCities });
    const oldSeen = before.plans
      .filter((p) => p.line === id)
      .map((p) => p.observedAt)
      .sort()[0];
    const newSeen = after.plans
      .filter((p) => p.line === id)
      .map((p) => p.observedAt)
      .sort()[0];
    if (oldSeen && newSeen && oldSeen !== newSeen) diff.observedChanged.push({ line: id, old: oldSeen, new: newSeen });
  }
  if (next.length > 0 && next[0].currency !== before.currency)
    diff.currencyChanged = { old: before.currency, new: next[0].currency };
  return diff;
}

const availabilityText = (p: PlanRecord) =>
  p.availability ? `${p.availability.orderable} ${p.availability.observedAt}` : 'unknown';

/** True when the refresh changes nothing that is served. */
export function isEmptyDiff(d: ProviderDiff): boolean {
  return (
    d.added.length +
      d.removed.length +
      d.repriced.length +
      d.specsChanged.length +
      d.citiesChanged.length +
      d.observedChanged.length +
      d.availabilityChanged.length ===
      0 && d.currencyChanged === null
  );
}

/**
 * The plausibility gate: a price that moves more than x1.5 or below x0.5, a line that loses more than
 * a fifth of its plans, a plan whose specs change under the same id, a currency change. Each is a case
 * the run refuses unless the operator accepts it by id.
 */
export function gateCases(d: ProviderDiff, before: ProviderRecord): GateCase[] {
  const cases: GateCase[] = [];
  for (const r of d.repriced) {
    const ratio = r.newPrice / r.oldPrice;
    if (ratio > MAX_PRICE_RISE || ratio < MAX_PRICE_FALL) {
      cases.push({
        id: `${d.providerId}:${r.key}`,
        why: `${r.name}: price ${r.oldPrice} -> ${r.newPrice} ${r.currency} (x${ratio.toFixed(2)}; the gate allows x${MAX_PRICE_FALL} to x${MAX_PRICE_RISE})`,
      });
    }
  }
  for (const s of d.specsChanged) {
    cases.push({
      id: `${d.providerId}:${s.key}`,
      why: `${s.name}: specs changed under the same id (${s.fields.map((f) => `${f.field} ${f.old} -> ${f.new}`).join(', ')})`,
    });
  }
  const lines = new Set(d.removed.map((r) => r.line));
  for (const line of lines) {
    const had = before.plans.filter((p) => p.line === line).length;
    const lost = d.removed.filter((r) => r.line === line).length;
    if (had > 0 && lost / had > MAX_LINE_LOSS) {
      cases.push({
        id: `${d.providerId}:line:${line}`,
        why: `line ${line} loses ${lost} of its ${had} plans (${Math.round((lost / had) * 100)}%; the gate allows ${MAX_LINE_LOSS * 100}%): ${d.removed
          .filter((r) => r.line === line)
          .map((r) => r.name)
          .join(', ')}`,
      });
    }
  }
  if (d.currencyChanged)
    cases.push({
      id: `${d.providerId}:currency`,
      why: `billing currency ${d.currencyChanged.old} -> ${d.currencyChanged.new}`,
    });
  return cases;
}

/** The diff as lines for a person: added, removed, repriced (old -> new), specs, cities, price dates. */
export function describeDiff(d: ProviderDiff): string[] {
  const lines: string[] = [];
  for (const a of d.added) lines.push(`  + ${a.name} (${a.line}) ${a.price} ${a.currency}`);
  for (const r of d.removed) lines.push(`  - ${r.name} (${r.line}) ${r.price} ${r.currency}: ${r.why}`);
  for (const r of d.repriced) lines.push(`  ~ ${r.name} (${r.line}) ${r.oldPrice} -> ${r.newPrice} ${r.currency}`);
  for (const s of d.specsChanged)
    lines.push(`  ! ${s.name} (${s.line}) ${s.fields.map((f) => `${f.field} ${f.old} -> ${f.new}`).join(', ')}`);
  for (const c of d.citiesChanged)
    lines.push(
      `  @ ${c.line} sold in: ${c.new.join(', ') || '(not stated)'} (was ${c.old.join(', ') || 'not stated'})`,
    );
  for (const o of d.observedChanged) lines.push(`  = ${o.line} prices seen ${o.new} (were ${o.old})`);
  for (const a of d.availabilityChanged) lines.push(`  ? ${a.name} (${a.line}) orderable ${a.new} (was ${a.old})`);
  if (d.currencyChanged) lines.push(`  $ currency ${d.currencyChanged.old} -> ${d.currencyChanged.new}`);
  return lines;
}
