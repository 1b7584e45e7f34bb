import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DatasetService } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { GuidesService } from '../guides/guides.service.js';
import { PlansService } from '../plans/plans.service.js';
import { ChangesService } from '../changes/changes.service.js';
import { CostEstimator } from '../costs/cost-estimator.service.js';
import { FiltersService } from '../filters/filters.service.js';
import { EquivalentPlansService } from '../plans/equivalent-plans.service.js';
import { ProvidersService } from '../providers/providers.service.js';
import { UseCasesService } from '../use-cases/use-cases.service.js';
import { MetricsService } from '../observability/metrics.service.js';
import { registerPrompts } from './prompts/index.js';
import { registerGuideResources } from './resources/guide.resource.js';
import { registerProviderResources } from './resources/provider.resource.js';
import { SERVER_INFO, SERVER_INSTRUCTIONS } from './server-info.js';
import type { ToolDefinition, ToolServices } from './tool-definition.js';
import { TOOLS } from './tools/index.js';

/** Results remembered per dataset version; past this many distinct calls the memo starts over. */
const MEMO_ENTRIES = 512;

/**
 * Builds the MCP server (one per process, see McpDispatcher). The tool definitions and schemas are
 * module constants and the data comes from services that precompute per dataset version. Every tool
 * is read-only and its result depends only on its arguments and the dataset version, so results are
 * memoized per version: a repeated call does no tool work and no serialization of its text content.
 */
@Injectable()
export class McpServerFactory {
  private readonly services: ToolServices;
  /**
   * One JSON Schema validator for every server: the SDK builds a new Ajv per server otherwise, which
   * was an eighth of the CPU of an MCP call (profile).
   */
  private readonly validator = new AjvJsonSchemaValidator();
  private memo = new Map<string, CallToolResult>();
  private memoOf?: DatasetSnapshot;

  constructor(
    providers: ProvidersService,
    plans: PlansService,
    useCases: UseCasesService,
    guides: GuidesService,
    changes: ChangesService,
    costs: CostEstimator,
    equivalents: EquivalentPlansService,
    filters: FiltersService,
    private readonly metrics: MetricsService,
    private readonly dataset: DatasetService,
  ) {
    this.services = { providers, plans, useCases, guides, changes, costs, equivalents, filters };
  }

  create(): McpServer {
    const server = new McpServer(SERVER_INFO, {
      instructions: SERVER_INSTRUCTIONS,
      capabilities: { completions: {} },
      jsonSchemaValidator: this.validator,
    });
    for (const tool of TOOLS as readonly ToolDefinition[]) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: tool.inputSchema,
          outputSchema: tool.outputSchema,
          annotations: tool.annotations,
        },
        (args) => {
          try {
            const result = this.memoized(tool, args);
            this.metrics.toolCall(tool.name, result.isError ? 'error' : 'ok');
            return result;
          } catch (error) {
            this.metrics.toolCall(tool.name, 'exception');
            throw error;
          }
        },
      );
    }
    registerGuideResources(server, this.services);
    registerProviderResources(server, this.services);
    registerPrompts(server, this.services);
    // Stateless: there is no stream to send list-changed notifications on, so none are promised.
    server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
    return server;
  }

  /** The tool's result for these (validated) arguments on the dataset version being served. */
  private memoized(tool: ToolDefinition, args: unknown): CallToolResult {
    const snapshot = this.dataset.current;
    if (this.memoOf !== snapshot || this.memo.size >= MEMO_ENTRIES) {
      this.memo = new Map();
      this.memoOf = snapshot;
    }
    const key = `${tool.name} ${JSON.stringify(args)}`;
    let result = this.memo.get(key);
    if (!result) {
      result = tool.handler(args as never, this.services);
      // Keys are capped by the argument limits of each tool; a very long one is not worth keeping.
      if (key.length <= 2048) this.memo.set(key, result);
    }
    return result;
  }
}
