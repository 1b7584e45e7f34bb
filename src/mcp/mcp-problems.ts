import { HttpProblem } from '../common/errors/http-problem.js';

/**
 * The /mcp refusals this server makes itself (the SDK transport answers the others), answered as
 * JSON-RPC errors by the error filter like every other /mcp problem.
 */
export const mcpProblems = {
  unsupportedMediaType: () =>
    new HttpProblem(
      415,
      'bad_request',
      'Unsupported Media Type: Content-Type must be application/json.',
      'Send the JSON-RPC message as a JSON body with Content-Type: application/json.',
    ),
  batchTooLarge: (max: number) =>
    new HttpProblem(400, 'bad_request', `Invalid Request: a batch may hold at most ${max} messages.`, `Split the batch into batches of at most ${max}.`),
  batchRemoved: (version: string) =>
    new HttpProblem(
      400,
      'bad_request',
      `Invalid Request: protocol revision ${version} has no JSON-RPC batches.`,
      'Send one JSON-RPC message per POST (batches exist only in revision 2025-03-26, the default when no MCP-Protocol-Version header is sent).',
    ),
  nestedTooDeeply: (max: number) =>
    new HttpProblem(400, 'bad_request', `Invalid Request: the body nests more than ${max} levels deep.`, 'Send arguments as flat values, lists and small objects.'),
  duplicateIds: () =>
    new HttpProblem(400, 'bad_request', 'Invalid Request: two requests of the batch have the same id.', 'Give every request of a batch its own id.'),
};
