/**
 * UpCloud's catalogue: `GET /1.3/zone`, `GET /1.3/plan` and `GET /1.3/price` of API 1.3, read with
 * HTTP Basic credentials. None of the three is paginated: each answers the whole list at once.
 * Prices come per zone as `server_plan_<plan name>: { amount, price }`, `price` being euro (or dollar)
 * cents per hour in the currency of the account that asks; servers bill by the hour up to 672 hours
 * a month, so the monthly figure is the hourly price times 672.
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

/** The dataset's plan lines this adapter writes, in the order providers.json lists them (`starter` and `premium` are proposed). */
export const UPCLOUD_LINES = ['developer', 'general-purpose', 'starter', 'premium'] as const;

type UpcloudLine = (typeof UPCLOUD_LINES)[number];

export interface UpcloudCatalogueOptions {
  /**
   * The currency of the account whose credentials are used. `/1.3/price` answers in that currency
   * without naming it (unless the answer carries `prices.currency`, which then wins), and the
   * dataset's UpCloud price list is the euro one, so the refresher should read with a euro account.
   */
  accountCurrency?: string;
}

/** Reads UpCloud's plans and per-zone prices. */
export class UpcloudCatalogue implements CatalogueAdapter {
  readonly providerId = 'upcloud';
  readonly baseUrl = 'https://api.upcloud.com';
  readonly credentials = ['UPCLOUD_USERNAME', 'UPCLOUD_PASSWORD'] as const;
  readonly lines = UPCLOUD_LINES;
  private readonly accountCurrency: string;

  constructor(options: UpcloudCatalogueOptions = {}) {
    this.accountCurrency = options.accountCurrency ?? 'EUR';
  }

  async regions(ctx: CatalogueContext): Promise<CatalogueRegion[]> {
    const zones = readZones(await getJson(ctx, '/1.3/zone'));
    // Non-public zones (UpCloud's own test cloud) answer in the list but cannot be ordered.
    const open = zones.filter((zone) => zone.public);
    ctx.log(`upcloud: ${zones.length} zones read in 1 page, ${open.length} public`);
    return open.map((zone) => ({ id: zone.id, city: ZONE_CITIES[zone.id] ?? null }));
  }

  async plans(ctx: CatalogueContext, regions: CatalogueRegion[]): Promise<CataloguePlan[]> {
    const plans = readPlans(await getJson(ctx, '/1.3/plan'));
    const prices = readPrices(await getJson(ctx, '/1.3/price'));
    const currency = prices.currency ?? this.accountCurrency;
    const zoneIds = regions.map((region) => region.id);
    const names = new Set(plans.map((plan) => plan.name));

    const mapped: CataloguePlan[] = [];
    for (const plan of plans) {
      const line = lineOf(plan.name);
      if (line === null) continue;
      mapped.push(toCataloguePlan(plan, line, prices.zones, zoneIds, currency, plans, names));
    }
    if (mapped.length === 0)
      throw new CatalogueFormatError(
        `upcloud /1.3/plan lists ${plans.length} plans but none in the lines ${UPCLOUD_LINES.join(', ')}`,
      );
    mapped.sort(
      (a, b) => lineRank(a.line) - lineRank(b.line) || a.monthlyPrice - b.monthlyPrice || a.id.localeCompare(b.id),
    );

    const perLine = UPCLOUD_LINES.map((line) => `${mapped.filter((p) => p.line === line).length} ${line}`).join(', ');
    ctx.log(
      `upcloud: ${plans.length} plans read in 1 page, ${mapped.length} in managed lines (${perLine}), priced in ${currency} over ${prices.zones.size} zones`,
    );
    return mapped;
  }

  async addOns(ctx: CatalogueContext): Promise<CatalogueAddOns> {
    const prices = readPrices(await getJson(ctx, '/1.3/price'));
    const zone = prices.zones.get(HEADLINE_ZONE) ?? [...prices.zones.values()][0];
    const overage = zone?.get('public_ipv4_bandwidth_out');
    // IPv4 and backup storage are hourly rates with no documented monthly cap, so a monthly figure would be a guess.
    if (!overage) {
      ctx.log('upcloud: no traffic price in /1.3/price; add-ons left empty');
      return {};
    }
    ctx.log(
      `upcloud: traffic overage read from /1.3/price (${zone === prices.zones.get(HEADLINE_ZONE) ? HEADLINE_ZONE : 'first zone'})`,
    );
    return { trafficOverage: { price: round(overage.cents / overage.amount / 100, 6), unit: 'GiB' } };
  }
}

/** UpCloud zone ids and the dataset's city for each (providers.json `upcloud.datacenters[].city`). */
const ZONE_CITIES: Readonly<Record<string, string>> = {
  'au-syd1': 'Sydney',
  'de-fra1': 'Frankfurt',
  'dk-cph1': 'Copenhagen',
  'es-mad1': 'Madrid',
  'fi-hel1': 'Helsinki',
  'fi-hel2': 'Helsinki',
  'nl-ams1': 'Amsterdam',
  'pl-waw1': 'Warsaw',
  'se-sto1': 'Stockholm',
  'sg-sin1': 'Singapore',
  'uk-lon1': 'London',
  'us-chi1': 'Chicago',
  'us-nyc1': 'New York',
  'us-sjo1': 'San Jose',
};

/** UpCloud's documented billing cap: hourly, at most 672 hours (28 days) a month. */
const MONTHLY_CAP_HOURS = 672;

/** Breaks a tie between equally common zone prices, and names the zone add-on prices are read from. */
const HEADLINE_ZONE = 'de-fra1';

/** Which family replaced a discontinued one, per UpCloud's configurations page (Developer -> Starter, General Purpose -> Premium). */
const SUCCESSOR_LINE: Partial<Record<UpcloudLine, UpcloudLine>> = {
  developer: 'starter',
  'general-purpose': 'premium',
};

const STORAGE_TIERS: Readonly<Record<string, DiskType>> = { maxiops: 'SSD', standard: 'SSD', hdd: 'HDD' };

interface UpcloudZone {
  id: string;
  public: boolean;
}

interface UpcloudPlan {
  name: string;
  cores: number;
  memoryMb: number;
  storageGb: number;
  storageTier: string;
  trafficGib: number | null;
}

interface ZonePrice {
  amount: number;
  cents: number;
}

interface UpcloudPrices {
  currency: string | null;
  zones: Map<string, Map<string, ZonePrice>>;
}

async function getJson(ctx: CatalogueContext, path: string): Promise<unknown> {
  return ctx.client.getJson(path, { headers: { authorization: basicAuth(ctx) } });
}

function basicAuth(ctx: CatalogueContext): string {
  const username = ctx.credentials.UPCLOUD_USERNAME;
  const password = ctx.credentials.UPCLOUD_PASSWORD;
  if (!username || !password)
    throw new Error('upcloud: UPCLOUD_USERNAME and UPCLOUD_PASSWORD must both be set (an API subaccount)');
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

function lineOf(name: string): UpcloudLine | null {
  if (name.startsWith('DEV-')) return 'developer';
  if (name.startsWith('STARTER-')) return 'starter';
  if (name.startsWith('PREMIUM-')) return 'premium';
  // UpCloud's docs count the High CPU and High Memory sizes as options of General Purpose; Cloud Native and GPU are other products.
  if (/^(HICPU-|HIMEM-)?\d+xCPU-\d+GB$/.test(name)) return 'general-purpose';
  return null;
}

function lineRank(line: string): number {
  return UPCLOUD_LINES.indexOf(line as UpcloudLine);
}

function toCataloguePlan(
  plan: UpcloudPlan,
  line: UpcloudLine,
  zones: Map<string, Map<string, ZonePrice>>,
  zoneIds: string[],
  currency: string,
  all: UpcloudPlan[],
  names: Set<string>,
): CataloguePlan {
  const key = `server_plan_${plan.name}`;
  const byZone: { region: string; monthlyPrice: number; hourlyPrice: number }[] = [];
  for (const zoneId of zoneIds) {
    const price = zones.get(zoneId)?.get(key);
    if (!price) continue;
    const hourlyCents = price.cents / price.amount;
    byZone.push({
      region: zoneId,
      monthlyPrice: round((hourlyCents * MONTHLY_CAP_HOURS) / 100, 2),
      hourlyPrice: round(hourlyCents / 100, 6),
    });
  }
  if (byZone.length === 0) throw new CatalogueFormatError(`upcloud /1.3/price has no ${key} in any public zone`);
  const headline = headlineOf(byZone);
  const regionPrices: CatalogueRegionPrice[] = byZone.filter((z) => z.monthlyPrice !== headline.monthlyPrice);

  const diskType = STORAGE_TIERS[plan.storageTier];
  if (!diskType)
    throw new CatalogueFormatError(`upcloud /1.3/plan ${plan.name}: unknown storage_tier "${plan.storageTier}"`);

  const successorLine = SUCCESSOR_LINE[line];
  // The catalogue itself has no deprecation flag: an old family counts as discontinued once its successor family is sold beside it, as UpCloud's docs say.
  const deprecated = successorLine !== undefined && all.some((other) => lineOf(other.name) === successorLine);
  const successor = deprecated ? successorOf(plan, successorLine!, all) : undefined;

  return {
    id: plan.name,
    name: plan.name,
    line,
    vcpus: plan.cores,
    ramGb: plan.memoryMb / 1024,
    diskGb: plan.storageGb,
    diskType,
    ...transferOf(plan),
    cpuType: 'shared',
    monthlyPrice: headline.monthlyPrice,
    hourlyPrice: headline.hourlyPrice,
    currency,
    billing: 'hourly-capped',
    monthlyCapHours: MONTHLY_CAP_HOURS,
    regions: byZone.map((z) => z.region),
    regionPrices,
    deprecated,
    ...(successor && names.has(successor) ? { successor } : {}),
  };
}

/** The price most zones charge (the one upcloud.com/pricing shows); ties go to Frankfurt's, then the lower. */
function headlineOf<T extends { region: string; monthlyPrice: number }>(byZone: T[]): T {
  const counts = new Map<number, number>();
  for (const z of byZone) counts.set(z.monthlyPrice, (counts.get(z.monthlyPrice) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const candidates = byZone.filter((z) => counts.get(z.monthlyPrice) === top);
  return (
    candidates.find((z) => z.region === HEADLINE_ZONE) ?? candidates.sort((a, b) => a.monthlyPrice - b.monthlyPrice)[0]
  );
}

/** The size of the successor family with the same cores and memory, when there is exactly one. */
function successorOf(plan: UpcloudPlan, successorLine: UpcloudLine, all: UpcloudPlan[]): string | undefined {
  const same = all.filter(
    (other) => lineOf(other.name) === successorLine && other.cores === plan.cores && other.memoryMb === plan.memoryMb,
  );
  return same.length === 1 ? same[0].name : undefined;
}

function transferOf(plan: UpcloudPlan): Pick<CataloguePlan, 'transferTb' | 'transferText'> {
  if (plan.trafficGib === null || plan.trafficGib === 0)
    return { transferTb: null, transferText: 'Fair-use allowance (no quota in the catalogue)' };
  // public_traffic_out is in GiB (UpCloud's CLI heads the column "GiB/month"); the dataset counts decimal TB.
  return { transferTb: round((plan.trafficGib * 2 ** 30) / 1e12, 2) };
}

function readZones(body: unknown): UpcloudZone[] {
  const list = (body as { zones?: { zone?: unknown } } | null)?.zones?.zone;
  if (!Array.isArray(list) || list.length === 0)
    throw new CatalogueFormatError('upcloud /1.3/zone: zones.zone is missing or empty');
  return list.map((raw, i) => {
    const zone = raw as { id?: unknown; public?: unknown };
    if (typeof zone.id !== 'string' || zone.id === '')
      throw new CatalogueFormatError(`upcloud /1.3/zone: zones.zone[${i}] has no id`);
    return { id: zone.id, public: zone.public === 'yes' || zone.public === true };
  });
}

function readPlans(body: unknown): UpcloudPlan[] {
  const list = (body as { plans?: { plan?: unknown } } | null)?.plans?.plan;
  if (!Array.isArray(list) || list.length === 0)
    throw new CatalogueFormatError('upcloud /1.3/plan: plans.plan is missing or empty');
  return list.map((raw, i) => {
    const plan = raw as Record<string, unknown>;
    const name = plan.name;
    if (typeof name !== 'string' || name === '')
      throw new CatalogueFormatError(`upcloud /1.3/plan: plans.plan[${i}] has no name`);
    if (lineOf(name) === null) return { name, cores: 0, memoryMb: 0, storageGb: 0, storageTier: '', trafficGib: null };
    const cores = positive(plan.core_number, `${name}.core_number`);
    const memoryMb = positive(plan.memory_amount, `${name}.memory_amount`);
    const storageGb = positive(plan.storage_size, `${name}.storage_size`);
    if (typeof plan.storage_tier !== 'string')
      throw new CatalogueFormatError(`upcloud /1.3/plan: ${name}.storage_tier is missing`);
    const traffic = plan.public_traffic_out;
    if (traffic !== undefined && traffic !== null && (typeof traffic !== 'number' || traffic < 0))
      throw new CatalogueFormatError(`upcloud /1.3/plan: ${name}.public_traffic_out is not a number of GiB`);
    return {
      name,
      cores,
      memoryMb,
      storageGb,
      storageTier: plan.storage_tier,
      trafficGib: typeof traffic === 'number' ? traffic : null,
    };
  });
}

function readPrices(body: unknown): UpcloudPrices {
  const prices = (body as { prices?: { zone?: unknown; currency?: unknown } } | null)?.prices;
  const list = prices?.zone;
  if (!Array.isArray(list) || list.length === 0)
    throw new CatalogueFormatError('upcloud /1.3/price: prices.zone is missing or empty');
  const zones = new Map<string, Map<string, ZonePrice>>();
  for (const [i, raw] of list.entries()) {
    const { name, ...items } = raw as Record<string, unknown>;
    if (typeof name !== 'string' || name === '')
      throw new CatalogueFormatError(`upcloud /1.3/price: prices.zone[${i}] has no name`);
    const entries = new Map<string, ZonePrice>();
    for (const [key, value] of Object.entries(items)) {
      const item = value as { amount?: unknown; price?: unknown } | null;
      if (typeof item?.price !== 'number' || typeof item.amount !== 'number' || item.amount <= 0) {
        if (key.startsWith('server_plan_'))
          throw new CatalogueFormatError(`upcloud /1.3/price: ${name}.${key} has no numeric amount and price`);
        continue;
      }
      entries.set(key, { amount: item.amount, cents: item.price });
    }
    zones.set(name, entries);
  }
  const currency = typeof prices?.currency === 'string' && prices.currency !== '' ? prices.currency : null;
  return { currency, zones };
}

function positive(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new CatalogueFormatError(`upcloud /1.3/plan: ${what} is not a positive number`);
  return value;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
