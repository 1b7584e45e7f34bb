/**
 * Vultr's catalogue: `/v2/regions` and `/v2/plans`, both public (no API key) and paginated with
 * `per_page` (at most 500) and an opaque cursor: each page names the next one in `meta.links.next`,
 * which is passed back as `cursor` until it comes back empty. Prices are USD numbers; memory is in
 * MB, disk in GB, bandwidth in GB. A location that costs more than the list price is priced in the
 * plan's `location_cost` map (São Paulo since 2026); older answers listed such prices as separate
 * `-sc1` plans sold only there, which this adapter folds back into the plan they price.
 */
import {
  CatalogueFormatError,
  type CatalogueAdapter,
  type CatalogueAddOns,
  type CatalogueContext,
  type CataloguePlan,
  type CatalogueRegion,
  type CatalogueRegionPrice,
  type DiskType,
} from '../catalogue.js';
import { newCursor, readAllPages } from '../pagination.js';

const PROVIDER = 'vultr';
/** The API states every price in US dollars and bills no other currency. */
const CURRENCY = 'USD';
/** The largest page `/v2/plans` and `/v2/regions` serve. */
const PER_PAGE = 500;
/** A list still naming a next page after this many is taken as a server that never stops. */
const MAX_PAGES = 50;
/** Vultr names 1024 of its GB one TB in its own plan descriptions ("1024 GB" is "1.00 TB BW"). */
const GB_PER_TB = 1024;
/** The suffix of the older per-location price entries (`vc2-1c-1gb-sc1` is vc2-1c-1gb in São Paulo). */
const LOCATION_PRICE_SUFFIX = '-sc1';

interface Line {
  id: string;
  /** The dataset's sales name of the line, which starts every plan name in it. */
  label: string;
  matches: (plan: { id: string; type: string }) => boolean;
  cpuType: CataloguePlan['cpuType'];
  /** For answers that do not say `disk_type` (before 2025). */
  diskType: DiskType;
}

/** Dataset plan lines in providers.json order; the plan `type`, and for Optimized Cloud the id prefix, decide the line. */
const LINES: readonly Line[] = [
  { id: 'regular', label: 'Regular Performance', matches: (p) => p.type === 'vc2', cpuType: 'shared', diskType: 'SSD' },
  {
    id: 'high-performance',
    label: 'High Performance',
    matches: (p) => p.type === 'vhp',
    cpuType: 'shared',
    diskType: 'NVMe',
  },
  {
    id: 'cpu-optimized',
    label: 'CPU Optimized',
    matches: (p) => p.type === 'voc' && p.id.startsWith('voc-c-'),
    cpuType: 'dedicated',
    diskType: 'NVMe',
  },
  {
    id: 'general-purpose',
    label: 'General Purpose Optimized',
    matches: (p) => p.type === 'voc' && p.id.startsWith('voc-g-'),
    cpuType: 'dedicated',
    diskType: 'NVMe',
  },
];

/** `disk_type` values the API uses for the lines above; Vultr sells every one but the SSD as NVMe. */
const DISK_TYPES: Record<string, DiskType> = {
  SSD: 'SSD',
  AMDHIGHPERF: 'NVMe',
  INTELHIGHPERF: 'NVMe',
  DEDICATEDOPTIMIZED: 'NVMe',
};

/** Sizes sold in two variants that are otherwise alike; the variant goes into the plan name. */
const VARIANTS: readonly { suffix: string; label: string }[] = [
  { suffix: '-v6', label: 'IPv6-only' },
  { suffix: '-intel', label: 'Intel' },
];

/** The dataset's city (providers.json `datacenters[].city`) for each location id Vultr uses. */
const CITY_BY_LOCATION: Record<string, string> = {
  ewr: 'New Jersey',
  atl: 'Atlanta',
  ord: 'Chicago',
  dfw: 'Dallas',
  hnl: 'Honolulu',
  lax: 'Los Angeles',
  mia: 'Miami',
  sea: 'Seattle',
  sjc: 'Silicon Valley',
  yto: 'Toronto',
  mex: 'Mexico City',
  sao: 'São Paulo',
  scl: 'Santiago',
  ams: 'Amsterdam',
  fra: 'Frankfurt',
  lhr: 'London',
  man: 'Manchester',
  mad: 'Madrid',
  cdg: 'Paris',
  sto: 'Stockholm',
  waw: 'Warsaw',
  jnb: 'Johannesburg',
  tlv: 'Tel Aviv',
  blr: 'Bangalore',
  del: 'Delhi NCR',
  bom: 'Mumbai',
  sgp: 'Singapore',
  icn: 'Seoul',
  nrt: 'Tokyo',
  itm: 'Osaka',
  syd: 'Sydney',
  mel: 'Melbourne',
};

interface LocationCost {
  monthly_cost?: unknown;
  hourly_cost?: unknown;
}

interface RawPlan {
  id?: unknown;
  type?: unknown;
  vcpu_count?: unknown;
  ram?: unknown;
  disk?: unknown;
  disk_count?: unknown;
  disk_type?: unknown;
  bandwidth?: unknown;
  monthly_cost?: unknown;
  hourly_cost?: unknown;
  locations?: unknown;
  deploy_ondemand?: unknown;
  location_cost?: unknown;
}

/** A plan entry whose id and type are known to be strings. */
type IdentifiedPlan = RawPlan & { id: string; type: string };

interface ListPage {
  meta?: { links?: { next?: unknown } };
}

/** Vultr's Cloud Compute (Regular and High Performance) and Optimized Cloud Compute (CPU and General Purpose) sizes. */
export class VultrCatalogue implements CatalogueAdapter {
  readonly providerId = PROVIDER;
  readonly baseUrl = 'https://api.vultr.com';
  /** `/v2/plans` and `/v2/regions` answer without an API key. */
  readonly credentials = [] as const;
  readonly statesAvailability = true;
  readonly lines = LINES.map((line) => line.id);

  async regions(ctx: CatalogueContext): Promise<CatalogueRegion[]> {
    const { items, pages } = await readList<{ id?: unknown }>(ctx, '/v2/regions', 'regions');
    const regions = items.map((region, index) => {
      if (typeof region?.id !== 'string' || region.id === '')
        throw new CatalogueFormatError(`vultr /v2/regions: regions[${index}] has no id`);
      return { id: region.id, city: CITY_BY_LOCATION[region.id] ?? null };
    });
    if (regions.length === 0) throw new CatalogueFormatError('vultr /v2/regions: the list of regions is empty');
    const unnamed = regions.filter((region) => region.city === null).map((region) => region.id);
    ctx.log(
      `vultr: ${plural(regions.length, 'region')} read in ${plural(pages, 'page')}${unnamed.length ? `; no dataset city for ${unnamed.join(', ')}` : ''}`,
    );
    return regions;
  }

  async plans(ctx: CatalogueContext, regions: CatalogueRegion[]): Promise<CataloguePlan[]> {
    const { items, pages } = await readList<RawPlan>(ctx, '/v2/plans', 'plans');
    if (items.length === 0) throw new CatalogueFormatError('vultr /v2/plans: the list of plans is empty');
    const identified = items.map((plan, index) => identify(plan, index));
    const byId = new Map(identified.map((plan) => [plan.id, plan]));
    const locationPrices = olderLocationPrices(identified, byId);

    const managed = identified.filter(
      (plan) => !locationPrices.folded.has(plan.id) && lineOf(plan) !== undefined && !isFree(plan),
    );
    ctx.log(
      `vultr: ${plural(items.length, 'plan')} read in ${plural(pages, 'page')}, ${managed.length} in the lines ${this.lines.join(', ')}`,
    );
    if (managed.length === 0)
      throw new CatalogueFormatError(
        `vultr /v2/plans: no plan in the lines ${this.lines.join(', ')} among ${items.length} listed`,
      );

    const plans = managed.map((plan) => toPlan(plan, locationPrices.byPlan.get(plan.id) ?? []));
    nameAll(plans);
    plans.sort(
      (a, b) => lineIndex(a.line) - lineIndex(b.line) || a.monthlyPrice - b.monthlyPrice || a.id.localeCompare(b.id),
    );

    const known = new Set(regions.map((region) => region.id));
    const unlisted = [...new Set(plans.flatMap((plan) => plan.regions))].filter((id) => !known.has(id)).sort();
    const repriced = plans.filter((plan) => plan.regionPrices.length > 0).length;
    const deprecated = plans.filter((plan) => plan.deprecated).length;
    ctx.log(
      `vultr: ${plural(plans.length, 'plan')} priced in ${CURRENCY} (${repriced} with other prices in some locations, ${deprecated} not deployable)` +
        (unlisted.length ? `; sold in locations /v2/regions does not list: ${unlisted.join(', ')}` : ''),
    );
    return plans;
  }

  async addOns(ctx: CatalogueContext): Promise<CatalogueAddOns> {
    // Backups, snapshots, IPv4 and overage are priced only on Vultr's pages; they stay editorial in providers.json.
    ctx.log('vultr: the catalogue API has no add-on prices');
    return {};
  }
}

/** Every item of a cursor-paginated list, following `meta.links.next` until it is empty. */
async function readList<T>(ctx: CatalogueContext, path: string, key: string): Promise<{ items: T[]; pages: number }> {
  const { items, pages } = await readAllPages<string | undefined>(
    `vultr ${path}`,
    { first: undefined, maxPages: MAX_PAGES, isLater: newCursor },
    async (cursor, page) => {
      const body = await ctx.client.getJson<ListPage & Record<string, unknown>>(path, {
        query: { per_page: PER_PAGE, cursor },
      });
      const where = `vultr ${path} (page ${page})`;
      if (!isObject(body) || !Array.isArray(body[key]))
        throw new CatalogueFormatError(`${where}: the answer has no "${key}" list`);
      const next = body.meta?.links?.next;
      if (next !== undefined && next !== null && typeof next !== 'string')
        throw new CatalogueFormatError(`${where}: meta.links.next is ${JSON.stringify(next)}, not a cursor`);
      return { items: body[key] as unknown[], next: next || undefined };
    },
  );
  return { items: items as T[], pages };
}

function identify(plan: RawPlan, index: number): IdentifiedPlan {
  if (!isObject(plan)) throw new CatalogueFormatError(`vultr /v2/plans: plans[${index}] is not an object`);
  if (typeof plan.id !== 'string' || plan.id === '')
    throw new CatalogueFormatError(`vultr /v2/plans: plans[${index}] has no id`);
  if (typeof plan.type !== 'string') throw new CatalogueFormatError(`vultr plan ${plan.id} has no type`);
  return { ...plan, id: plan.id, type: plan.type };
}

/**
 * The location prices of answers that list them as plans of their own (`<id>-sc1`, sold in one
 * location): which entries are such prices, and the prices by the plan they belong to.
 */
function olderLocationPrices(
  plans: IdentifiedPlan[],
  byId: Map<string, IdentifiedPlan>,
): { folded: Set<string>; byPlan: Map<string, CatalogueRegionPrice[]> } {
  const folded = new Set<string>();
  const byPlan = new Map<string, CatalogueRegionPrice[]>();
  for (const plan of plans) {
    if (!plan.id.endsWith(LOCATION_PRICE_SUFFIX)) continue;
    const base = byId.get(plan.id.slice(0, -LOCATION_PRICE_SUFFIX.length));
    if (!base) continue;
    const where = `vultr plan ${plan.id}`;
    const monthly = price(plan.monthly_cost, `${where} monthly_cost`);
    const hourly = plan.hourly_cost === undefined ? null : price(plan.hourly_cost, `${where} hourly_cost`);
    const prices = byPlan.get(base.id) ?? [];
    for (const region of locationsOf(plan, where)) prices.push({ region, monthlyPrice: monthly, hourlyPrice: hourly });
    byPlan.set(base.id, prices);
    folded.add(plan.id);
  }
  return { folded, byPlan };
}

function toPlan(plan: IdentifiedPlan, olderPrices: CatalogueRegionPrice[]): CataloguePlan {
  const where = `vultr plan ${plan.id}`;
  const line = lineOf(plan)!;
  const monthlyPrice = price(plan.monthly_cost, `${where} monthly_cost`);
  const hourlyPrice = plan.hourly_cost === undefined ? null : price(plan.hourly_cost, `${where} hourly_cost`);
  const diskCount = plan.disk_count === undefined ? 1 : count(plan.disk_count, `${where} disk_count`);
  const regions = locationsOf(plan, where);
  // A location-cost price for a location the plan is not sold in would price nothing.
  const regionPrices = [...locationCosts(plan, where), ...olderPrices].filter(
    (entry) => entry.monthlyPrice !== monthlyPrice,
  );
  for (const entry of olderPrices) if (!regions.includes(entry.region)) regions.push(entry.region);
  return {
    id: plan.id,
    name: '',
    line: line.id,
    vcpus: count(plan.vcpu_count, `${where} vcpu_count`),
    ramGb: count(plan.ram, `${where} ram (MB)`) / 1024,
    diskGb: count(plan.disk, `${where} disk (GB)`) * diskCount,
    diskType: diskTypeOf(plan, line, where),
    transferTb: amount(plan.bandwidth, `${where} bandwidth (GB)`) / GB_PER_TB,
    cpuType: line.cpuType,
    monthlyPrice,
    hourlyPrice,
    currency: CURRENCY,
    billing: 'hourly-capped',
    // The API does not say; the hourly prices it gives are the monthly price over 730 hours.
    monthlyCapHours: null,
    regions,
    regionPrices: regionPrices
      .filter((entry) => regions.includes(entry.region))
      .sort((a, b) => a.region.localeCompare(b.region)),
    deprecated: plan.deploy_ondemand === false,
  };
}

function locationCosts(plan: IdentifiedPlan, where: string): CatalogueRegionPrice[] {
  if (plan.location_cost === undefined || (Array.isArray(plan.location_cost) && plan.location_cost.length === 0))
    return [];
  if (!isObject(plan.location_cost) || Array.isArray(plan.location_cost))
    throw new CatalogueFormatError(`${where}: location_cost is not a map of locations`);
  return Object.entries(plan.location_cost as Record<string, LocationCost>).map(([region, cost]) => {
    if (!isObject(cost)) throw new CatalogueFormatError(`${where}: location_cost.${region} is not an object`);
    return {
      region,
      monthlyPrice: price(cost.monthly_cost, `${where} location_cost.${region}.monthly_cost`),
      hourlyPrice:
        cost.hourly_cost === undefined ? null : price(cost.hourly_cost, `${where} location_cost.${region}.hourly_cost`),
    };
  });
}

/**
 * Plan names as the dataset writes them: the line's sales name and the memory ("High Performance
 * 4 GB"), then what sets a size apart from the smallest one of the same memory in the line (fewest
 * vCPUs, then least disk): its vCPUs ("/ 2 vCPU"), else its disk ("/ 75 GB"), and the variant ("/ Intel",
 * "/ IPv6-only"). Every part comes from the size itself as its id describes it, none from its price; a
 * new size that would take a served size's name is a gate case of the refresher.
 */
function nameAll(plans: CataloguePlan[]): void {
  const groups = new Map<string, CataloguePlan[]>();
  for (const plan of plans) {
    const key = `${plan.line}|${plan.ramGb}|${variantOf(plan.id) ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), plan]);
  }
  for (const group of groups.values()) {
    // By size, never by price: a price, which a catalogue may get wrong, must not move a name to another size.
    group.sort((a, b) => a.vcpus - b.vcpus || a.diskGb - b.diskGb || a.id.localeCompare(b.id));
    const first = group[0];
    for (const plan of group) {
      const parts = [`${LINES[lineIndex(plan.line)].label} ${memoryLabel(plan.ramGb)}`];
      if (plan !== first) parts.push(plan.vcpus !== first.vcpus ? `${plan.vcpus} vCPU` : `${plan.diskGb} GB`);
      const variant = variantOf(plan.id);
      if (variant) parts.push(variant);
      plan.name = parts.join(' / ');
    }
  }
}

function variantOf(id: string): string | undefined {
  return VARIANTS.find((variant) => id.endsWith(variant.suffix))?.label;
}

function memoryLabel(ramGb: number): string {
  return ramGb < 1 ? `${Math.round(ramGb * 1024)} MB` : `${ramGb} GB`;
}

function lineOf(plan: { id: string; type: string }): Line | undefined {
  return LINES.find((line) => line.matches(plan));
}

function lineIndex(id: string): number {
  return LINES.findIndex((line) => line.id === id);
}

/** The free-tier size (`vc2-1c-0.5gb-free`, one per account at no charge) is not a size anyone buys. */
function isFree(plan: IdentifiedPlan): boolean {
  return plan.monthly_cost === 0 && plan.id.endsWith('-free');
}

function diskTypeOf(plan: IdentifiedPlan, line: Line, where: string): DiskType {
  if (plan.disk_type === undefined) return line.diskType;
  const type = typeof plan.disk_type === 'string' ? DISK_TYPES[plan.disk_type] : undefined;
  if (!type) throw new CatalogueFormatError(`${where}: unknown disk_type ${JSON.stringify(plan.disk_type)}`);
  return type;
}

function locationsOf(plan: IdentifiedPlan, where: string): string[] {
  if (!Array.isArray(plan.locations) || plan.locations.some((location) => typeof location !== 'string'))
    throw new CatalogueFormatError(`${where}: locations is not a list of location ids`);
  return [...(plan.locations as string[])];
}

function price(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new CatalogueFormatError(`${what} is ${JSON.stringify(value)}, not a price`);
  return value;
}

function amount(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new CatalogueFormatError(`${what} is ${JSON.stringify(value)}, not a number`);
  return value;
}

function count(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new CatalogueFormatError(`${what} is ${JSON.stringify(value)}, not a positive whole number`);
  return value;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
