/**
 * Hetzner Cloud's catalogue: `/v1/locations` and `/v1/server_types` (both paginated with `page` and
 * `per_page`, the last page having `meta.pagination.next_page: null`) and `/v1/pricing` (one object).
 * Prices are decimal strings in the project owner's currency, net and gross of VAT; traffic is in bytes.
 */
import {
  CatalogueFormatError,
  type CatalogueAdapter,
  type CatalogueAddOns,
  type CatalogueContext,
  type CataloguePlan,
  type CatalogueRegion,
  type CatalogueRegionPrice,
} from '../catalogue.js';
import { laterPageNumber, readAllPages } from '../pagination.js';

const PROVIDER = 'hetzner';
const TOKEN_VARIABLE = 'HCLOUD_TOKEN';
/** The largest page the API serves; fewer requests for the same list. */
const PER_PAGE = 50;
/** A list longer than this many pages is taken as a server that keeps answering `next_page`. */
const MAX_PAGES = 100;

/** Dataset plan lines in providers.json order; a server type's name prefix decides its line. */
const LINES = [
  { id: 'cx', prefix: /^cx\d/, architecture: 'x86', cpuType: 'shared' },
  { id: 'cax', prefix: /^cax\d/, architecture: 'arm', cpuType: 'shared' },
  { id: 'cpx', prefix: /^cpx\d/, architecture: 'x86', cpuType: 'shared' },
  { id: 'ccx', prefix: /^ccx\d/, architecture: 'x86', cpuType: 'dedicated' },
] as const;

/**
 * The price list the dataset quotes as a plan's headline (Germany and Finland, which Hetzner prices
 * alike), in the order tried; a type not sold there is headlined at its cheapest location.
 */
const HEADLINE_LOCATIONS = ['fsn1', 'nbg1', 'hel1'];

/** The dataset's city (providers.json `datacenters[].city`) for each location id Hetzner uses. */
const CITY_BY_LOCATION: Record<string, string> = {
  fsn1: 'Falkenstein',
  nbg1: 'Nuremberg',
  hel1: 'Helsinki',
  ash: 'Ashburn',
  hil: 'Hillsboro',
  sin: 'Singapore',
};

interface Price {
  net: string;
  gross: string;
}

interface PricingEntry {
  location: string;
  price_hourly?: Price;
  price_monthly?: Price;
  included_traffic?: number;
  price_per_tb_traffic?: Price;
}

interface Deprecation {
  announced?: string;
  unavailable_after?: string;
}

interface ServerTypeLocation {
  name?: string;
  deprecation?: Deprecation | null;
  available?: boolean;
}

interface ServerType {
  id?: number;
  name?: string;
  cores?: number;
  memory?: number;
  disk?: number;
  storage_type?: string;
  cpu_type?: string;
  architecture?: string;
  deprecated?: boolean | null;
  deprecation?: Deprecation | null;
  locations?: ServerTypeLocation[];
}

interface Pricing {
  currency?: string;
  server_types?: { name?: string; prices?: PricingEntry[] }[];
  primary_ips?: { type?: string; prices?: PricingEntry[] }[];
  server_backup?: { percentage?: string };
  image?: { price_per_gb_month?: Price };
}

interface Page {
  meta?: { pagination?: { page?: number; next_page?: number | null } };
}

/** Options for tests and replays of old recordings. */
export interface HetznerCatalogueOptions {
  /** The moment deprecations are judged against; the current time when absent. */
  now?: () => Date;
}

/** Hetzner Cloud's server catalogue (CX, CAX, CPX and CCX lines), priced from `/v1/pricing`. */
export class HetznerCatalogue implements CatalogueAdapter {
  readonly providerId = PROVIDER;
  readonly baseUrl = 'https://api.hetzner.cloud';
  readonly credentials = [TOKEN_VARIABLE] as const;
  readonly statesAvailability = true;
  readonly lines = LINES.map((line) => line.id);
  private readonly now: () => Date;

  constructor(options: HetznerCatalogueOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async regions(ctx: CatalogueContext): Promise<CatalogueRegion[]> {
    const { items, pages } = await this.readList<{ name?: unknown; city?: unknown }>(ctx, '/v1/locations', 'locations');
    const regions = items.map((location, index) => {
      if (typeof location.name !== 'string' || location.name === '')
        throw new CatalogueFormatError(`hetzner /v1/locations: locations[${index}] has no name`);
      return { id: location.name, city: cityOf(location.name, location.city) };
    });
    if (regions.length === 0) throw new CatalogueFormatError('hetzner /v1/locations: the list of locations is empty');
    ctx.log(`hetzner: ${regions.length} locations read in ${plural(pages, 'page')}`);
    return regions;
  }

  // Hetzner prices every location it sells in, so the plans need nothing from the regions step.
  async plans(ctx: CatalogueContext, _regions: CatalogueRegion[] = []): Promise<CataloguePlan[]> {
    const { items: serverTypes, pages } = await this.readList<ServerType>(ctx, '/v1/server_types', 'server_types');
    const managed = serverTypes.filter((type) => typeof type.name === 'string' && lineOf(type.name) !== undefined);
    ctx.log(
      `hetzner: ${serverTypes.length} server types read in ${plural(pages, 'page')}, ${managed.length} in the lines ${this.lines.join(', ')}`,
    );
    if (managed.length === 0)
      throw new CatalogueFormatError(
        `hetzner /v1/server_types: no server type in the lines ${this.lines.join(', ')} among ${serverTypes.length} listed`,
      );

    const pricing = await this.readPricing(ctx);
    const currency = currencyOf(pricing);
    const pricesByType = new Map<string, PricingEntry[]>();
    for (const entry of pricing.server_types ?? [])
      if (typeof entry.name === 'string') pricesByType.set(entry.name, entry.prices ?? []);
    const ipv4ByLocation = ipv4Prices(pricing);

    const now = this.now();
    const plans = managed.map((type) =>
      toPlan(type, pricesByType.get(type.name as string), ipv4ByLocation, currency, now),
    );
    plans.sort(
      (a, b) => lineIndex(a.line) - lineIndex(b.line) || a.monthlyPrice - b.monthlyPrice || a.id.localeCompare(b.id),
    );
    const deprecated = plans.filter((plan) => plan.deprecated).length;
    const unorderable = plans.filter((plan) => plan.regions.length === 0).length;
    ctx.log(
      `hetzner: ${plans.length} plans priced in ${currency} (${deprecated} deprecated, ${unorderable} orderable nowhere)`,
    );
    return plans;
  }

  async addOns(ctx: CatalogueContext): Promise<CatalogueAddOns> {
    const pricing = await this.readPricing(ctx);
    const addOns: CatalogueAddOns = {};
    const ipv4 = headlineEntry(ipv4Prices(pricing));
    if (ipv4?.price_monthly) addOns.ipv4PerMonth = amount(ipv4.price_monthly, 'primary IPv4 monthly price');
    const percentage = pricing.server_backup?.percentage;
    if (percentage !== undefined) addOns.backupsPercentOfPlanPrice = number(percentage, 'server_backup.percentage');
    const snapshot = pricing.image?.price_per_gb_month;
    if (snapshot) addOns.snapshotPerGbMonth = amount(snapshot, 'image.price_per_gb_month');
    // The overage price is quoted per server type and location; the headline price list has one figure for all.
    const overage = (pricing.server_types ?? [])
      .filter((type) => typeof type.name === 'string' && lineOf(type.name) !== undefined)
      .map((type) => headlineEntry(new Map((type.prices ?? []).map((entry) => [entry.location, entry]))))
      .find((entry) => entry?.price_per_tb_traffic !== undefined);
    if (overage?.price_per_tb_traffic)
      addOns.trafficOverage = { price: amount(overage.price_per_tb_traffic, 'price_per_tb_traffic'), unit: 'TB' };
    ctx.log(`hetzner: add-on prices read (${Object.keys(addOns).join(', ') || 'none'})`);
    return addOns;
  }

  private headers(ctx: CatalogueContext): Record<string, string> {
    const token = ctx.credentials[TOKEN_VARIABLE];
    if (!token)
      throw new Error(
        `hetzner: ${TOKEN_VARIABLE} is not set; the Hetzner Cloud API answers only requests with a project token`,
      );
    return { authorization: `Bearer ${token}` };
  }

  private async readPricing(ctx: CatalogueContext): Promise<Pricing> {
    const body = await ctx.client.getJson<{ pricing?: unknown }>('/v1/pricing', { headers: this.headers(ctx) });
    if (!isObject(body) || !isObject(body.pricing))
      throw new CatalogueFormatError('hetzner /v1/pricing: the answer has no "pricing" object');
    const pricing = body.pricing as Pricing;
    if (!Array.isArray(pricing.server_types))
      throw new CatalogueFormatError('hetzner /v1/pricing: pricing.server_types is not a list');
    return pricing;
  }

  /** Every item of a paginated list, following `next_page` until the API says there is none. */
  private async readList<T>(ctx: CatalogueContext, path: string, key: string): Promise<{ items: T[]; pages: number }> {
    const { items, pages } = await readAllPages(
      `hetzner ${path}`,
      { first: 1, maxPages: MAX_PAGES, isLater: laterPageNumber },
      async (page) => {
        const body = await ctx.client.getJson<Page & Record<string, unknown>>(path, {
          query: { page, per_page: PER_PAGE },
          headers: this.headers(ctx),
        });
        if (!isObject(body) || !Array.isArray(body[key]))
          throw new CatalogueFormatError(`hetzner ${path}: page ${page} has no "${key}" list`);
        return { items: body[key] as unknown[], next: body.meta?.pagination?.next_page ?? undefined };
      },
    );
    return { items: items as T[], pages };
  }
}

function toPlan(
  type: ServerType,
  prices: PricingEntry[] | undefined,
  ipv4ByLocation: Map<string, PricingEntry>,
  currency: string,
  now: Date,
): CataloguePlan {
  const name = type.name as string;
  const where = `hetzner server type ${name}`;
  const line = lineOf(name)!;
  const vcpus = positive(type.cores, `${where}: cores`);
  const ramGb = positive(type.memory, `${where}: memory`);
  const diskGb = positive(type.disk, `${where}: disk`);
  if (type.storage_type !== 'local' && type.storage_type !== 'network')
    throw new CatalogueFormatError(`${where}: unknown storage_type ${JSON.stringify(type.storage_type)}`);
  if (type.cpu_type !== 'shared' && type.cpu_type !== 'dedicated')
    throw new CatalogueFormatError(`${where}: unknown cpu_type ${JSON.stringify(type.cpu_type)}`);
  if (type.cpu_type !== line.cpuType || (type.architecture !== undefined && type.architecture !== line.architecture)) {
    // A name that no longer says what the line sells would file the size under the wrong line.
    throw new CatalogueFormatError(
      `${where}: ${type.cpu_type} ${type.architecture ?? ''} does not fit the ${line.id} line (${line.cpuType} ${line.architecture})`,
    );
  }
  if (!prices || prices.length === 0) throw new CatalogueFormatError(`${where}: no price in /v1/pricing`);

  // The dataset quotes Hetzner's prices with the primary IPv4 address, which /v1/pricing lists apart.
  const offers = prices.map((entry) => {
    const ipv4 = ipv4ByLocation.get(entry.location);
    if (!ipv4?.price_monthly)
      throw new CatalogueFormatError(
        `hetzner /v1/pricing: no primary IPv4 price for ${entry.location}, which ${name} is priced in`,
      );
    if (!entry.price_monthly) throw new CatalogueFormatError(`${where}: no monthly price for ${entry.location}`);
    return {
      entry,
      monthly: round(
        amount(entry.price_monthly, `${where} monthly price in ${entry.location}`) +
          amount(ipv4.price_monthly, `primary IPv4 monthly price in ${entry.location}`),
        4,
      ),
      hourly:
        entry.price_hourly && ipv4.price_hourly
          ? round(
              amount(entry.price_hourly, `${where} hourly price in ${entry.location}`) +
                amount(ipv4.price_hourly, `primary IPv4 hourly price in ${entry.location}`),
              6,
            )
          : null,
    };
  });
  const headline =
    HEADLINE_LOCATIONS.map((location) => offers.find((offer) => offer.entry.location === location)).find(
      (offer) => offer !== undefined,
    ) ?? [...offers].sort((a, b) => a.monthly - b.monthly)[0];
  const regionPrices: CatalogueRegionPrice[] = offers
    .filter((offer) => offer.monthly !== headline.monthly)
    .map((offer) => ({ region: offer.entry.location, monthlyPrice: offer.monthly, hourlyPrice: offer.hourly }));

  const listed = Array.isArray(type.locations) ? type.locations : null;
  const regions = isPast(type.deprecation, now)
    ? []
    : listed
      ? listed
          .filter(
            (location) =>
              typeof location.name === 'string' && location.available !== false && !isPast(location.deprecation, now),
          )
          .map((location) => location.name as string)
      : // Before per-location server types (API change of 2025-09-24) the price list was the only statement of where a type is sold.
        offers.map((offer) => offer.entry.location);
  const deprecated =
    type.deprecated === true ||
    (type.deprecation !== null && type.deprecation !== undefined) ||
    (listed !== null &&
      listed.length > 0 &&
      listed.every((location) => location.deprecation !== null && location.deprecation !== undefined));

  const plan: CataloguePlan = {
    id: name,
    name: name.toUpperCase(),
    line: line.id,
    vcpus,
    ramGb,
    diskGb,
    diskType: type.storage_type === 'local' ? 'NVMe' : 'SSD',
    transferTb: null,
    cpuType: type.cpu_type,
    monthlyPrice: headline.monthly,
    hourlyPrice: headline.hourly,
    currency,
    billing: 'hourly-capped',
    monthlyCapHours: null,
    regions,
    regionPrices,
    deprecated,
  };
  const traffic = headline.entry.included_traffic;
  if (typeof traffic === 'number' && Number.isFinite(traffic) && traffic >= 0)
    plan.transferTb = round(traffic / 2 ** 40, 2); // Hetzner sells 20 TiB as "20 TB"
  else throw new CatalogueFormatError(`${where}: no included_traffic for ${headline.entry.location}`);
  return plan;
}

function lineOf(name: string): (typeof LINES)[number] | undefined {
  return LINES.find((line) => line.prefix.test(name));
}

function lineIndex(id: string): number {
  return LINES.findIndex((line) => line.id === id);
}

function cityOf(id: string, apiCity: unknown): string | null {
  if (CITY_BY_LOCATION[id]) return CITY_BY_LOCATION[id];
  // A new location in a city the dataset already has ("Ashburn, VA") still maps to it.
  const city = typeof apiCity === 'string' ? apiCity.split(',')[0].trim() : '';
  return Object.values(CITY_BY_LOCATION).find((known) => known === city) ?? null;
}

function currencyOf(pricing: Pricing): string {
  if (typeof pricing.currency !== 'string' || !/^[A-Z]{3}$/.test(pricing.currency))
    throw new CatalogueFormatError(
      `hetzner /v1/pricing: currency ${JSON.stringify(pricing.currency)} is not an ISO 4217 code`,
    );
  return pricing.currency;
}

function ipv4Prices(pricing: Pricing): Map<string, PricingEntry> {
  const ipv4 = (pricing.primary_ips ?? []).find((ip) => ip.type === 'ipv4');
  if (!ipv4 || !Array.isArray(ipv4.prices))
    throw new CatalogueFormatError('hetzner /v1/pricing: no primary_ips entry of type ipv4');
  return new Map(ipv4.prices.map((entry) => [entry.location, entry]));
}

function headlineEntry(byLocation: Map<string, PricingEntry>): PricingEntry | undefined {
  return HEADLINE_LOCATIONS.map((location) => byLocation.get(location)).find((entry) => entry !== undefined);
}

/** The net (excluding VAT) figure of a price, as a number. */
function amount(price: Price, what: string): number {
  if (!isObject(price)) throw new CatalogueFormatError(`hetzner: ${what} is not a net/gross price`);
  return number(price.net, `${what} (net)`);
}

function number(value: unknown, what: string): number {
  const parsed =
    typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  if (!Number.isFinite(parsed) || parsed < 0)
    throw new CatalogueFormatError(`hetzner: ${what} is ${JSON.stringify(value)}, not an amount`);
  return parsed;
}

function positive(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new CatalogueFormatError(`${what} is ${JSON.stringify(value)}, not a positive number`);
  return value;
}

function isPast(deprecation: Deprecation | null | undefined, now: Date): boolean {
  if (!deprecation?.unavailable_after) return false;
  const after = Date.parse(deprecation.unavailable_after);
  return Number.isFinite(after) && after <= now.getTime();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
