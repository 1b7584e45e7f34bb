import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { ChangesService } from '../changes/changes.service.js';
import type { CostEstimator } from '../costs/cost-estimator.service.js';
import type { FiltersService } from '../filters/filters.service.js';
import type { EquivalentPlansService } from '../plans/equivalent-plans.service.js';
import type { GuidesService } from '../guides/guides.service.js';
import type { PlansService } from '../plans/plans.service.js';
import type { ProvidersService } from '../providers/providers.service.js';
import type { UseCasesService } from '../use-cases/use-cases.service.js';

/** The domain services tools call: the same ones the HTTP controllers use. */
export interface ToolServices {
  providers: ProvidersService;
  plans: PlansService;
  useCases: UseCasesService;
  guides: GuidesService;
  changes: ChangesService;
  costs: CostEstimator;
  equivalents: EquivalentPlansService;
  filters: FiltersService;
}

/** Every tool of this server only reads public data. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** One MCP tool: its contract for the model, and the handler that calls a service. */
export interface ToolDefinition<Input extends z.ZodRawShape = z.ZodRawShape, Output extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model: what it does, when to use it rather than another tool, its limits. */
  description: string;
  inputSchema: Input;
  outputSchema: Output;
  annotations: ToolAnnotations;
  handler: (args: z.infer<z.ZodObject<Input>>, services: ToolServices) => CallToolResult;
}

/** Declares a tool with its types checked. */
export const defineTool = <Input extends z.ZodRawShape, Output extends z.ZodObject>(
  tool: ToolDefinition<Input, Output>,
) => tool;
