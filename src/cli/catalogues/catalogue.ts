/**
 * The one interface every provider catalogue adapter implements, and the plan model it maps a
 * catalogue to. An adapter knows one provider's API (its endpoints, pagination, field names and
 * units) and nothing of the dataset files; the refresher (`refresh/`) turns readings into the
 * dataset's plan records, compares them with the served dataset and gates what may be written.
 *
 * Like Spare Cores' crawler, every adapter has the same named steps (`regions`, `plans`, `addOns`):
 * a step a provider's catalogue does not have still exists and returns what it cannot know as empty.
 */
import type { CatalogueClient } from './catalogue-client.js';

/** How a price is paid, in the dataset's words (see PlanLine.priceBasis). */
export type CatalogueBilling = 'hourly-capped' | 'per-second-capped' | 'monthly' | 'prepaid-term';

export type DiskType = 'NVMe' | 'SSD' | 'HDD';

/** A location as the provider's catalogue names it, with the dataset's city for it. */
export interface CatalogueRegion {
  /** The provider's id of the location (`fsn1`, `ewr`, `us-east`, `GRA`). */
  id: string;
  /** The dataset's city for it: one of the provider's `datacenters[].city` in providers.json, or null when the dataset has none. */
  city: string | null;
}

/** The price of a plan in one location where it differs from the plan's headline `monthlyPrice`. */
export interface CatalogueRegionPrice {
  /** Provider location id. */
  region: string;
  monthlyPrice: number;
  hourlyPrice: number | null;
}

/** One size of a provider's catalogue, mapped to the dataset's plan model. */
export interface CataloguePlan {
  /** The provider's own id of the size (`cx23`, `vc2-1c-1gb`, `g6-nanode-1`, `s-1vcpu-1gb`). */
  id: string;
  /** The name the dataset lists it under (the provider's sales name, e.g. `CX23`, `Basic 1 GB`). */
  name: string;
  /** The dataset plan line (providers.json `planLines[].id`) it belongs to. */
  line: string;
  vcpus: number;
  /** Memory in GB (0.5 for 512 MB). */
  ramGb: number;
  diskGb: number;
  diskType: DiskType;
  /**
   * Included monthly transfer in TB as the provider states it (Vultr's 1024 GB and Hetzner's 20 TiB are
   * each sold as "1 TB" and "20 TB"); null when the catalogue says it is not metered.
   */
  transferTb: number | null;
  /** The allowance in words when it is not a volume ("Unmetered (fair use)", "Unmetered (1 Gbit/s)"); absent when `transferTb` says it. */
  transferText?: string;
  cpuType: 'shared' | 'dedicated';
  /** Headline monthly price excluding tax, in `currency`: the monthly cap for hourly billing. */
  monthlyPrice: number;
  /** Hourly price where the catalogue gives one. */
  hourlyPrice: number | null;
  currency: string;
  billing: CatalogueBilling;
  /** For hourly or per-second billing: the hours in a month after which billing stops (672 at UpCloud, 730 at Linode), when the catalogue or its docs say; null when not stated. */
  monthlyCapHours: number | null;
  /** Locations (provider ids) where the size can be ordered now. Empty when it can be ordered nowhere. */
  regions: string[];
  /** Locations whose price differs from `monthlyPrice`. */
  regionPrices: CatalogueRegionPrice[];
  /** True when the provider marks the size deprecated, discontinued or no longer orderable. */
  deprecated: boolean;
  /** The provider's id of the size that replaces it, when the catalogue names one. */
  successor?: string;
  /** For an introductory price: what the same term costs per month when it renews; absent when the catalogue does not say. */
  renewalMonthlyPrice?: number;
  /** For a prepaid term: the monthly rate with no commitment; null when the catalogue has none, absent when it does not say. */
  monthToMonthPrice?: number | null;
}

/** Add-on prices, where the provider's catalogue has them; absent fields mean the catalogue does not say. */
export interface CatalogueAddOns {
  /** Monthly price of one IPv4 address, in the catalogue's currency. */
  ipv4PerMonth?: number;
  /** Automated backups as a percentage of the plan price (20 = a fifth). */
  backupsPercentOfPlanPrice?: number;
  /** Price of traffic beyond the included allowance, per unit, as the provider states it. */
  trafficOverage?: { price: number; unit: 'GB' | 'GiB' | 'TB' };
  /** Snapshot storage per GB and month. */
  snapshotPerGbMonth?: number;
}

/** Everything one read of a provider's catalogue gave. */
export interface CatalogueReading {
  providerId: string;
  currency: string;
  regions: CatalogueRegion[];
  plans: CataloguePlan[];
  addOns: CatalogueAddOns;
  /** The endpoints the reading called, as absolute URLs on the provider's host (what `source.copyOf` names for a recorded copy). */
  endpoints: string[];
}

/** What an adapter is given for one read. */
export interface CatalogueContext {
  /** The HTTP client, pointed at the provider's host or at a replay of recorded answers. */
  client: CatalogueClient;
  /** Credentials from the environment, by variable name (only the ones the adapter declares). */
  credentials: Record<string, string>;
  /** Writes one progress line. */
  log: (line: string) => void;
}

export { CatalogueFormatError } from './catalogue-format-error.js';

/** One provider's catalogue. */
export interface CatalogueAdapter {
  /** The dataset provider id (`hetzner`). */
  readonly providerId: string;
  /** The API host the adapter calls by default (`https://api.hetzner.cloud`). */
  readonly baseUrl: string;
  /** Environment variables that must all be set for a read; [] when the catalogue is public. */
  readonly credentials: readonly string[];
  /** The dataset plan lines this adapter writes; other lines of the provider stay editorial. */
  readonly lines: readonly string[];
  /**
   * True when the catalogue says which sizes can be ordered (a deprecation, per-location availability,
   * an order-funnel tag, open and closed regions): the refresher then writes each size's `availability`,
   * and keeps a listed size that cannot be ordered, flagged. Absent or false: availability stays unknown.
   */
  readonly statesAvailability?: boolean;
  /** Step 1: the locations, with the dataset's city for each. */
  regions(ctx: CatalogueContext): Promise<CatalogueRegion[]>;
  /** Step 2: every size of the managed lines, priced, with where it is sold. */
  plans(ctx: CatalogueContext, regions: CatalogueRegion[]): Promise<CataloguePlan[]>;
  /** Step 3: add-on prices the catalogue has (IPv4, backups, traffic overage); {} when it has none. */
  addOns(ctx: CatalogueContext): Promise<CatalogueAddOns>;
}
