/**
 * DigitalOcean's Droplet catalogue: `GET /v2/sizes` (every Droplet size with its price, allowance and
 * the regions it can be created in) and `GET /v2/regions`, both behind a bearer token and paginated
 * with `page`/`per_page` and `links.pages.next`. DigitalOcean charges one price everywhere, so a size
 * never has region prices.
 */
import {
  CatalogueFormatError,
  type CatalogueAdapter,
  type CatalogueAddOns,
  type CatalogueContext,
  type CataloguePlan,
  type CatalogueRegion,
} from '../catalogue.js';
import { laterPageNumber, readAllPages } from '../pagination.js';

/** The dataset's line for each `description` the API gives a size; every other description (Premium AMD/Intel, 2x SSD, Memory-/Storage-Optimized, GPU) is a line we do not manage. */
const LINE_OF_DESCRIPTION: Readonly<Record<string, { line: string; label: string; cpuType: 'shared' | 'dedicated' }>> =
  {
    Basic: { line: 'basic', label: 'Basic', cpuType: 'shared' },
    'CPU-Optimized': { line: 'cpu-optimized', label: 'CPU-Optimized', cpuType: 'dedicated' },
    'General Purpose': { line: 'general-purpose', label: 'General Purpose', cpuType: 'dedicated' },
  };

/** The order of the lines in providers.json, which is the order plans are listed in. */
const LINE_ORDER = ['basic', 'cpu-optimized', 'general-purpose'];

/** The dataset's city (providers.json `datacenters[].city`) for each DigitalOcean region slug; a slug missing here maps to null. */
const CITY_OF_REGION: Readonly<Record<string, string>> = {
  nyc1: 'New York',
  nyc2: 'New York',
  nyc3: 'New York',
  sfo1: 'San Francisco',
  sfo2: 'San Francisco',
  sfo3: 'San Francisco',
  atl1: 'Atlanta',
  tor1: 'Toronto',
  ams2: 'Amsterdam',
  ams3: 'Amsterdam',
  lon1: 'London',
  fra1: 'Frankfurt',
  sgp1: 'Singapore',
  blr1: 'Bangalore',
  syd1: 'Sydney',
};

/** The API allows up to 200 items a page; fewer round trips and the same result. */
const PER_PAGE = 200;
/** More pages than this means the `next` links do not converge. */
const MAX_PAGES = 50;

interface Size {
  slug: string;
  memory: number;
  vcpus: number;
  disk: number;
  transfer: number;
  price_monthly: number;
  price_hourly: number;
  regions: string[];
  available: boolean;
  description: string;
}

interface Region {
  slug: string;
  name: string;
  available: boolean;
}

/** DigitalOcean's Droplet sizes, read from its public API with a read token. */
export class DigitalOceanCatalogue implements CatalogueAdapter {
  readonly providerId = 'digitalocean';
  readonly baseUrl = 'https://api.digitalocean.com';
  readonly credentials = ['DIGITALOCEAN_TOKEN'] as const;
  readonly statesAvailability = true;
  readonly lines = LINE_ORDER;

  async regions(ctx: CatalogueContext): Promise<CatalogueRegion[]> {
    const { items, pages } = await readList(ctx, '/v2/regions', 'regions');
    const regions = items.map((item, i) => checkRegion(item, i));
    const open = regions.filter((region) => region.available);
    const closed = regions.filter((region) => !region.available).map((region) => region.slug);
    ctx.log(
      `digitalocean: ${open.length} of ${regions.length} regions open for new Droplets, read in ${pages} page${pages === 1 ? '' : 's'}${closed.length ? ` (closed: ${closed.join(', ')})` : ''}`,
    );
    return open.map((region) => ({ id: region.slug, city: CITY_OF_REGION[region.slug] ?? null }));
  }

  async plans(ctx: CatalogueContext, regions: CatalogueRegion[]): Promise<CataloguePlan[]> {
    const { items, pages } = await readList(ctx, '/v2/sizes', 'sizes');
    const sizes = items.map((item, i) => checkSize(item, i));
    const managed = sizes.filter((size) => LINE_OF_DESCRIPTION[size.description] !== undefined);
    for (const line of LINE_ORDER) {
      if (!managed.some((size) => LINE_OF_DESCRIPTION[size.description]!.line === line)) {
        throw new CatalogueFormatError(
          `/v2/sizes has no size of the "${line}" line (no size described as ${JSON.stringify(descriptionOf(line))}); has DigitalOcean renamed the plan family?`,
        );
      }
    }
    // A size may still list a region that no longer takes new Droplets; only the open ones are orderable.
    const open = regions.length > 0 ? new Set(regions.map((region) => region.id)) : null;
    const plans = managed.map((size) => toPlan(size, managed, open)).sort(byLineThenPrice);
    ctx.log(
      `digitalocean: ${sizes.length} sizes read in ${pages} page${pages === 1 ? '' : 's'}, ${plans.length} in the managed lines (${LINE_ORDER.map((line) => `${line} ${plans.filter((p) => p.line === line).length}`).join(', ')})`,
    );
    return plans;
  }

  async addOns(ctx: CatalogueContext): Promise<CatalogueAddOns> {
    // The sizes answer carries no IPv4, backup or transfer prices; those stay editorial in providers.json.
    ctx.log('digitalocean: the catalogue API has no add-on prices');
    return {};
  }
}

/** Reads every page of a list endpoint by following `links.pages.next`, and checks the count against `meta.total`. */
async function readList(
  ctx: CatalogueContext,
  path: string,
  key: 'sizes' | 'regions',
): Promise<{ items: unknown[]; pages: number }> {
  const headers = { authorization: `Bearer ${tokenOf(ctx)}` };
  let total: number | undefined;
  const { items, pages } = await readAllPages(
    path,
    { first: 1, maxPages: MAX_PAGES, isLater: laterPageNumber },
    async (page) => {
      const body = await ctx.client.getJson<unknown>(path, { query: { page, per_page: PER_PAGE }, headers });
      if (!isObject(body) || !Array.isArray(body[key]))
        throw new CatalogueFormatError(`${path} page ${page}: the answer has no "${key}" array`);
      const meta = body['meta'];
      if (isObject(meta) && typeof meta['total'] === 'number') total = meta['total'];
      return { items: body[key] as unknown[], next: nextPageOf(body, path, page) ?? undefined };
    },
  );
  if (items.length === 0) throw new CatalogueFormatError(`${path}: the list of ${key} is empty`);
  // A short read means a page went missing in between; a partial catalogue would look like retired sizes.
  if (total !== undefined && total !== items.length)
    throw new CatalogueFormatError(
      `${path}: meta.total says ${total} ${key} but ${pages} page(s) gave ${items.length}`,
    );
  return { items, pages };
}

/** The page number `links.pages.next` points at, or null on the last page. The link is absolute on DigitalOcean's host, so only its `page` is kept and the request goes through the client's own base URL. */
function nextPageOf(body: Record<string, unknown>, path: string, page: number): number | null {
  const links = body['links'];
  const pagesLink = isObject(links) ? links['pages'] : undefined;
  const next = isObject(pagesLink) ? pagesLink['next'] : undefined;
  if (next === undefined || next === null) return null;
  if (typeof next !== 'string') throw new CatalogueFormatError(`${path} page ${page}: links.pages.next is not a URL`);
  let nextPage: number;
  try {
    nextPage = Number(new URL(next).searchParams.get('page'));
  } catch {
    throw new CatalogueFormatError(`${path} page ${page}: links.pages.next ${JSON.stringify(next)} is not a URL`);
  }
  if (!Number.isInteger(nextPage) || nextPage <= page)
    throw new CatalogueFormatError(
      `${path} page ${page}: links.pages.next ${JSON.stringify(next)} does not point at a later page`,
    );
  return nextPage;
}

function tokenOf(ctx: CatalogueContext): string {
  const token = ctx.credentials['DIGITALOCEAN_TOKEN'];
  if (!token)
    throw new Error('digitalocean: DIGITALOCEAN_TOKEN is not set; the sizes and regions endpoints need a read token');
  return token;
}

function checkSize(item: unknown, index: number): Size {
  if (!isObject(item)) throw new CatalogueFormatError(`/v2/sizes: sizes[${index}] is not an object`);
  const slug = item['slug'];
  if (typeof slug !== 'string' || slug === '') throw new CatalogueFormatError(`/v2/sizes: sizes[${index}] has no slug`);
  const where = `/v2/sizes: size ${slug}`;
  const positive = (field: string): number => {
    const value = item[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new CatalogueFormatError(`${where} has no positive ${field} (got ${JSON.stringify(value)})`);
    return value;
  };
  const nonNegative = (field: string): number => {
    const value = item[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new CatalogueFormatError(`${where} has no ${field} (got ${JSON.stringify(value)})`);
    return value;
  };
  const regions = item['regions'];
  if (!Array.isArray(regions) || regions.some((r) => typeof r !== 'string'))
    throw new CatalogueFormatError(`${where} has no list of region slugs`);
  if (typeof item['available'] !== 'boolean')
    throw new CatalogueFormatError(`${where} does not say whether it is available`);
  if (typeof item['description'] !== 'string')
    throw new CatalogueFormatError(`${where} has no description, so its plan family is unknown`);
  return {
    slug,
    memory: positive('memory'),
    vcpus: positive('vcpus'),
    disk: nonNegative('disk'),
    transfer: nonNegative('transfer'),
    price_monthly: positive('price_monthly'),
    price_hourly: nonNegative('price_hourly'),
    regions: regions as string[],
    available: item['available'],
    description: item['description'],
  };
}

function checkRegion(item: unknown, index: number): Region {
  if (!isObject(item) || typeof item['slug'] !== 'string' || item['slug'] === '')
    throw new CatalogueFormatError(`/v2/regions: regions[${index}] has no slug`);
  if (typeof item['available'] !== 'boolean')
    throw new CatalogueFormatError(`/v2/regions: region ${item['slug']} does not say whether it is available`);
  return {
    slug: item['slug'],
    name: typeof item['name'] === 'string' ? item['name'] : item['slug'],
    available: item['available'],
  };
}

function toPlan(size: Size, managed: readonly Size[], openRegions: ReadonlySet<string> | null): CataloguePlan {
  const family = LINE_OF_DESCRIPTION[size.description]!;
  const regions = size.regions.filter((region) => openRegions === null || openRegions.has(region)).sort();
  return {
    id: size.slug,
    name: nameOf(size, family.label, managed),
    line: family.line,
    vcpus: size.vcpus,
    ramGb: size.memory / 1024,
    diskGb: size.disk,
    // Regular Droplets have local SSD; NVMe is what the Premium variants this adapter leaves out add.
    diskType: 'SSD',
    transferTb: size.transfer,
    cpuType: family.cpuType,
    monthlyPrice: size.price_monthly,
    hourlyPrice: size.price_hourly,
    currency: 'USD',
    // Per-second since 2026-01-01 (DigitalOcean's changelog), never above the monthly price.
    billing: 'per-second-capped',
    // The 672-hour cap DigitalOcean documented for hourly billing; no statement of a cap in hours was found for per-second billing.
    monthlyCapHours: null,
    regions,
    regionPrices: [],
    deprecated: !size.available || regions.length === 0,
  };
}

/**
 * The dataset's name: the line's label and the memory ("Basic 2 GB"), and where a line has several
 * sizes with that memory, the vCPU count on all but the one with the fewest ("Basic 2 GB / 2 vCPU").
 */
function nameOf(size: Size, label: string, managed: readonly Size[]): string {
  const base = `${label} ${memoryLabel(size.memory)}`;
  const sameMemory = managed.filter((other) => other.description === size.description && other.memory === size.memory);
  const fewestVcpus = Math.min(...sameMemory.map((other) => other.vcpus));
  return size.vcpus === fewestVcpus ? base : `${base} / ${size.vcpus} vCPU`;
}

function memoryLabel(megabytes: number): string {
  return megabytes < 1024 ? `${megabytes} MB` : `${formatNumber(megabytes / 1024)} GB`;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
}

function descriptionOf(line: string): string {
  return Object.entries(LINE_OF_DESCRIPTION).find(([, family]) => family.line === line)![0];
}

function byLineThenPrice(a: CataloguePlan, b: CataloguePlan): number {
  return (
    LINE_ORDER.indexOf(a.line) - LINE_ORDER.indexOf(b.line) ||
    a.monthlyPrice - b.monthlyPrice ||
    a.vcpus - b.vcpus ||
    a.id.localeCompare(b.id)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
