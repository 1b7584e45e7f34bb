import type { AppConfig } from '../config/app-config.js';
import { carriedDeprecations } from '../dataset/deprecations.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { BILLING_CYCLE, type ProviderRecord } from '../dataset/dto/provider.dto.js';
import { featureList } from '../dataset/features.js';
import { pricedPlans } from '../dataset/plan-pricing.js';
import { JsonDocument } from '../dataset/json-document.js';
import { freshnessText, STALE_AFTER_DAYS } from '../dataset/price-age.js';
import { priceAgeSummary } from '../plans/price-age-summary.js';
import type { ProviderEnvelope } from './dto/provider-envelope.dto.js';
import type { ProviderList } from './dto/provider-list.dto.js';
import type { ServedProvider as Provider } from './dto/served-provider.dto.js';

export const PROVIDER_SORTS = ['rating', 'price', 'name'] as const;
export type ProviderSort = (typeof PROVIDER_SORTS)[number];

/** A provider with the figures agents compare on, and its plan matrix. */
export interface ProviderSummary extends Pick<
  Provider,
  | 'id'
  | 'name'
  | 'rating'
  | 'startingPrice'
  | 'currency'
  | 'monthToMonthStartingPrice'
  | 'locations'
  | 'datacenters'
  | 'bestFor'
  | 'url'
  | 'plans'
  | 'priceAge'
> {
  /** `startingPrice` converted to USD with the dataset's exchange rates. */
  startingPriceUsd: number;
  /** `monthToMonthStartingPrice` in USD; the "price" order sorts on it, providers without one last. */
  monthToMonthStartingPriceUsd: number | null;
  /** The advertised uptime SLA as the data states it ("99.9%", "no published SLA" or "unknown"). */
  uptime: string;
  /** The plan lines whose advertised SLA differs from `uptime`; empty when none does. */
  lineUptimes: { line: string; uptime: string }[];
  /** Support channels and hours, in words, as the data states them. */
  support: string;
  supportChannels: Provider['supportChannels'];
}

export interface ProviderDocuments {
  list: JsonDocument<ProviderList>;
  byId: ReadonlyMap<string, JsonDocument<ProviderEnvelope>>;
  ids: readonly string[];
  /** Summaries in each supported order. */
  summaries: Readonly<Record<ProviderSort, readonly ProviderSummary[]>>;
  /** How fresh every plan price is, in words, on the day the documents were built for (`freshnessText`). */
  freshness: string;
}

/** Path of a provider's canonical API record. */
export const providerApiPath = (id: string) => `/api/providers/${id}.json`;

/** A provider as the API serves it: the record with the contract's fields derived from it, absolute URLs, and how old its prices are. */
export function toProvider(record: ProviderRecord, config: AppConfig, day: string): Provider {
  const { url: path, ...fields } = record;
  const plans = pricedPlans(record, day);
  // Like startingPrice (the validator's rule), the entry price is one a customer can still buy.
  const monthToMonth = plans
    .filter((plan) => !plan.discontinued)
    .map((plan) => plan.monthToMonthPrice)
    .filter((price) => price !== null);
  return {
    ...fields,
    billingCycle: BILLING_CYCLE,
    locations: fields.datacenters.length,
    features: featureList(fields.featureDetails),
    plans,
    monthToMonthStartingPrice: monthToMonth.length > 0 ? Math.min(...monthToMonth) : null,
    planListComplete: fields.planLines.every((line) => line.complete),
    priceAge: priceAgeSummary(plans),
    url: config.url(path),
    self: config.url(providerApiPath(record.id)),
  };
}

/** Builds the list and one envelope per provider, serialized once for the snapshot. */
export function buildProviderDocuments(snapshot: DatasetSnapshot, config: AppConfig): ProviderDocuments {
  const { meta } = snapshot;
  const deprecationsOf = (providers: Provider[]) =>
    carriedDeprecations(meta.deprecations, { Provider: providers, Plan: providers.flatMap((p) => p.plans) });

  const providers = snapshot.providers.map((record) => toProvider(record, config, snapshot.asOf));
  const list = new JsonDocument<ProviderList>(
    {
      version: meta.version,
      lastUpdated: meta.lastUpdated,
      source: meta.source,
      description: meta.description,
      license: meta.license,
      staleAfterDays: STALE_AFTER_DAYS,
      priceAge: priceAgeSummary(providers.flatMap((p) => p.plans)),
      count: providers.length,
      recommendations: snapshot.recommendations,
      providers,
    },
    meta.lastUpdated,
    deprecationsOf(providers),
  );
  const byId = new Map(
    providers.map((provider) => [
      provider.id,
      new JsonDocument<ProviderEnvelope>(
        { version: meta.version, provider },
        meta.lastUpdated,
        deprecationsOf([provider]),
      ),
    ]),
  );
  const summaries: ProviderSummary[] = providers.map((p) => ({
    id: p.id,
    name: p.name,
    rating: p.rating,
    startingPrice: p.startingPrice,
    currency: p.currency,
    startingPriceUsd: snapshot.exchangeRates.convert(p.startingPrice, p.currency, 'USD'),
    monthToMonthStartingPrice: p.monthToMonthStartingPrice,
    monthToMonthStartingPriceUsd:
      p.monthToMonthStartingPrice === null
        ? null
        : snapshot.exchangeRates.convert(p.monthToMonthStartingPrice, p.currency, 'USD'),
    priceAge: p.priceAge,
    uptime: p.uptime,
    lineUptimes: p.planLines
      .filter((line) => line.uptime !== undefined && line.uptime !== p.uptime)
      .map((line) => ({ line: line.id, uptime: line.uptime! })),
    support: p.support,
    supportChannels: p.supportChannels,
    locations: p.locations,
    datacenters: p.datacenters,
    bestFor: p.bestFor,
    url: p.url,
    plans: p.plans,
  }));
  const sorted = (compare: (a: ProviderSummary, b: ProviderSummary) => number) => [...summaries].sort(compare);
  const allPlans = providers.flatMap((p) => p.plans);
  return {
    list,
    byId,
    freshness: freshnessText(priceAgeSummary(allPlans), allPlans.length, snapshot.asOf),
    ids: providers.map((p) => p.id),
    summaries: {
      rating: sorted((a, b) => b.rating - a.rating || a.name.localeCompare(b.name)),
      price: sorted(
        (a, b) =>
          compareNullsLast(a.monthToMonthStartingPriceUsd, b.monthToMonthStartingPriceUsd) ||
          a.startingPriceUsd - b.startingPriceUsd ||
          a.id.localeCompare(b.id),
      ),
      name: sorted((a, b) => a.name.localeCompare(b.name)),
    },
  };
}

/** Ascending, with null (no such price) after every number. */
function compareNullsLast(a: number | null, b: number | null): number {
  if (a === null || b === null) return (a === null ? 1 : 0) - (b === null ? 1 : 0);
  return a - b;
}
