import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { GuidesService } from '../guides/guides.service.js';
import { PlansService } from '../plans/plans.service.js';
import { ProvidersService } from '../providers/providers.service.js';
import { UseCasesService } from '../use-cases/use-cases.service.js';
import { MetricsService } from '../observability/metrics.service.js';
import { registerGuideResources } from './resources/guide.resource.js';
import { registerProviderResources } from './resources/provider.resource.js';
import { SERVER_INFO, SERVER_INSTRUCTIONS } from './server-info.js';
import type { ToolDefinition, ToolServices } from './tool-definition.js';
import { TOOLS } from './tools/index.js';

/**
 * Builds the MCP server for one request. The tool definitions and schemas are module constants and the
 * data comes from services that precompute per dataset version, so building a server only wires
 * handlers: cheap enough to do for every POST (stateless transport).
 */
@Injectable()
export class McpServerFactory {
  private readonly services: ToolServices;
  /**
   * One JSON Schema validator for every server: the SDK builds a new Ajv per server otherwise, which
   * was an eighth of the CPU of an MCP call (profile).
   */
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    providers: ProvidersService,
    plans: PlansService,
    useCases: UseCasesService,
    guides: GuidesService,
    private readonly metrics: MetricsService,
  ) {
    this.services = { providers, plans, useCases, guides };
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
    // Stateless: there is no stream to send list-changed notifications on, so none are promised.
    server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
    return server;
  }
}
