import { Injectable } from '@nestjs/common';
import { fromJsonSchema, McpServer, type JsonSchemaType } from '@modelcontextprotocol/server';
import { isJSONRPCRequest, type CallToolResult, type Resource, type Transport } from '@modelcontextprotocol/server';
import { DatasetService } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { GuidesService } from '../guides/guides.service.js';
import { LazyJsonSchemaValidator } from './lazy-schema-validator.js';
import { PlansService } from '../plans/plans.service.js';
import { ChangesService } from '../changes/changes.service.js';
import { CostEstimator } from '../costs/cost-estimator.service.js';
import { FiltersService } from '../filters/filters.service.js';
import { EquivalentPlansService } from '../plans/equivalent-plans.service.js';
import { ProvidersService } from '../providers/providers.service.js';
import { UseCasesService } from '../use-cases/use-cases.service.js';
import { MetricsService } from '../observability/metrics.service.js';
import { registerPrompts } from './prompts/index.js';
import { guideResources, registerGuideResources } from './resources/guide.resource.js';
import { providerResources, registerProviderResources } from './resources/provider.resource.js';
import { paginateResourceList } from './resources/resource-pages.js';
import { portableOutputSchema } from './portable-schema.js';
import { LIST_CACHE_HINT, SERVER_INFO, SERVER_INSTRUCTIONS } from './server-info.js';
import type { ToolDefinition, ToolServices } from './tool-definition.js';
import { TOOLS } from './tools/index.js';
import { strictInput } from './tools/strict-input.js';

/** The results the 2026-07-28 revision lets a client cache (the SDK fills their `ttlMs` and `cacheScope`). */
const CACHEABLE = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'server/discover',
] as const;

/**
 * Builds the MCP server for one POST (the SDK's stateless pattern: a fresh server per request, in
 * both eras). What does not change between requests is built once here: the tools' input and output
 * schemas, the JSON Schema validator, the resource list per dataset version; the data comes from
 * services that precompute per dataset version. A server holds no state of its own between requests.
 */
@Injectable()
export class McpServerFactory {
  private readonly services: ToolServices;
  /**
   * One JSON Schema validator for every server: the SDK builds a new Ajv per server otherwise, which
   * was an eighth of the CPU of an MCP call (profile). Each schema is compiled on its first use.
   */
  private readonly validator = new LazyJsonSchemaValidator(new AjvJsonSchemaValidator());
  /** Each tool's output schema as published (no `type` arrays, see portable-schema.ts), converted once. */
  private readonly outputSchemas = new Map(
    TOOLS.map((tool) => [
      tool.name,
      fromJsonSchema(portableOutputSchema(tool.outputSchema) as JsonSchemaType, this.validator),
    ]),
  );
  /** Each tool's input schema, refusing unknown arguments (see strict-input.ts), built once. */
  private readonly inputSchemas = new Map(TOOLS.map((tool) => [tool.name, strictInput(tool.inputSchema)]));
  /**
   * Every resource resources/list pages through (guides, then providers), per snapshot; held weakly,
   * so a replaced dataset is not kept alive by its list.
   */
  private readonly resources = new WeakMap<DatasetSnapshot, readonly Resource[]>();

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
      // 2026-07-28: the lists, resources and discovery are public and change only with a release.
      cacheHints: Object.fromEntries(CACHEABLE.map((method) => [method, LIST_CACHE_HINT])),
    });
    for (const tool of TOOLS as readonly ToolDefinition[]) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: this.inputSchemas.get(tool.name),
          outputSchema: this.outputSchemas.get(tool.name),
          annotations: tool.annotations,
        },
        (args: unknown) => {
          try {
            const result = tool.handler(args as never, this.services);
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
    paginateResourceList(server, () => this.resourceList());
    registerPrompts(server, this.services);
    // Stateless: there is no stream to send list-changed notifications on, so none are promised.
    server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
    return server;
  }

  /**
   * Makes a connected transport answer a tools/call whose arguments name `__proto__` itself, with the
   * tool's refusal of an unknown argument, as the SDK words it for any other. The SDK copies a call's
   * arguments into a fresh object before the tool's schema reads them, and there a key "__proto__" sets
   * the copy's prototype instead of becoming a key: the tool would take the call as if it had no such
   * argument. The tool's own strict schema, given the arguments as parsed, names it.
   */
  refusePrototypeArguments(transport: Transport): void {
    const deliver = transport.onmessage;
    if (!deliver) throw new Error('refusePrototypeArguments needs a transport connected to a server');
    transport.onmessage = (message, extra) => {
      const refusal = isJSONRPCRequest(message) ? this.prototypeRefusal(message.method, message.params) : undefined;
      if (refusal && isJSONRPCRequest(message))
        void transport.send({ jsonrpc: '2.0', id: message.id, result: refusal }).catch(() => undefined);
      else deliver(message, extra);
    };
  }

  private prototypeRefusal(method: string, params: unknown): CallToolResult | undefined {
    if (method !== 'tools/call' || typeof params !== 'object' || params === null) return undefined;
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof args !== 'object' || args === null || !Object.hasOwn(args, '__proto__')) return undefined;
    const parsed = typeof name === 'string' ? this.inputSchemas.get(name)?.safeParse(args) : undefined;
    if (!parsed || parsed.success) return undefined;
    const text = `Input validation error: Invalid arguments for tool ${name}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`;
    return { content: [{ type: 'text', text }], isError: true };
  }

  /** Every resource of the dataset version being served, built once per version (the services read that version). */
  private resourceList(): { version: string; resources: readonly Resource[] } {
    const snapshot = this.dataset.current;
    let resources = this.resources.get(snapshot);
    if (!resources) {
      resources = [...guideResources(this.services), ...providerResources(this.services)];
      this.resources.set(snapshot, resources);
    }
    return { version: snapshot.version, resources };
  }
}
