/**
 * Hostinger's catalogue: `GET /api/billing/v1/catalog?category=VPS` (items with `prices[]` in cents,
 * one price per currency and billing term) and `GET /api/vps/v1/data-centers`, read with a Bearer
 * token. Per Hostinger's OpenAPI document both answer a plain array, with no paging parameters.
 *
 * A term's `first_period_price` is what the first term costs (the promotional rate) and `price` what
 * each renewal costs. The dataset's headline is the effective monthly rate of the 24-month term,
 * prepaid; the 1-month term's `price` is the month-to-month rate.
 */
import {
  CatalogueFormatError,
  type CatalogueAdapter,
  type CatalogueAddOns,
  type CatalogueContext,
  type CataloguePlan,
  type CatalogueRegion,
} from '../catalogue.js';

/** The dataset's plan lines this adapter writes. */
export const HOSTINGER_LINES = ['kvm'] as const;

/** A Hostinger plan with the term its headline price is the effective monthly rate of. */
export interface HostingerCataloguePlan extends CataloguePlan {
  /** The prepaid term `monthlyPrice` is the effective monthly rate of (24). */
  termMonths: number;
  /** What the same term costs per month when it renews. */
  renewalMonthlyPrice: number;
  /** The regular rate of the 1-month term; null when the catalogue has no 1-month price. */
  monthToMonthPrice: number | null;
}

/** Reads Hostinger's KVM VPS plans from its billing catalogue. */
export class HostingerCatalogue implements CatalogueAdapter {
  readonly providerId = 'hostinger';
  readonly baseUrl = 'https://developers.hostinger.com';
  readonly credentials = ['HOSTINGER_API_TOKEN'] as const;
  readonly lines = HOSTINGER_LINES;

  async regions(ctx: CatalogueContext): Promise<CatalogueRegion[]> {
    const centres = readDataCentres(await getJson(ctx, '/api/vps/v1/data-centers'));
    const regions = centres.map((centre) => ({ id: String(centre.id), city: datasetCity(centre.city) }));
    ctx.log(
      `hostinger: ${centres.length} data centres read in 1 page, ${regions.filter((r) => r.city !== null).length} in the dataset's cities`,
    );
    return regions;
  }

  async plans(ctx: CatalogueContext, regions: CatalogueRegion[]): Promise<HostingerCataloguePlan[]> {
    const items = readCatalogue(await getJson(ctx, '/api/billing/v1/catalog', { category: 'VPS' }));
    const kvm = items.filter((item) => KVM_ITEM.test(item.id));
    if (kvm.length === 0)
      throw new CatalogueFormatError(
        `hostinger /api/billing/v1/catalog: none of the ${items.length} VPS items is a KVM plan (hostingercom-vps-kvm<n>)`,
      );
    // The catalogue does not say where a plan can be ordered; Hostinger sells every KVM plan in every VPS data centre it lists.
    const regionIds = regions.map((region) => region.id);
    const plans = kvm
      .map((item) => toCataloguePlan(item, regionIds))
      .sort((a, b) => a.monthlyPrice - b.monthlyPrice || a.id.localeCompare(b.id));
    ctx.log(
      `hostinger: ${items.length} VPS catalogue items read in 1 page, ${plans.length} KVM plans priced in ${PRICE_LIST_CURRENCY}`,
    );
    return plans;
  }

  async addOns(ctx: CatalogueContext): Promise<CatalogueAddOns> {
    ctx.log('hostinger: the catalogue has no add-on prices for VPS; add-ons stay editorial');
    return {};
  }
}

/** Catalogue item ids of the KVM line; Game Panel and other VPS items have other suffixes. */
const KVM_ITEM = /^hostingercom-vps-kvm\d+$/;

/** The dataset's Hostinger price list is the international USD one. */
const PRICE_LIST_CURRENCY = 'USD';

/** The prepaid term the dataset's headline price is quoted for. */
const HEADLINE_TERM_MONTHS = 24;

/** The dataset's cities for Hostinger (providers.json `hostinger.datacenters[].city`), by the spelling the API may use. */
const DATASET_CITIES: Readonly<Record<string, string>> = {
  vilnius: 'Vilnius',
  amsterdam: 'Amsterdam',
  london: 'London',
  frankfurt: 'Frankfurt',
  boston: 'Boston',
  'são paulo': 'São Paulo',
  'sao paulo': 'São Paulo',
  mumbai: 'Mumbai',
  singapore: 'Singapore',
  jakarta: 'Jakarta',
};

interface DataCentre {
  id: number;
  city: string | null;
}

interface CataloguePrice {
  id: string;
  currency: string;
  cents: number;
  firstPeriodCents: number | null;
  months: number | null;
}

interface CatalogueItem {
  id: string;
  name: string;
  metadata: Record<string, unknown> | null;
  prices: CataloguePrice[];
}

async function getJson(ctx: CatalogueContext, path: string, query: Record<string, string> = {}): Promise<unknown> {
  const token = ctx.credentials.HOSTINGER_API_TOKEN;
  if (!token) throw new Error('hostinger: HOSTINGER_API_TOKEN must be set (an API token from hPanel)');
  return ctx.client.getJson(path, { query, headers: { authorization: `Bearer ${token}` } });
}

function datasetCity(city: string | null): string | null {
  return city === null ? null : (DATASET_CITIES[city.trim().toLowerCase()] ?? null);
}

function toCataloguePlan(item: CatalogueItem, regionIds: string[]): HostingerCataloguePlan {
  const where = `hostinger /api/billing/v1/catalog: ${item.id}`;
  const inList = item.prices.filter((price) => price.currency === PRICE_LIST_CURRENCY);
  const term = inList.find((price) => price.months === HEADLINE_TERM_MONTHS);
  if (!term)
    throw new CatalogueFormatError(
      `${where} has no ${HEADLINE_TERM_MONTHS}-month ${PRICE_LIST_CURRENCY} price (terms: ${describeTerms(item.prices)})`,
    );
  const monthly = inList.find((price) => price.months === 1);
  const specs = specsOf(item, where);

  return {
    id: item.id,
    name: item.name,
    line: 'kvm',
    ...specs,
    // Hostinger's VPS plans all run on NVMe and shared vCPUs; the catalogue has no field for either.
    diskType: 'NVMe',
    cpuType: 'shared',
    monthlyPrice: perMonth(term.firstPeriodCents ?? term.cents, HEADLINE_TERM_MONTHS),
    hourlyPrice: null,
    currency: PRICE_LIST_CURRENCY,
    billing: 'prepaid-term',
    monthlyCapHours: null,
    regions: regionIds,
    regionPrices: [],
    deprecated: false,
    termMonths: HEADLINE_TERM_MONTHS,
    renewalMonthlyPrice: perMonth(term.cents, HEADLINE_TERM_MONTHS),
    monthToMonthPrice: monthly ? perMonth(monthly.cents, 1) : null,
  };
}

/**
 * Specs from the item's metadata. The OpenAPI document leaves the metadata's keys open; the VPS items
 * carry `cpus`, `memory`, `disk_space` and `bandwidth`, in megabytes like the virtual machine
 * resource's `memory`, `disk` and `bandwidth`.
 */
function specsOf(item: CatalogueItem, where: string): Pick<CataloguePlan, 'vcpus' | 'ramGb' | 'diskGb' | 'transferTb'> {
  const meta = item.metadata ?? {};
  const valueOf = (key: string) => numberOf(key === 'disk_space' ? (meta.disk_space ?? meta.disk) : meta[key]);
  const missing = ['cpus', 'memory', 'disk_space', 'bandwidth'].filter((key) => valueOf(key) === null);
  if (missing.length > 0)
    throw new CatalogueFormatError(
      `${where} metadata lacks ${missing.join(', ')} (has: ${Object.keys(meta).join(', ') || 'nothing'})`,
    );
  const mb = (key: string) => valueOf(key) as number;
  return {
    vcpus: mb('cpus'),
    ramGb: round(mb('memory') / 1024, 2),
    diskGb: round(mb('disk_space') / 1024, 2),
    // Megabytes of 1024 to the GB; the dataset's TB is 1000 GB, so 4096000 MB reads as 4 TB.
    transferTb: round(mb('bandwidth') / 1024 / 1000, 2),
  };
}

function perMonth(cents: number, months: number): number {
  return round(cents / 100 / months, 2);
}

function describeTerms(prices: CataloguePrice[]): string {
  return (
    prices.map((price) => `${price.currency} ${price.months === null ? 'other' : `${price.months}m`}`).join(', ') ||
    'none'
  );
}

function readDataCentres(body: unknown): DataCentre[] {
  if (!Array.isArray(body) || body.length === 0)
    throw new CatalogueFormatError('hostinger /api/vps/v1/data-centers: expected a non-empty array of data centres');
  return body.map((raw, i) => {
    const centre = raw as { id?: unknown; city?: unknown };
    if (typeof centre.id !== 'number')
      throw new CatalogueFormatError(`hostinger /api/vps/v1/data-centers: [${i}] has no numeric id`);
    return { id: centre.id, city: typeof centre.city === 'string' ? centre.city : null };
  });
}

function readCatalogue(body: unknown): CatalogueItem[] {
  if (!Array.isArray(body) || body.length === 0)
    throw new CatalogueFormatError('hostinger /api/billing/v1/catalog: expected a non-empty array of catalogue items');
  return body.map((raw, i) => {
    const item = raw as { id?: unknown; name?: unknown; metadata?: unknown; prices?: unknown };
    if (typeof item.id !== 'string' || typeof item.name !== 'string')
      throw new CatalogueFormatError(`hostinger /api/billing/v1/catalog: [${i}] has no id or name`);
    if (!Array.isArray(item.prices))
      throw new CatalogueFormatError(`hostinger /api/billing/v1/catalog: ${item.id} has no prices array`);
    const metadata =
      item.metadata !== null && typeof item.metadata === 'object' ? (item.metadata as Record<string, unknown>) : null;
    return {
      id: item.id,
      name: item.name,
      metadata,
      prices: item.prices.map((price, j) => readPrice(price, `${item.id}.prices[${j}]`)),
    };
  });
}

function readPrice(raw: unknown, where: string): CataloguePrice {
  const price = raw as {
    id?: unknown;
    currency?: unknown;
    price?: unknown;
    first_period_price?: unknown;
    period?: unknown;
    period_unit?: unknown;
  };
  if (typeof price.currency !== 'string' || typeof price.price !== 'number' || price.price < 0) {
    throw new CatalogueFormatError(`hostinger /api/billing/v1/catalog: ${where} has no currency or no price in cents`);
  }
  const firstPeriod = typeof price.first_period_price === 'number' ? price.first_period_price : null;
  return {
    id: typeof price.id === 'string' ? price.id : where,
    currency: price.currency,
    cents: price.price,
    firstPeriodCents: firstPeriod,
    months: monthsOf(price.period, price.period_unit),
  };
}

/** The term in months; null for day, week or one-off (`none`) terms, which the dataset does not quote. */
function monthsOf(period: unknown, unit: unknown): number | null {
  if (typeof period !== 'number' || period <= 0) return null;
  if (unit === 'month') return period;
  if (unit === 'year') return period * 12;
  return null;
}

function numberOf(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
