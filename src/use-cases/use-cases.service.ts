import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { carriedDeprecations } from '../dataset/deprecations.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { UseCase } from '../dataset/dto/use-case.dto.js';
import { JsonDocument } from '../dataset/json-document.js';
import type { UseCaseList } from './dto/use-case-list.dto.js';

/** Reads workload use cases from the dataset; shared by HTTP and MCP. */
@Injectable()
export class UseCasesService {
  private readonly listView: DatasetView<JsonDocument<UseCaseList>>;

  constructor(dataset: DatasetService, config: AppConfig) {
    this.listView = dataset.view((snapshot) => {
      const useCases: UseCase[] = snapshot.useCases.map((u) => ({ ...u, url: config.url(u.url) }));
      return new JsonDocument<UseCaseList>(
        { version: snapshot.version, count: useCases.length, useCases },
        snapshot.meta.lastUpdated,
        carriedDeprecations(snapshot.meta.deprecations, { UseCase: useCases }),
      );
    });
  }

  /** Every use case, in dataset order. */
  list(): JsonDocument<UseCaseList> {
    return this.listView.get();
  }
}
