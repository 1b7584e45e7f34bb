/**
 * What a refresh would change in one provider's plans, and the plausibility gate that decides
 * whether it may be written. Plans are matched by the provider's own id where the dataset has one,
 * otherwise by name, so a renamed size is a spec-checked match, not a removal and an addition.
 */
import type { PlanLine } from '../../../dataset/dto/plan-line.dto.js';
import type { PlanRecord } from '../../../dataset/dto/plan.dto.js';
import type { ProviderRecord } from '../../../dataset/dto/provider.dto.js';
import type { CataloguePlan } from '../catalogue.js';

/** The largest rise and fall a price may make in one refresh without the operator's word. */
export const MAX_PRICE_RISE = 1.5;
export const MAX_PRICE_FALL = 0.5;
/** The largest share of a line's plans a refresh may remove without the operator's word. */
export const MAX_LINE_LOSS = 0.2;
/**
 * How far a price may move, all runs together, from its baseline (the price it had when the baseline
 * was last set, at most `BASELINE_DAYS` ago): the same bounds as one run, so five runs at x1.4 cannot
 * walk a price where one run at x5.4 could not go.
 */
export const BASELINE_DAYS = 30;
/** The largest move of an exchange rate in one run, or from its baseline, either way (x1.2 or x1/1.2). */
export const MAX_RATE_MOVE = 1.2;

export interface PlanChange {
  line: string;
  name: string;
  /** The provider's id where known, else the name: what `--accept` names. */
  key: string;
}

export interface ProviderDiff {
  providerId: string;
  added: (PlanChange & { price: number; currency: string; vcpus: number | null; ramGb: number | null })[];
  removed: (PlanChange & { price: number; currency: string; why: string })[];
  repriced: (PlanChange & { oldPrice: number; newPrice: number; currency: string })[];
  specsChanged: (PlanChange & { fields: { field: string; old: string; new: string }[] })[];
  citiesChanged: { line: string; old: string[]; new: string[] }[];
  /** Cities whose price factor changed: 1 when the line lists no other price there, null when the price differs by plan. */
  regionalChanged: { line: string; city: string; old: RegionalFactor; new: RegionalFactor }[];
  observedChanged: { line: string; old: string; new: string }[];
  /** Plans whose orderability, or the day it was read, changed: "true 2026-10-06", "false 2026-09-03", "unknown". */
  availabilityChanged: (PlanChange & { old: string; new: string })[];
  currencyChanged: { old: string; new: string } | null;
}

/** A city's price as a multiple of the listed one, with the note that explains it. */
export interface RegionalFactor {
  factor: number | null;
  note?: string;
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
    regionalChanged: [],
    observedChanged: [],
    availabilityChanged: [],
    currencyChanged: null,
  };
  for (const p of next) {
    const was = match(p, old);
    const change = { line: p.line, name: p.name, key: keyOf(p) };
    if (!was) {
      diff.added.push({
        ...change,
        price: p.price,
        currency: p.currency,
        vcpus: vcpusOf(p.cpu),
        ramGb: ramGbOf(p.ram),
      });
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
    diff.regionalChanged.push(...regionalChanges(id, a, b));
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
      d.regionalChanged.length +
      d.observedChanged.length +
      d.availabilityChanged.length ===
      0 && d.currencyChanged === null
  );
}

/** A price or rate a gate case compares with, set on the day `since`. */
export interface BaselinePoint {
  value: number;
  since: string;
}

/**
 * The plausibility gate: a price that moves more than x1.5 or below x0.5 in this run or from its
 * baseline (`baselineOf`, by case id); a plan added at a price per vCPU or per GB of memory outside its
 * line's range, or under a name a served plan of another id has; a line that loses more than a fifth of
 * its plans; a plan whose specs change under the same id; a city whose price factor moves as far as a
 * price may, or starts differing by plan; a currency change. Each is a case the run refuses unless the
 * operator accepts its id.
 */
export function gateCases(
  d: ProviderDiff,
  before: ProviderRecord,
  baselineOf: (id: string) => BaselinePoint | undefined = () => undefined,
): GateCase[] {
  const cases: GateCase[] = [];
  const outside = (ratio: number) => !(ratio >= MAX_PRICE_FALL && ratio <= MAX_PRICE_RISE);
  const bounds = `the gate allows x${MAX_PRICE_FALL} to x${MAX_PRICE_RISE}`;
  for (const r of d.repriced) {
    const id = `${d.providerId}:${r.key}`;
    const ratio = r.newPrice / r.oldPrice;
    const base = baselineOf(id);
    const since = base ? r.newPrice / base.value : 1;
    const why: string[] = [];
    if (outside(ratio))
      why.push(`price ${r.oldPrice} -> ${r.newPrice} ${r.currency} (x${ratio.toFixed(2)}; ${bounds})`);
    if (base && outside(since))
      why.push(
        `price ${base.value} on ${base.since}, now ${r.newPrice} ${r.currency} (x${since.toFixed(2)} over the runs since; ${bounds} from the baseline)`,
      );
    if (why.length > 0) cases.push({ id, why: `${r.name}: ${why.join('; ')}` });
  }
  for (const s of d.specsChanged) {
    cases.push({
      id: `${d.providerId}:${s.key}`,
      why: `${s.name}: specs changed under the same id (${s.fields.map((f) => `${f.field} ${f.old} -> ${f.new}`).join(', ')})`,
    });
  }
  const unmatched = new Map<string, string[]>();
  for (const a of d.added) {
    if (!before.plans.some((p) => p.line === a.line && p.currency === a.currency)) {
      unmatched.set(a.line, [...(unmatched.get(a.line) ?? []), `${a.name} ${a.price} ${a.currency}`]);
      continue;
    }
    const why = addedPlanProblem(a, before, d.removed);
    if (why) cases.push({ id: `${d.providerId}:${a.key}`, why: `${a.name} (added, ${a.price} ${a.currency}): ${why}` });
  }
  // A line with nothing served to compare with (new in providers.json, or billed in another currency): one case for its plans.
  for (const [line, plans] of unmatched)
    cases.push({
      id: `${d.providerId}:line:${line}:added`,
      why: `line ${line} serves no plan in the same currency to compare the prices of its ${plans.length} added plan${plans.length === 1 ? '' : 's'} with: ${plans.join(', ')}`,
    });
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
  const movedCities = d.regionalChanged.filter((c) =>
    c.old.factor === null || c.new.factor === null
      ? c.old.factor !== c.new.factor || c.old.note !== c.new.note
      : outside(c.new.factor / c.old.factor),
  );
  for (const line of new Set(movedCities.map((c) => c.line))) {
    cases.push({
      id: `${d.providerId}:line:${line}:regional`,
      why: `line ${line}: ${movedCities
        .filter((c) => c.line === line)
        .map((c) => `${c.city} price ${factorText(c.old)} -> ${factorText(c.new)}`)
        .join(', ')} (${bounds} for a known factor; a price that starts or stops differing by plan is always a case)`,
    });
  }
  if (d.currencyChanged)
    cases.push({
      id: `${d.providerId}:currency`,
      why: `billing currency ${d.currencyChanged.old} -> ${d.currencyChanged.new}`,
    });
  return cases;
}

/**
 * Why an added plan is implausible, or undefined: its price per vCPU or per GB of memory lies outside
 * what the line's served plans (some in its currency) charge (widened by the price bounds), or it takes the name of a served
 * plan of another id that this run does not remove.
 */
function addedPlanProblem(
  a: ProviderDiff['added'][number],
  before: ProviderRecord,
  removed: ProviderDiff['removed'],
): string | undefined {
  const namesake = before.plans.find(
    (p) =>
      p.name === a.name &&
      (p.providerPlanId ?? p.name) !== a.key &&
      !removed.some((r) => r.line === p.line && r.key === (p.providerPlanId ?? p.name)),
  );
  if (namesake)
    return `takes the name of the served plan ${namesake.providerPlanId ?? namesake.name} (a name belongs to one size)`;
  const served = before.plans.filter((p) => p.line === a.line && p.currency === a.currency);
  if (a.vcpus === null || a.ramGb === null) return 'its vCPUs or memory cannot be read';
  for (const [unit, size, sizeOf] of [
    ['vCPU', a.vcpus, (p: PlanRecord) => vcpusOf(p.cpu)],
    ['GB of memory', a.ramGb, (p: PlanRecord) => ramGbOf(p.ram)],
  ] as const) {
    const rates = served.map((p) => p.price / (sizeOf(p) ?? NaN)).filter(Number.isFinite);
    if (rates.length === 0) continue;
    const low = Math.min(...rates) * MAX_PRICE_FALL;
    const high = Math.max(...rates) * MAX_PRICE_RISE;
    const rate = a.price / size;
    if (!(rate >= low && rate <= high))
      return `${round(rate)} ${a.currency} per ${unit}, outside the line's ${round(low)} to ${round(high)} (its served plans' range, x${MAX_PRICE_FALL} to x${MAX_PRICE_RISE})`;
  }
  return undefined;
}

/** An exchange rate's gate case, or undefined: a move beyond x`MAX_RATE_MOVE` either way in this run or from its baseline. */
export function rateCase(
  code: string,
  old: number,
  next: number,
  base: BaselinePoint | undefined,
  caseId: string,
): GateCase | undefined {
  const outside = (ratio: number) => !(ratio >= 1 / MAX_RATE_MOVE && ratio <= MAX_RATE_MOVE);
  const why: string[] = [];
  if (outside(next / old)) why.push(`${old} -> ${next} (x${(next / old).toPrecision(3)})`);
  if (base && outside(next / base.value))
    why.push(
      `${base.value} on ${base.since}, now ${next} (x${(next / base.value).toPrecision(3)} over the runs since)`,
    );
  if (why.length === 0) return undefined;
  return {
    id: caseId,
    why: `${code} per EUR ${why.join('; ')}; the gate allows x${(1 / MAX_RATE_MOVE).toFixed(3)} to x${MAX_RATE_MOVE}`,
  };
}

/**
 * The case for a reading whose prices are older than the newest served price of the lines it manages:
 * it would replace newer figures with older ones.
 */
export function olderReadingCase(
  providerId: string,
  observedAt: string,
  served: readonly string[],
): GateCase | undefined {
  const newest = [...served].sort().at(-1);
  if (newest === undefined || observedAt >= newest) return undefined;
  return {
    id: `${providerId}:older`,
    why: `the catalogue read shows prices of ${observedAt}, older than the newest served (${newest}); accept only when the served figures cannot be traced to a dated source`,
  };
}

const round = (n: number) => Number(n.toPrecision(3));
const factorText = (f: RegionalFactor) => (f.factor === null ? 'differs by plan' : `x${f.factor}`);

/** "2 vCPU" as 2; null when the text does not start with a count. */
function vcpusOf(cpu: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*vCPU/i.exec(cpu);
  return match ? Number(match[1]) : null;
}

/** "512MB", "4GB" as GB; null for other text. */
function ramGbOf(ram: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(MB|GB|TB)$/i.exec(ram.trim());
  if (!match) return null;
  const scale = { MB: 1 / 1024, GB: 1, TB: 1024 }[match[2].toUpperCase() as 'MB' | 'GB' | 'TB'];
  return Number(match[1]) * scale;
}

/** Each city's price factor in a line before and after, where it changed (a city not listed costs the listed price). */
function regionalChanges(line: string, a: PlanLine, b: PlanLine): ProviderDiff['regionalChanged'] {
  const factors = (l: PlanLine) =>
    new Map(
      (l.regionalPrices ?? []).flatMap((r) =>
        r.datacenters.map((city) => [city, { factor: r.priceFactor, note: r.note }] as const),
      ),
    );
  const old = factors(a);
  const next = factors(b);
  const listed: RegionalFactor = { factor: 1 };
  const changes: ProviderDiff['regionalChanged'] = [];
  for (const city of new Set([...old.keys(), ...next.keys()])) {
    const o = old.get(city) ?? listed;
    const n = next.get(city) ?? listed;
    if (o.factor !== n.factor || (o.factor === null && o.note !== n.note)) changes.push({ line, city, old: o, new: n });
  }
  return changes;
}

/** The diff as lines for a person: added, removed, repriced (old -> new), specs, cities, price dates. */
export function describeDiff(d: ProviderDiff): string[] {
  const lines: string[] = [];
  for (const a of d.added) lines.push(`  + ${a.name} (${a.line}) ${a.price} ${a.currency}`);
  for (const r of d.removed) lines.push(`  - ${r.name} (${r.line}) ${r.price} ${r.currency}: ${r.why}`);
  for (const r of d.repriced) lines.push(`  ~ ${r.name} (${r.line}) ${r.oldPrice} -> ${r.newPrice} ${r.currency}`);
  for (const s of d.specsChanged)
    lines.push(`  ! ${s.name} (${s.line}) ${s.fields.map((f) => `${f.field} ${f.old} -> ${f.new}`).join(', ')}`);
  for (const r of d.regionalChanged)
    lines.push(`  % ${r.line} in ${r.city}: price ${factorText(r.new)} (was ${factorText(r.old)})`);
  for (const c of d.citiesChanged)
    lines.push(
      `  @ ${c.line} sold in: ${c.new.join(', ') || '(not stated)'} (was ${c.old.join(', ') || 'not stated'})`,
    );
  for (const o of d.observedChanged) lines.push(`  = ${o.line} prices seen ${o.new} (were ${o.old})`);
  for (const a of d.availabilityChanged) lines.push(`  ? ${a.name} (${a.line}) orderable ${a.new} (was ${a.old})`);
  if (d.currencyChanged) lines.push(`  $ currency ${d.currencyChanged.old} -> ${d.currencyChanged.new}`);
  return lines;
}
