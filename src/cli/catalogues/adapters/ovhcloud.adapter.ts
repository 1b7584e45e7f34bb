/**
 * OVHcloud's public VPS order catalogue (`GET /1.0/order/catalog/public/vps?ovhSubsidiary=XX`): one
 * unpaginated document per subsidiary, in that subsidiary's currency, with prices in 1e-8 units.
 * A plan names its `product` (where the specs live), carries its prices in `pricings[]` and its
 * datacenters in `configurations[]`; `blobs.tags` holds `order-funnel:show` while the plan is on sale.
 */
import type { CatalogueClient } from '../catalogue-client.js';
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

/** The OVHcloud subsidiaries whose VPS catalogue this adapter can read, by API host. */
export type OvhSubsidiary =
  | 'FR'
  | 'DE'
  | 'ES'
  | 'GB'
  | 'IE'
  | 'IT'
  | 'NL'
  | 'PL'
  | 'PT'
  | 'CZ'
  | 'FI'
  | 'LT'
  | 'MA'
  | 'SN'
  | 'TN'
  | 'EU'
  | 'US'
  | 'CA'
  | 'QC'
  | 'AU'
  | 'SG'
  | 'ASIA'
  | 'IN'
  | 'WE'
  | 'WS';

export interface OvhcloudCatalogueOptions {
  /** Whose price list to read; FR (EUR, the parent company's list) unless told otherwise. */
  subsidiary?: OvhSubsidiary;
}

const CATALOGUE_PATH = '/1.0/order/catalog/public/vps';

const US_HOST = 'https://api.us.ovhcloud.com';
const CA_HOST = 'https://ca.api.ovh.com';
const EU_HOST = 'https://eu.api.ovh.com';
// Each subsidiary is served by one of three API hosts; asking the wrong host answers 400.
const HOST_OF: Record<OvhSubsidiary, string> = {
  FR: EU_HOST,
  DE: EU_HOST,
  ES: EU_HOST,
  GB: EU_HOST,
  IE: EU_HOST,
  IT: EU_HOST,
  NL: EU_HOST,
  PL: EU_HOST,
  PT: EU_HOST,
  CZ: EU_HOST,
  FI: EU_HOST,
  LT: EU_HOST,
  MA: EU_HOST,
  SN: EU_HOST,
  TN: EU_HOST,
  EU: EU_HOST,
  US: US_HOST,
  CA: CA_HOST,
  QC: CA_HOST,
  AU: CA_HOST,
  SG: CA_HOST,
  ASIA: CA_HOST,
  IN: CA_HOST,
  WE: CA_HOST,
  WS: CA_HOST,
};

/** The dataset's lines, in providers.json order (the order plans are sorted in). */
const LINE_ORDER = ['vps', 'vps-local-zone'] as const;

/**
 * OVHcloud datacenter codes (the `vps_datacenter` values) to the dataset's cities for OVHcloud.
 * `DE` is OVHcloud's Limburg site, which the catalogue itself labels Frankfurt. Codes absent here
 * (Roubaix, Milan, Mumbai, the Local Zones) are places the dataset lists no city for.
 */
const CITY_OF: Record<string, string> = {
  GRA: 'Gravelines',
  SBG: 'Strasbourg',
  DE: 'Frankfurt',
  UK: 'London',
  WAW: 'Warsaw',
  BHS: 'Beauharnois',
  'US-EAST-VA': 'Vint Hill',
  'US-WEST-OR': 'Hillsboro',
  SGP: 'Singapore',
  SYD: 'Sydney',
};

// The VPS ranges the dataset covers: vps-<year>-model<n>, optionally a Local Zone (.LZ), optionally
// the US site's copy of a plan sold in Europe or Canada (-eu / -ca). Older ranges (s1-*, vps-value-*,
// vps-le-*, the *-degressivity promotions) and every add-on are other families.
const PLAN_CODE = /^vps-(\d{4})-model(\d+)(\.LZ)?(?:-(eu|ca))?$/;

/** The tag OVHcloud's own order funnel shows a plan by: a plan without it can no longer be ordered. */
const ON_SALE_TAG = 'order-funnel:show';

/** Catalogue prices are integers in 1e-8 of the currency unit. */
const PRICE_UNIT = 1e8;

/** Reads OVHcloud's public VPS catalogue for one subsidiary and maps the 2025+ VPS ranges. */
export class OvhcloudCatalogue implements CatalogueAdapter {
  readonly providerId = 'ovhcloud';
  readonly baseUrl: string;
  // The catalogue is public: no application key is needed to read it.
  readonly credentials: readonly string[] = [];
  readonly statesAvailability = true;
  readonly lines: readonly string[] = LINE_ORDER;
  readonly subsidiary: OvhSubsidiary;
  // The three steps read the same multi-megabyte document; one read per client is enough.
  private readonly reads = new WeakMap<CatalogueClient, Promise<VpsCatalogue>>();

  constructor(options: OvhcloudCatalogueOptions = {}) {
    this.subsidiary = options.subsidiary ?? 'FR';
    this.baseUrl = HOST_OF[this.subsidiary];
  }

  async regions(ctx: CatalogueContext): Promise<CatalogueRegion[]> {
    const catalogue = await this.catalogue(ctx);
    const ids = new Set<string>();
    for (const variant of inScopeVariants(catalogue)) for (const id of datacentersOf(variant.plan)) ids.add(id);
    const regions = [...ids].sort().map((id) => ({ id, city: CITY_OF[id] ?? null }));
    ctx.log(
      `ovhcloud: ${regions.length} datacenters in the ${this.subsidiary} VPS catalogue, ${regions.filter((r) => r.city).length} with a dataset city`,
    );
    return regions;
  }

  async plans(ctx: CatalogueContext, _regions: CatalogueRegion[]): Promise<CataloguePlan[]> {
    const catalogue = await this.catalogue(ctx);
    const variants = inScopeVariants(catalogue);
    if (variants.length === 0) {
      throw new CatalogueFormatError(
        `the ${this.subsidiary} VPS catalogue lists no plan of the vps-<year>-model<n> ranges among its ${catalogue.plans.length} plans`,
      );
    }
    const products = new Map(catalogue.products.map((product) => [product.name, product]));
    const byId = new Map<string, Variant[]>();
    for (const variant of variants) byId.set(variant.id, [...(byId.get(variant.id) ?? []), variant]);

    const plans = [...byId.values()].map((group) => mergeVariants(group, products, catalogue.currency));
    plans.sort(
      (a, b) =>
        LINE_ORDER.indexOf(a.line as (typeof LINE_ORDER)[number]) -
          LINE_ORDER.indexOf(b.line as (typeof LINE_ORDER)[number]) ||
        a.monthlyPrice - b.monthlyPrice ||
        a.id.localeCompare(b.id),
    );
    const onSale = plans.filter((plan) => !plan.deprecated).length;
    ctx.log(
      `ovhcloud: ${plans.length} VPS sizes mapped (${onSale} on sale, ${plans.length - onSale} withdrawn), ` +
        `${catalogue.plans.length - variants.length} plans of other ranges and options left out`,
    );
    return plans;
  }

  async addOns(ctx: CatalogueContext): Promise<CatalogueAddOns> {
    await this.catalogue(ctx);
    // Backups and snapshots are sold per model at a fixed price (not per GB nor a share of the plan
    // price), extra IPs are not in this catalogue and traffic is unmetered: nothing maps to the model.
    ctx.log('ovhcloud: add-ons are priced per VPS model in this catalogue; none maps to the dataset add-on fields');
    return {};
  }

  private catalogue(ctx: CatalogueContext): Promise<VpsCatalogue> {
    let read = this.reads.get(ctx.client);
    if (!read) {
      read = this.read(ctx);
      this.reads.set(ctx.client, read);
      // A failed read is not remembered: the next step asks again.
      read.catch(() => this.reads.delete(ctx.client));
    }
    return read;
  }

  private async read(ctx: CatalogueContext): Promise<VpsCatalogue> {
    const body = await ctx.client.getJson<unknown>(CATALOGUE_PATH, { query: { ovhSubsidiary: this.subsidiary } });
    const catalogue = parseCatalogue(body, this.subsidiary);
    ctx.log(
      `ovhcloud: ${this.subsidiary} VPS catalogue ${catalogue.catalogId ?? '(no id)'} read in 1 request: ` +
        `${catalogue.plans.length} plans, ${catalogue.products.length} products, prices in ${catalogue.currency}`,
    );
    return catalogue;
  }
}

interface RawPricing {
  capacities?: unknown;
  commitment?: unknown;
  interval?: unknown;
  intervalUnit?: unknown;
  mode?: unknown;
  price?: unknown;
}

interface RawPlan {
  planCode: string;
  invoiceName?: unknown;
  product?: unknown;
  pricings?: unknown;
  configurations?: unknown;
  blobs?: { tags?: unknown } | null;
}

interface RawProduct {
  name: string;
  blobs?: { technical?: RawTechnical } | null;
}

interface RawTechnical {
  cpu?: { type?: unknown; cores?: unknown };
  memory?: { size?: unknown };
  storage?: { disks?: unknown };
  bandwidth?: { level?: unknown; unlimited?: unknown };
}

interface VpsCatalogue {
  catalogId: number | null;
  currency: string;
  plans: RawPlan[];
  products: RawProduct[];
}

/** One catalogue plan of the managed ranges, with what its code says. */
interface Variant {
  plan: RawPlan;
  /** The plan code without the US site's -eu / -ca suffix: one size, whichever site sells it. */
  id: string;
  generation: number;
  model: number;
  localZone: boolean;
  /** The -eu / -ca copy of a plan on the US site, priced apart. */
  siteCopy: boolean;
}

function parseCatalogue(body: unknown, subsidiary: string): VpsCatalogue {
  const where = `the ${subsidiary} VPS catalogue`;
  if (!isObject(body)) throw new CatalogueFormatError(`${where} is not a JSON object`);
  if (!Array.isArray(body.plans))
    throw new CatalogueFormatError(`${where} has no plans list (keys: ${Object.keys(body).join(', ') || 'none'})`);
  if (body.plans.length === 0) throw new CatalogueFormatError(`${where} has an empty plans list`);
  if (!Array.isArray(body.products)) throw new CatalogueFormatError(`${where} has no products list`);
  const locale = body.locale;
  const currency = isObject(locale) && typeof locale.currencyCode === 'string' ? locale.currencyCode : null;
  if (!currency) throw new CatalogueFormatError(`${where} names no locale.currencyCode`);
  const plans = body.plans.map((plan, index) => {
    if (!isObject(plan) || typeof plan.planCode !== 'string')
      throw new CatalogueFormatError(`${where}: plans[${index}] has no planCode`);
    return plan as unknown as RawPlan;
  });
  const products = body.products.map((product, index) => {
    if (!isObject(product) || typeof product.name !== 'string')
      throw new CatalogueFormatError(`${where}: products[${index}] has no name`);
    return product as unknown as RawProduct;
  });
  return { catalogId: typeof body.catalogId === 'number' ? body.catalogId : null, currency, plans, products };
}

function inScopeVariants(catalogue: VpsCatalogue): Variant[] {
  const variants: Variant[] = [];
  for (const plan of catalogue.plans) {
    const match = PLAN_CODE.exec(plan.planCode);
    if (!match) continue;
    variants.push({
      plan,
      id: plan.planCode.replace(/-(eu|ca)$/, ''),
      generation: Number(match[1]),
      model: Number(match[2]),
      localZone: match[3] !== undefined,
      siteCopy: match[4] !== undefined,
    });
  }
  return variants;
}

/** One dataset size from the catalogue plans that sell it (the home-site plan, and on the US site its -eu / -ca copies). */
function mergeVariants(group: Variant[], products: Map<string, RawProduct>, currency: string): CataloguePlan {
  const headline = group.find((variant) => !variant.siteCopy) ?? group[0];
  const plan = headline.plan;
  const productName = plan.product;
  if (typeof productName !== 'string') throw new CatalogueFormatError(`plan ${plan.planCode} names no product`);
  const product = products.get(productName);
  if (!product)
    throw new CatalogueFormatError(
      `plan ${plan.planCode} names product ${productName}, which the catalogue's products list does not contain`,
    );
  const specs = specsOf(product, plan.planCode);
  const monthlyPrice = monthlyPriceOf(plan);

  const regions: string[] = [];
  const regionPrices: CatalogueRegionPrice[] = [];
  let onSale = false;
  for (const variant of [headline, ...group.filter((v) => v !== headline)]) {
    if (!isOnSale(variant.plan)) continue;
    onSale = true;
    const price = variant === headline ? monthlyPrice : monthlyPriceOf(variant.plan);
    for (const id of datacentersOf(variant.plan)) {
      if (regions.includes(id)) continue;
      regions.push(id);
      if (price !== monthlyPrice) regionPrices.push({ region: id, monthlyPrice: price, hourlyPrice: null });
    }
  }

  return {
    id: headline.id,
    name: nameOf(headline),
    line: headline.localZone ? 'vps-local-zone' : 'vps',
    ...specs,
    cpuType: 'shared',
    monthlyPrice,
    hourlyPrice: null,
    currency,
    billing: 'monthly',
    monthlyCapHours: null,
    regions: onSale ? regions : [],
    regionPrices: onSale ? regionPrices : [],
    deprecated: !onSale,
  };
}

/**
 * The dataset's name: the 2025 range keeps the names the dataset already uses for it (VPS-1 ... VPS-6,
 * though OVHcloud now invoices them as "VPS-n 2026"), so its price history continues; later ranges
 * and the Local Zones take OVHcloud's own invoice name ("VPS-1 2027", "VPS-1 LZ 2027").
 */
function nameOf(variant: Variant): string {
  if (variant.generation === 2025 && !variant.localZone) return `VPS-${variant.model}`;
  const invoiceName = variant.plan.invoiceName;
  if (typeof invoiceName === 'string' && invoiceName.trim() !== '') return invoiceName.trim();
  return `VPS-${variant.model}${variant.localZone ? ' LZ' : ''} ${variant.generation}`;
}

function specsOf(
  product: RawProduct,
  planCode: string,
): Pick<CataloguePlan, 'vcpus' | 'ramGb' | 'diskGb' | 'diskType' | 'transferTb' | 'transferText'> {
  const where = `product ${product.name} (plan ${planCode})`;
  const technical = product.blobs?.technical;
  if (!technical) throw new CatalogueFormatError(`${where} has no blobs.technical`);
  const vcpus = technical.cpu?.cores;
  if (!isPositiveNumber(vcpus)) throw new CatalogueFormatError(`${where} has no cpu.cores`);
  if (technical.cpu?.type !== 'vCore')
    throw new CatalogueFormatError(
      `${where} has cpu.type ${JSON.stringify(technical.cpu?.type)}, not the shared vCore this adapter knows`,
    );
  const ramGb = technical.memory?.size;
  if (!isPositiveNumber(ramGb)) throw new CatalogueFormatError(`${where} has no memory.size`);
  const disks = technical.storage?.disks;
  const disk = Array.isArray(disks) && isObject(disks[0]) ? disks[0] : null;
  if (!disk || !isPositiveNumber(disk.capacity))
    throw new CatalogueFormatError(`${where} has no storage.disks[0].capacity`);
  const bandwidth = technical.bandwidth;
  if (!bandwidth || bandwidth.unlimited !== true) {
    // Every VPS range so far is unmetered; a metered one would need a volume the catalogue does not give.
    throw new CatalogueFormatError(
      `${where} has bandwidth that is not marked unlimited, and the catalogue gives no transfer volume`,
    );
  }
  if (!isPositiveNumber(bandwidth.level))
    throw new CatalogueFormatError(`${where} has no bandwidth.level (the port speed in Mbit/s)`);
  return {
    vcpus,
    ramGb,
    diskGb: disk.capacity,
    diskType: diskTypeOf(disk, where),
    transferTb: null,
    transferText: `Unmetered (${portSpeed(bandwidth.level)})`,
  };
}

function diskTypeOf(disk: Record<string, unknown>, where: string): DiskType {
  if (disk.interface === 'NVMe') return 'NVMe';
  if (disk.technology === 'SSD') return 'SSD';
  if (disk.technology === 'HDD') return 'HDD';
  throw new CatalogueFormatError(
    `${where} has a disk of interface ${JSON.stringify(disk.interface)} and technology ${JSON.stringify(disk.technology)}, which this adapter cannot type`,
  );
}

/** Port speed the way the dataset writes it: 400 Mbit/s, 1 Gbit/s, 1.5 Gbit/s. */
function portSpeed(mbits: number): string {
  return mbits >= 1000 ? `${mbits / 1000} Gbit/s` : `${mbits} Mbit/s`;
}

/** The no-commitment monthly renewal price: what a month costs when ordered without a term. */
function monthlyPriceOf(plan: RawPlan): number {
  if (!Array.isArray(plan.pricings)) throw new CatalogueFormatError(`plan ${plan.planCode} has no pricings list`);
  const pricing = (plan.pricings as RawPricing[]).find(
    (p) =>
      isObject(p) &&
      Array.isArray(p.capacities) &&
      p.capacities.includes('renew') &&
      p.mode === 'default' &&
      p.commitment === 0 &&
      p.intervalUnit === 'month' &&
      isPositiveNumber(p.interval),
  );
  if (!pricing)
    throw new CatalogueFormatError(
      `plan ${plan.planCode} has no monthly renewal price without commitment (mode "default", commitment 0)`,
    );
  if (typeof pricing.price !== 'number' || !Number.isFinite(pricing.price) || pricing.price < 0) {
    throw new CatalogueFormatError(`plan ${plan.planCode} has a default monthly pricing without a numeric price`);
  }
  // Four decimals keep the catalogue's precision while dropping the float noise of the division.
  return Math.round((pricing.price / PRICE_UNIT / (pricing.interval as number)) * 1e4) / 1e4;
}

function datacentersOf(plan: RawPlan): string[] {
  const configurations = Array.isArray(plan.configurations) ? plan.configurations : [];
  const datacenter = configurations.find((c): c is { values?: unknown } => isObject(c) && c.name === 'vps_datacenter');
  if (!datacenter) return [];
  if (!Array.isArray(datacenter.values) || datacenter.values.some((value) => typeof value !== 'string')) {
    throw new CatalogueFormatError(
      `plan ${plan.planCode} has a vps_datacenter configuration whose values are not a list of codes`,
    );
  }
  return datacenter.values as string[];
}

function isOnSale(plan: RawPlan): boolean {
  const tags = plan.blobs?.tags;
  return Array.isArray(tags) && tags.includes(ON_SALE_TAG);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
