import type { GetPromptResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { ToolServices } from '../tool-definition.js';

/** One MCP prompt: its arguments (strings, as prompts require), and the messages it builds from them. */
export interface PromptDefinition<Args extends Record<string, z.ZodType<string | undefined>>> {
  name: string;
  title: string;
  description: string;
  argsSchema: Args;
  /** Throws PromptArgumentError for an argument the dataset cannot use. */
  build: (args: z.infer<z.ZodObject<Args>>, services: ToolServices) => GetPromptResult;
}

/** An argument that passed its schema but that the dataset cannot use (e.g. a currency with no rate). */
export class PromptArgumentError extends Error {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(message);
  }
}
