import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolServices } from '../tool-definition.js';
import { chooseAVpsPrompt } from './choose-a-vps.prompt.js';
import { PromptArgumentError } from './prompt-definition.js';

/** Every prompt, in the order prompts/list shows them. */
export const PROMPTS = [chooseAVpsPrompt] as const;

/** Registers every prompt; a stateless server promises no list-changed notifications. */
export function registerPrompts(server: McpServer, services: ToolServices): void {
  for (const prompt of PROMPTS) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: z.object(prompt.argsSchema) },
      (args) => {
        try {
          return prompt.build(args, services);
        } catch (error) {
          if (error instanceof PromptArgumentError)
            throw new ProtocolError(
              ProtocolErrorCode.InvalidParams,
              `Invalid arguments for prompt ${prompt.name}: ${error.argument}: ${error.message}`,
            );
          throw error;
        }
      },
    );
  }
  server.server.registerCapabilities({ prompts: { listChanged: false } });
}
