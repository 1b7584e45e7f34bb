import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import { JsonDocument } from '../dataset/json-document.js';
import { RATE_LIMIT_HEADERS } from '../common/rate-limit/rate-limit-headers.js';
import { API_OPERATIONS } from './api-operations.js';
import type { ApiIndex } from './dto/api-index.dto.js';
import { MCP_PATH } from '../common/http/mcp-path.js';

export const API_NAME = 'vpsapi';

/** Builds the API's entry document from the operation list, the config and the dataset. */
@Injectable()
export class ApiIndexService {
  private readonly indexView: DatasetView<JsonDocument<ApiIndex>>;

  constructor(dataset: DatasetService, config: AppConfig) {
    this.indexView = dataset.view(
      (snapshot) =>
        new JsonDocument<ApiIndex>(
          {
            name: API_NAME,
            version: snapshot.version,
            description: snapshot.meta.description,
            documentation: config.url('/docs'),
            openapi: config.url('/openapi.json'),
            llmsTxt: config.url('/llms.txt'),
            changesFeed: config.url('/changes.atom'),
            authentication: 'none',
            rateLimit: {
              requests: config.rateLimit.requests,
              windowSeconds: config.rateLimit.windowSeconds,
              headers: Object.values(RATE_LIMIT_HEADERS),
            },
            license: snapshot.meta.license,
            endpoints: Object.values(API_OPERATIONS).map((op) => ({
              operationId: op.operationId,
              method: 'GET' as const,
              url: config.url(op.path),
              description: op.description,
            })),
            mcp: { endpoint: config.url(MCP_PATH), serverCard: config.url('/.well-known/mcp/server-card.json') },
          },
          snapshot.meta.lastUpdated,
        ),
    );
  }

  /** The index document. */
  index(): JsonDocument<ApiIndex> {
    return this.indexView.get();
  }
}
