import { Injectable, type INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { JsonDocument } from '../dataset/json-document.js';
import { API_NAME } from '../api-index/api-index.service.js';
import { ERROR_CODES } from '../common/errors/error-codes.js';
import { ApiTag } from '../common/http/api-tags.js';
import { CACHE_CONTROL } from '../common/http/cache-policy.js';
import metadata from '../metadata.js';
import { applyDatasetVocabularies } from './dataset-vocabularies.js';
import { addHeadOperations, declareIfNoneMatch, IF_NONE_MATCH, IF_NONE_MATCH_PARAMETER } from './head-operations.js';
import { toOpenApi31 } from './openapi-31.js';
import { HEADERS_BY_STATUS, headerComponents } from './response-headers.js';

const TAG_DESCRIPTIONS: Record<ApiTag, string> = {
  [ApiTag.Index]: 'Where everything is.',
  [ApiTag.Providers]: 'The eight reviewed VPS providers and their plans.',
  [ApiTag.Plans]: 'Every plan of every provider as one flat table, to download whole.',
  [ApiTag.Guides]: 'The guide library: reviews, comparisons, workload guides and tutorials.',
  [ApiTag.UseCases]: 'Workloads with sizing and provider picks.',
  [ApiTag.Changes]: 'What changed in each dataset release (also an Atom feed at `/changes.atom`).',
};

/**
 * Generates the OpenAPI 3.1 contract from the controllers and DTOs (the @nestjs/swagger plugin's
 * metadata in `src/metadata.ts`), completes it with the headers, the error responses, `If-None-Match`,
 * the HEAD form of every operation and the dataset's vocabularies, and keeps it serialized per dataset
 * version.
 */
@Injectable()
export class OpenApiService {
  private view?: DatasetView<JsonDocument<Record<string, unknown>>>;

  constructor(
    private readonly config: AppConfig,
    private readonly dataset: DatasetService,
  ) {}

  /**
   * Registers the contract as a dataset view; call before `app.init()`. The application is scanned
   * once, when the first version's contract is built (at start, or on first use with
   * PRECOMPUTE_VIEWS=false).
   */
  async initialize(app: INestApplication): Promise<void> {
    await SwaggerModule.loadPluginMetadata(metadata);
    let generated: OpenAPIObject | undefined;
    this.view = this.dataset.view((snapshot) => {
      generated ??= SwaggerModule.createDocument(app, new DocumentBuilder().build());
      return new JsonDocument(this.complete(structuredClone(generated), snapshot), snapshot.meta.lastUpdated);
    });
  }

  /** The contract, serialized. */
  document(): JsonDocument<Record<string, unknown>> {
    if (!this.view) throw new Error('OpenApiService.initialize() was not called');
    return this.view.get();
  }

  private complete(doc: OpenAPIObject, snapshot: DatasetSnapshot): Record<string, unknown> {
    const { requests, windowSeconds } = this.config.rateLimit;
    doc.info = {
      title: `${API_NAME}: VPS provider comparison API`,
      version: snapshot.version,
      summary: 'Read-only JSON API comparing eight VPS hosting providers.',
      description: [
        snapshot.meta.description,
        '',
        '## Use',
        '- Every operation is `GET`, each with its `HEAD` form (operationId ending in `Head`: the same status and headers, no body); none needs authentication or takes query parameters.',
        `- Documents are cached for five minutes (\`Cache-Control: ${CACHE_CONTROL}\`). Revalidate with \`If-None-Match\` and the \`ETag\`: a current copy answers \`304\` with no body.`,
        `- Each client may send ${requests} requests per ${windowSeconds} seconds. Every response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and \`RateLimit-Policy\`; \`429\` and \`503\` carry \`Retry-After\`.`,
        '- Changes are additive. A field being withdrawn is announced with `Deprecation`, `Sunset` and `Link` headers at least 180 days ahead.',
        '- Any origin may call the API from a browser (`Access-Control-Allow-Origin: *`).',
        '',
        '## Errors',
        'Every error under `/api/` is `{"error": {"code", "message", "status", "resolution", "documentation"}}`.',
        `Codes: ${ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.`,
        '',
        `Data: ${snapshot.meta.license.credit}.`,
      ].join('\n'),
      license: { name: snapshot.meta.license.name, url: snapshot.meta.license.url },
      contact: { name: snapshot.meta.source, url: this.config.url('/') },
    } as OpenAPIObject['info'];
    doc.servers = [{ url: this.config.publicBaseUrl }];
    // No operation needs credentials; saying so explicitly is what lint rules and generators look for.
    doc.security = [];
    doc.tags = Object.values(ApiTag).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] }));
    doc.externalDocs = { description: 'llms.txt overview', url: this.config.url('/llms.txt') };

    const headers = headerComponents(this.config);
    doc.components = { ...doc.components, headers, parameters: { [IF_NONE_MATCH]: IF_NONE_MATCH_PARAMETER } };
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
        const responses = op.responses as Record<string, Record<string, unknown>>;
        responses['500'] ??= {
          description: 'Unexpected error; the body and `X-Request-Id` identify it.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        };
        for (const [status, response] of Object.entries(responses)) {
          const documented = HEADERS_BY_STATUS[status];
          if (!documented) throw new Error(`OpenAPI: no headers are listed for status ${status} (response-headers.ts)`);
          const names = [...documented];
          // A download that is not JSON is offered under a file name.
          if (status === '200' && !hasJsonContent(response)) names.push('Content-Disposition');
          response.headers = Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
        }
      }
    }
    const paths = doc.paths as unknown as Record<string, unknown>;
    applyDatasetVocabularies(doc as unknown as Record<string, unknown>, snapshot);
    declareIfNoneMatch(paths);
    addHeadOperations(paths);
    return toOpenApi31(doc as unknown as Record<string, unknown>);
  }
}

/** True when a response documents a JSON body. */
function hasJsonContent(response: Record<string, unknown>): boolean {
  const content = response.content as Record<string, unknown> | undefined;
  return content === undefined || 'application/json' in content;
}
