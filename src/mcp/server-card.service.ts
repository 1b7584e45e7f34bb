import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { JsonDocument } from '../dataset/json-document.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import { MCP_PATH } from '../common/http/mcp-path.js';
import { PROTOCOL_VERSIONS, SERVER_DESCRIPTION, SERVER_INFO } from './server-info.js';
import { PROMPTS } from './prompts/index.js';
import { TOOLS } from './tools/index.js';
import { strictInput } from './tools/strict-input.js';

/** Discovery metadata: served at /.well-known/mcp/server-card.json and /mcp/server-card. */
@Injectable()
export class ServerCardService {
  private readonly card: DatasetView<JsonDocument<Record<string, unknown>>>;

  constructor(config: AppConfig, dataset: DatasetService) {
    // Input schemas are converted once, as tools/list converts them (zod's Standard JSON Schema, draft 2020-12).
    const tools = TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: {
        type: 'object',
        ...strictInput(tool.inputSchema)['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
      },
      annotations: tool.annotations,
    }));
    const prompts = PROMPTS.map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: Object.entries(prompt.argsSchema).map(([name, schema]) => ({
        name,
        description: schema.description,
        required: !schema.safeParse(undefined).success,
      })),
    }));
    this.card = dataset.view(
      (snapshot) =>
        new JsonDocument(
          {
            $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
            name: SERVER_INFO.name,
            title: SERVER_INFO.title,
            version: SERVER_INFO.version,
            description: SERVER_DESCRIPTION,
            websiteUrl: config.url('/'),
            documentationUrl: config.url('/docs'),
            dataVersion: snapshot.version,
            endpoints: [{ transport: 'streamable-http', url: config.url(MCP_PATH) }],
            protocolVersions: PROTOCOL_VERSIONS,
            authentication: { type: 'none' },
            capabilities: {
              tools: { listChanged: false },
              resources: { listChanged: false },
              prompts: { listChanged: false },
              completions: {},
            },
            tools,
            prompts,
            resourceTemplates: [
              {
                uriTemplate: 'guide://{slug}',
                name: 'guide',
                mimeType: 'text/markdown',
                description: 'A VPS guide or provider review.',
              },
              {
                uriTemplate: 'provider://{id}',
                name: 'provider',
                mimeType: 'application/json',
                description: 'A reviewed VPS provider.',
              },
            ],
          },
          snapshot.meta.lastUpdated,
          [],
          // Clients read the card when they configure a connection, not per call: an hour of caching.
          [['Cache-Control', 'public, max-age=3600']],
        ),
    );
  }

  document(): JsonDocument<Record<string, unknown>> {
    return this.card.get();
  }
}
