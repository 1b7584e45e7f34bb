/**
 * Akamai Cloud (Linode) catalogue: `/v4/regions`, `/v4/linode/types` and `/v4/network-transfer/prices`,
 * all public, all paginated with `page` and `page_size` (the answer says `page`, `pages` and
 * `results`). Prices are USD numbers; memory and disk are in MB, transfer in GB; `region_prices` lists
 * the locations whose price differs from the type's own `price`.
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

const PROVIDER = 'linode';
/** The API serves at most 500 entries a page; the catalogue then fits in one request. */
const PAGE_SIZE = 500;
/** A list longer than this many pages is taken as a server that never reaches its last page. */
const MAX_PAGES = 50;
/** Linode prices every catalogue in US dollars and does not name the currency in the answer. */
const CURRENCY = 'USD';

/**
 * Dataset plan lines in providers.json order. A type belongs to a line by its class and id prefix;
 * the dataset names a size after its family and its memory ("Linode 4 GB", "Dedicated 4 GB").
 */
const LINES = [
  {
    id: 'shared',
    cpuType: 'shared',
    families: [
      { match: (type: LinodeType) => type.class === 'nanode', name: 'Nanode' },
      { match: (type: LinodeType) => type.class === 'standard', name: 'Linode' },
    ],
  },
  {
    id: 'dedicated',
    cpuType: 'dedicated',
    families: [
      {
        match: (type: LinodeType) => type.class === 'dedicated' && type.id.startsWith('g6-dedicated-'),
        name: 'Dedicated',
      },
      {
        match: (type: LinodeType) => type.class === 'dedicated' && type.id.startsWith('g7-dedicated-'),
        name: 'G7 Dedicated',
      },
      // G8 sizes carry no monthly price (see `plans`); they are recognised so that they are reported, not silently dropped.
      {
        match: (type: LinodeType) => type.class === 'dedicated' && type.id.startsWith('g8-dedicated-'),
        name: 'G8 Dedicated',
      },
    ],
  },
] as const;

/**
 * The dataset's city (providers.json `datacenters[].city`) for each region id. Linode runs a second
 * site in several cities ("Washington 2", "Mumbai 2"); both map to the one city the dataset lists.
 */
const CITY_BY_REGION: Record<string, string> = {
  'us-east': 'Newark',
  'us-southeast': 'Atlanta',
  'us-central': 'Dallas',
  'us-west': 'Fremont',
  'us-ord': 'Chicago',
  'us-iad': 'Washington',
  'us-iad-2': 'Washington',
  'us-sea': 'Seattle',
  'us-mia': 'Miami',
  'us-lax': 'Los Angeles',
  'ca-central': 'Toronto',
  'br-gru': 'São Paulo',
  'eu-west': 'London',
  'gb-lon': 'London',
  'eu-central': 'Frankfurt',
  'de-fra-2': 'Frankfurt',
  'fr-par': 'Paris',
  'fr-par-2': 'Paris',
  'nl-ams': 'Amsterdam',
  'se-sto': 'Stockholm',
  'it-mil': 'Milan',
  'es-mad': 'Madrid',
  'ap-west': 'Mumbai',
  'in-bom-2': 'Mumbai',
  'in-maa': 'Chennai',
  'ap-south': 'Singapore',
  'sg-sin-2': 'Singapore',
  'ap-northeast': 'Tokyo',
  'jp-tyo-3': 'Tokyo',
  'jp-osa': 'Osaka',
  'id-cgk': 'Jakarta',
  'ap-southeast': 'Sydney',
  'au-mel': 'Melbourne',
};

interface Price {
  hourly?: number | null;
  monthly?: number | null;
}

interface RegionPrice extends Price {
  id?: string;
}

interface LinodeType {
  id: string;
  label?: string;
  class?: string;
  vcpus?: number;
  memory?: number;
  disk?: number;
  transfer?: number;
  price?: Price | null;
  region_prices?: RegionPrice[] | null;
  successor?: string | null;
}

interface Region {
  id?: string;
  capabilities?: string[];
  site_type?: string;
}

interface TransferPrice {
  id?: string;
  price?: Price | null;
}

interface PageBody {
  data?: unknown;
  page?: unknown;
  pages?: unknown;
}

type Line = (typeof LINES)[number];
type Family = Line['families'][number];

/** Akamai Cloud's Compute Instance catalogue (Shared CPU and Dedicated CPU lines) from the public API v4. */
export class LinodeCatalogue implements CatalogueAdapter {
  readonly providerId = PROVIDER;
  readonly baseUrl = 'https://api.linode.com';
  /** Every endpoint read here answers without a token. */
  readonly credentials = [] as const;
  readonly lines = LINES.map((line) => line.id);

  async regions(ctx: CatalogueContext): Promise<CatalogueRegion[]> {
    const { regions, pages } = await this.readRegions(ctx);
    ctx.log(`linode: ${plural(regions.length, 'region')} read in ${plural(pages, 'page')}`);
    return regions.map((region) => ({ id: region.id as string, city: CITY_BY_REGION[region.id as string] ?? null }));
  }

  async plans(ctx: CatalogueContext): Promise<CataloguePlan[]> {
    // The types list does not say where a size is sold; the core regions that offer Linodes do.
    const orderableIn = (await this.readRegions(ctx)).regions
      .filter(
        (region) =>
          region.site_type === 'core' && Array.isArray(region.capabilities) && region.capabilities.includes('Linodes'),
      )
      .map((region) => region.id as string);

    const { items, pages } = await readList(ctx, '/v4/linode/types');
    const types = items.map((item, index) => asType(item, index));
    const managed = types
      .map((type) => ({ type, family: familyOf(type) }))
      .filter(
        (entry): entry is { type: LinodeType; family: { line: Line; family: Family } } => entry.family !== undefined,
      );
    ctx.log(
      `linode: ${types.length} types read in ${plural(pages, 'page')}, ${managed.length} in the lines ${this.lines.join(', ')}`,
    );
    if (managed.length === 0)
      throw new CatalogueFormatError(
        `linode /v4/linode/types: no type in the lines ${this.lines.join(', ')} among ${types.length} listed`,
      );

    // A size without a monthly price is billed by the hour with no monthly cap; the plan model has no
    // place for that yet, so it is named in the log rather than given an invented monthly figure.
    const hourlyOnly = managed.filter(
      ({ type }) => type.price?.monthly === null && typeof type.price?.hourly === 'number',
    );
    if (hourlyOnly.length > 0)
      ctx.log(
        `linode: ${plural(hourlyOnly.length, 'size')} priced by the hour only (no monthly price) left out: ${hourlyOnly.map(({ type }) => type.id).join(', ')}`,
      );

    const plans = managed
      .filter((entry) => !hourlyOnly.includes(entry))
      .map(({ type, family }) => toPlan(type, family.line, family.family, orderableIn));
    if (plans.length === 0)
      throw new CatalogueFormatError(
        `linode /v4/linode/types: every type in the lines ${this.lines.join(', ')} lacks a monthly price`,
      );
    plans.sort(
      (a, b) => lineIndex(a.line) - lineIndex(b.line) || a.monthlyPrice - b.monthlyPrice || a.id.localeCompare(b.id),
    );
    const deprecated = plans.filter((plan) => plan.deprecated).length;
    ctx.log(
      `linode: ${plural(plans.length, 'plan')} priced in ${CURRENCY} (${deprecated} deprecated), orderable in ${plural(orderableIn.length, 'core region')}`,
    );
    return plans;
  }

  async addOns(ctx: CatalogueContext): Promise<CatalogueAddOns> {
    const { items, pages } = await readList(ctx, '/v4/network-transfer/prices');
    const prices = items as TransferPrice[];
    const transfer = prices.find((entry) => entry?.id === 'network_transfer');
    if (!transfer)
      throw new CatalogueFormatError(
        `linode /v4/network-transfer/prices: no "network_transfer" entry among ${prices.length} listed`,
      );
    // The overage is a price per GB, which the API puts in the `hourly` field of its usual price object.
    const perGb = transfer.price?.hourly;
    if (typeof perGb !== 'number' || !Number.isFinite(perGb) || perGb < 0)
      throw new CatalogueFormatError(
        'linode /v4/network-transfer/prices: "network_transfer" has no price per GB (price.hourly)',
      );
    ctx.log(
      `linode: ${plural(prices.length, 'transfer price')} read in ${plural(pages, 'page')}; overage ${perGb} ${CURRENCY} per GB in the core regions`,
    );
    return { trafficOverage: { price: perGb, unit: 'GB' } };
  }

  /** The regions with what each offers; step 1 logs the count, step 2 reads them again for where Linodes are sold. */
  private async readRegions(ctx: CatalogueContext): Promise<{ regions: Region[]; pages: number }> {
    const { items, pages } = await readList(ctx, '/v4/regions');
    const regions = items as Region[];
    regions.forEach((region, index) => {
      if (typeof region?.id !== 'string' || region.id === '')
        throw new CatalogueFormatError(`linode /v4/regions: data[${index}] has no id`);
    });
    if (regions.length === 0) throw new CatalogueFormatError('linode /v4/regions: the list of regions is empty');
    return { regions, pages };
  }
}

/** Every entry of a paginated list, page after page until the answer's `pages`. */
async function readList(ctx: CatalogueContext, path: string): Promise<{ items: unknown[]; pages: number }> {
  return readAllPages(`linode ${path}`, { first: 1, maxPages: MAX_PAGES, isLater: laterPageNumber }, async (page) => {
    const body = await ctx.client.getJson<PageBody>(path, { query: { page, page_size: PAGE_SIZE } });
    if (body === null || typeof body !== 'object' || !Array.isArray(body.data))
      throw new CatalogueFormatError(`linode ${path}: page ${page} has no data list`);
    if (!isPositiveInteger(body.pages) || body.page !== page)
      throw new CatalogueFormatError(
        `linode ${path}: page ${page} does not say which page it is of how many (page ${String(body.page)}, pages ${String(body.pages)})`,
      );
    return { items: body.data, next: page < body.pages ? page + 1 : undefined };
  });
}

function asType(item: unknown, index: number): LinodeType {
  const type = item as LinodeType;
  if (type === null || typeof type !== 'object' || typeof type.id !== 'string' || type.id === '')
    throw new CatalogueFormatError(`linode /v4/linode/types: data[${index}] has no id`);
  return type;
}

function familyOf(type: LinodeType): { line: Line; family: Family } | undefined {
  for (const line of LINES) {
    const family = line.families.find((candidate) => candidate.match(type));
    if (family) return { line, family };
  }
  return undefined;
}

function toPlan(type: LinodeType, line: Line, family: Family, orderableIn: string[]): CataloguePlan {
  const where = `linode /v4/linode/types: ${type.id}`;
  const vcpus = positive(type.vcpus, `${where} has no vcpus`);
  const memoryMb = positive(type.memory, `${where} has no memory (MB)`);
  const diskMb = positive(type.disk, `${where} has no disk (MB)`);
  if (typeof type.transfer !== 'number' || !Number.isFinite(type.transfer) || type.transfer < 0)
    throw new CatalogueFormatError(`${where} has no transfer (GB)`);
  const monthlyPrice = price(type.price?.monthly, `${where} has no monthly price`);
  const hourlyPrice = price(type.price?.hourly, `${where} has no hourly price`);
  const ramGb = memoryMb / 1024;
  const successor = typeof type.successor === 'string' && type.successor !== '' ? type.successor : undefined;
  return {
    id: type.id,
    name: `${family.name} ${ramGb} GB`,
    line: line.id,
    vcpus,
    ramGb,
    diskGb: diskMb / 1024,
    // Linode sells local SSD storage on every Shared and Dedicated plan and states no other kind.
    diskType: 'SSD',
    // The catalogue counts transfer in decimal GB (1000 GB on the Nanode, sold as 1 TB).
    transferTb: type.transfer / 1000,
    cpuType: line.cpuType,
    monthlyPrice,
    hourlyPrice,
    currency: CURRENCY,
    billing: 'hourly-capped',
    // Linode states the cap as the monthly price, not as a number of hours.
    monthlyCapHours: null,
    regions: [...orderableIn],
    regionPrices: regionPricesOf(type, monthlyPrice, where),
    deprecated: successor !== undefined,
    ...(successor !== undefined ? { successor } : {}),
  };
}

function regionPricesOf(type: LinodeType, headline: number, where: string): CatalogueRegionPrice[] {
  if (type.region_prices === undefined || type.region_prices === null) return [];
  if (!Array.isArray(type.region_prices))
    throw new CatalogueFormatError(`${where} has region_prices that is not a list`);
  return type.region_prices
    .map((entry, index) => {
      if (typeof entry?.id !== 'string' || entry.id === '')
        throw new CatalogueFormatError(`${where} region_prices[${index}] has no region id`);
      return {
        region: entry.id,
        monthlyPrice: price(entry.monthly, `${where} has no monthly price for ${entry.id}`),
        hourlyPrice: typeof entry.hourly === 'number' && Number.isFinite(entry.hourly) ? entry.hourly : null,
      };
    })
    .filter((entry) => entry.monthlyPrice !== headline)
    .sort((a, b) => a.region.localeCompare(b.region));
}

function price(value: unknown, problem: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new CatalogueFormatError(problem);
  return value;
}

function positive(value: unknown, problem: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new CatalogueFormatError(problem);
  return value;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function lineIndex(id: string): number {
  return LINES.findIndex((line) => line.id === id);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
