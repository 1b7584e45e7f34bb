import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { JsonDocument } from '../dataset/json-document.js';
import type { GuideList } from './dto/guide-list.dto.js';
import { buildGuideList } from './guide-documents.js';

/** Reads guides from the dataset; shared by HTTP and MCP. */
@Injectable()
export class GuidesService {
  private readonly listView: DatasetView<JsonDocument<GuideList>>;

  constructor(dataset: DatasetService, config: AppConfig) {
    this.listView = dataset.view((snapshot) => buildGuideList(snapshot, config));
  }

  /** The guide index, newest first. */
  list(): JsonDocument<GuideList> {
    return this.listView.get();
  }
}
