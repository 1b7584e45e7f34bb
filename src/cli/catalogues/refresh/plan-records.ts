/**
 * Turns a catalogue reading into the dataset's own records: the plans of each line the adapter
 * manages, written the way providers.json writes them ("2 vCPU", "4GB", "40GB NVMe", "20TB"), and
 * what the catalogue says of each managed line: where it is sold, where it costs more, where its
 * prices were read and that it is now listed whole. Editorial fields of a line (its name, how it is
 * billed, its price-list wording) and every other line stay as the editors wrote them.
 */
import { isNoCommitment, type PlanLine, type RegionalPrice } from '../../../dataset/dto/plan-line.dto.js';
import type { PlanAvailability, PlanRecord } from '../../../dataset/dto/plan.dto.js';
import { mayBeOrdered } from '../../../dataset/plan-pricing.js';
import type { ProviderRecord } from '../../../dataset/dto/provider.dto.js';
import type { CatalogueAdapter, CataloguePlan, CatalogueReading } from '../catalogue.js';
import type { ReadingProvenance } from './read-catalogues.js';

const trim = (n: number) => Number(n.toFixed(4));

/** "512MB", "4GB", "1.5GB". */
export function ramText(gb: number): string {
  return gb < 1 ? `${trim(gb * 1024)}MB` : `${trim(gb)}GB`;
}

/** "20TB", "500GB" (traffic counts in decimal units), or the catalogue's words for an unmetered allowance. */
export function transferText(plan: Pick<CataloguePlan, 'transferTb' | 'transferText'>): string {
  if (plan.transferTb === null) return plan.transferText ?? 'Unmetered';
  return plan.transferTb < 1 ? `${trim(plan.transferTb * 1000)}GB` : `${trim(plan.transferTb)}TB`;
}

/**
 * A catalogue size as a plan record of providers.json. In a promotional line it keeps the renewal
 * price, and in a prepaid line sold month to month the month-to-month price, each null when the
 * catalogue does not give it (the validator requires both there and refuses them elsewhere).
 */
export function planRecordOf(
  plan: CataloguePlan,
  observedAt: string,
  line?: Pick<PlanLine, 'priceBasis' | 'promotional' | 'monthToMonthSold'>,
  availability?: PlanAvailability,
): PlanRecord {
  const renewal = line?.promotional ? { renewalPrice: money(plan.renewalMonthlyPrice) } : {};
  const monthToMonth =
    line && !isNoCommitment(line.priceBasis) && line.monthToMonthSold !== false
      ? { monthToMonthPrice: money(plan.monthToMonthPrice) }
      : {};
  return {
    name: plan.name,
    price: Number(plan.monthlyPrice.toFixed(2)),
    currency: plan.currency,
    cpu: `${plan.vcpus} vCPU`,
    ram: ramText(plan.ramGb),
    storage: `${trim(plan.diskGb)}GB ${plan.diskType}`,
    bandwidth: transferText(plan),
    cpuType: plan.cpuType,
    line: plan.line,
    observedAt,
    providerPlanId: plan.id,
    ...renewal,
    ...monthToMonth,
    ...(availability ? { availability } : {}),
  };
}

const money = (amount: number | null | undefined) => (typeof amount === 'number' ? Number(amount.toFixed(2)) : null);

/** The sizes that can be ordered: sold somewhere, not deprecated, in a line the adapter manages. */
export function sellablePlans(reading: CatalogueReading, adapter: Pick<CatalogueAdapter, 'lines'>): CataloguePlan[] {
  return reading.plans.filter((p) => isOrderable(p) && adapter.lines.includes(p.line));
}

const isOrderable = (p: CataloguePlan) => !p.deprecated && p.regions.length > 0;

/**
 * The sizes a refresh writes: where the catalogue says which sizes can be ordered, every size it lists
 * in a managed line (one it marks unorderable is kept, flagged, so pages can say so); elsewhere only
 * the sellable ones, since a size missing from a sale is all such a catalogue can show.
 */
export function writtenPlans(
  reading: CatalogueReading,
  adapter: Pick<CatalogueAdapter, 'lines' | 'statesAvailability'>,
): CataloguePlan[] {
  return adapter.statesAvailability
    ? reading.plans.filter((p) => adapter.lines.includes(p.line))
    : sellablePlans(reading, adapter);
}

/** What the catalogue says of a size's availability, dated by the answers that say it; undefined where it says nothing. */
function availabilityOf(
  plan: CataloguePlan,
  reading: CatalogueReading,
  adapter: Pick<CatalogueAdapter, 'statesAvailability'>,
  provenance: ReadingProvenance,
): PlanAvailability | undefined {
  if (!adapter.statesAvailability) return undefined;
  const successor = plan.successor
    ? (reading.plans.find((other) => other.id === plan.successor)?.name ?? plan.successor)
    : undefined;
  return {
    orderable: isOrderable(plan),
    observedAt: provenance.availability.observedAt,
    source: provenance.availability.source,
    ...(successor ? { successor } : {}),
  };
}

/**
 * The provider record after the refresh: the managed lines' plans replaced by the catalogue's (in
 * line order, then price), each managed line's source, completeness, cities and regional prices
 * from the catalogue, the entry price recomputed. The record is a copy; the input is not changed.
 */
export function refreshedProvider(
  record: ProviderRecord,
  reading: CatalogueReading,
  adapter: Pick<CatalogueAdapter, 'lines' | 'statesAvailability'>,
  provenance: ReadingProvenance,
): ProviderRecord {
  const next = structuredClone(record);
  const sold = sellablePlans(reading, adapter);
  const written = writtenPlans(reading, adapter);
  const managed = new Set(adapter.lines);
  const lineOrder = new Map(next.planLines.map((l, i) => [l.id, i]));
  const lineOf = new Map(next.planLines.map((l) => [l.id, l]));
  const kept = next.plans.filter((p) => !managed.has(p.line));
  // A size no longer sold that the editors list in a line of its own (a withdrawn range) stays there only.
  const keptIds = new Set(kept.map((p) => p.providerPlanId ?? p.name));
  const fresh = written
    .filter((p) => isOrderable(p) || !(keptIds.has(p.id) || keptIds.has(p.name)))
    .map((p) =>
      planRecordOf(p, provenance.observedAt, lineOf.get(p.line), availabilityOf(p, reading, adapter, provenance)),
    );
  next.plans = [...kept, ...fresh].sort(
    (a, b) =>
      (lineOrder.get(a.line) ?? 99) - (lineOrder.get(b.line) ?? 99) ||
      a.price - b.price ||
      a.name.localeCompare(b.name),
  );
  const cityOf = new Map(reading.regions.map((r) => [r.id, r.city]));
  next.planLines = next.planLines.map((line) =>
    managed.has(line.id)
      ? refreshedLine(
          line,
          sold.filter((p) => p.line === line.id),
          cityOf,
          provenance,
        )
      : line,
  );
  // A per-plan add-on price of a plan no longer sold goes with it.
  const byPlan = next.addOns.backups.pricesByPlan;
  if (byPlan)
    next.addOns.backups.pricesByPlan = Object.fromEntries(
      Object.entries(byPlan).filter(([name]) => next.plans.some((p) => p.name === name)),
    );
  const current = next.plans.filter(
    (p) => !next.planLines.find((l) => l.id === p.line)?.discontinued && mayBeOrdered(p),
  );
  if (current.length > 0) next.startingPrice = Math.min(...current.map((p) => p.price));
  return next;
}

function refreshedLine(
  line: PlanLine,
  plans: CataloguePlan[],
  cityOf: Map<string, string | null>,
  provenance: ReadingProvenance,
): PlanLine {
  const { notListed: _dropped, datacenters: _oldCities, regionalPrices: _oldRegional, ...rest } = line;
  const cities = citiesOf(
    plans.flatMap((p) => p.regions),
    cityOf,
  );
  const read = regionalPricesOf(plans, cityOf);
  // A city the catalogue gives no price for keeps the dataset's word that its price is unknown there
  // (OVHcloud's Canadian and Asia-Pacific sites sell at lists the recorded catalogue does not hold).
  const pricedByCatalogue = new Set(read.flatMap((r) => r.datacenters));
  const stillUnknown = (_oldRegional ?? [])
    .filter((r) => r.priceFactor === null)
    .map((r) => ({
      ...r,
      datacenters: r.datacenters.filter(
        (c) => !pricedByCatalogue.has(c) && (cities.length === 0 || cities.includes(c)),
      ),
    }))
    .filter((r) => r.datacenters.length > 0);
  const regionalPrices = [...read, ...stillUnknown];
  return {
    ...rest,
    complete: provenance.partial === undefined,
    ...(provenance.partial !== undefined ? { notListed: provenance.partial } : {}),
    source: provenance.source,
    ...(cities.length > 0 ? { datacenters: cities } : {}),
    ...(regionalPrices.length > 0 ? { regionalPrices } : {}),
  };
}

function citiesOf(regions: string[], cityOf: Map<string, string | null>): string[] {
  const cities = regions.map((r) => cityOf.get(r)).filter((c): c is string => typeof c === 'string');
  return [...new Set(cities)];
}

/**
 * Cities whose price differs from the headline, grouped by the multiple of the headline price they
 * cost. A city where the multiple is not the same for every plan of the line (within half a percent)
 * gets a null factor and a note giving the range, rather than a factor that would be wrong for some plans.
 */
function regionalPricesOf(plans: CataloguePlan[], cityOf: Map<string, string | null>): RegionalPrice[] {
  const factors = new Map<string, number[]>();
  for (const plan of plans) {
    for (const rp of plan.regionPrices) {
      const city = cityOf.get(rp.region);
      if (!city || plan.monthlyPrice <= 0 || !plan.regions.includes(rp.region)) continue;
      factors.set(city, [...(factors.get(city) ?? []), rp.monthlyPrice / plan.monthlyPrice]);
    }
  }
  const groups = new Map<string, { factor: number | null; cities: string[]; low: number; high: number }>();
  for (const [city, list] of factors) {
    const low = Math.min(...list);
    const high = Math.max(...list);
    if (Math.abs(low - 1) < 0.005 && Math.abs(high - 1) < 0.005) continue;
    const uniform = high - low <= 0.005 * high;
    const factor = uniform ? Number(((low + high) / 2).toFixed(3)) : null;
    const key = factor === null ? `range:${low.toFixed(3)}:${high.toFixed(3)}` : `factor:${factor}`;
    const group = groups.get(key) ?? { factor, cities: [], low, high };
    group.cities.push(city);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => ({
    datacenters: g.cities,
    priceFactor: g.factor,
    note:
      g.factor === null
        ? `Prices there differ by plan, from ${percent(g.low)} to ${percent(g.high)} of the listed price (the provider's catalogue).`
        : `${g.cities.join(', ')} ${g.cities.length === 1 ? 'costs' : 'cost'} ${g.factor > 1 ? `${percent(g.factor - 1)} more` : `${percent(1 - g.factor)} less`} than the listed price (the provider's catalogue).`,
  }));
}

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;
