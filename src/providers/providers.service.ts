import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { NotFoundError } from '../common/errors/domain-errors.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { JsonDocument } from '../dataset/json-document.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { ProviderEnvelope } from './dto/provider-envelope.dto.js';
import type { ProviderList } from './dto/provider-list.dto.js';
import {
  buildProviderDocuments,
  type ProviderDocuments,
  type ProviderSort,
  type ProviderSummary,
} from './provider-documents.js';

/** Reads providers from the dataset; shared by the HTTP controller and the MCP tools. */
@Injectable()
export class ProvidersService {
  private readonly documents: DatasetView<ProviderDocuments>;

  constructor(dataset: DatasetService, config: AppConfig) {
    this.documents = dataset.view((snapshot) => buildProviderDocuments(snapshot, config));
  }

  /** The serialized provider documents of a given snapshot (for views built before it is served). */
  documentsFor(snapshot: DatasetSnapshot): ProviderDocuments {
    return this.documents.for(snapshot);
  }

  /** Every provider with the editorial recommendations. */
  list(): JsonDocument<ProviderList> {
    return this.documents.get().list;
  }

  /** How fresh every plan price is today, in words: oldest and newest price date and how many are stale. */
  freshness(): string {
    return this.documents.get().freshness;
  }

  /** One provider by id; throws NotFoundError listing the valid ids. */
  get(id: string): JsonDocument<ProviderEnvelope> {
    const documents = this.documents.get();
    const document = documents.byId.get(id);
    if (!document) throw new NotFoundError('provider', id, documents.ids);
    return document;
  }

  /** Every provider's summary and plans, in the given order (rating and name descending/ascending as a reader expects). */
  summaries(sortBy: ProviderSort = 'rating'): readonly ProviderSummary[] {
    return this.documents.get().summaries[sortBy];
  }

  /** The valid provider ids, in dataset order. */
  ids(): readonly string[] {
    return this.documents.get().ids;
  }
}
