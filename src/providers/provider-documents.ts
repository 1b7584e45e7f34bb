import type { AppConfig } from '../config/app-config.js';
import { carriedDeprecations } from '../dataset/deprecations.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { Provider, ProviderRecord } from '../dataset/dto/provider.dto.js';
import { JsonDocument } from '../dataset/json-document.js';
import type { ProviderEnvelope } from './dto/provider-envelope.dto.js';
import type { ProviderList } from './dto/provider-list.dto.js';

export interface ProviderDocuments {
  list: JsonDocument<ProviderList>;
  byId: ReadonlyMap<string, JsonDocument<ProviderEnvelope>>;
  ids: readonly string[];
}

/** A provider as the API shows it: the record with its review page as an absolute URL. */
export function toProvider(record: ProviderRecord, config: AppConfig): Provider {
  return { ...record, url: config.url(record.url) };
}

/** Builds the list and one envelope per provider, serialized once for the snapshot. */
export function buildProviderDocuments(snapshot: DatasetSnapshot, config: AppConfig): ProviderDocuments {
  const { meta } = snapshot;
  const deprecationsOf = (providers: Provider[]) =>
    carriedDeprecations(meta.deprecations, { Provider: providers, Plan: providers.flatMap((p) => p.plans) });

  const providers = snapshot.providers.map((record) => toProvider(record, config));
  const list = new JsonDocument<ProviderList>(
    {
      version: meta.version,
      lastUpdated: meta.lastUpdated,
      source: meta.source,
      description: meta.description,
      license: meta.license,
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
      new JsonDocument<ProviderEnvelope>({ version: meta.version, provider }, meta.lastUpdated, deprecationsOf([provider])),
    ]),
  );
  return { list, byId, ids: providers.map((p) => p.id) };
}
