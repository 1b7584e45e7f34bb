import { HttpProblem } from '../common/errors/http-problem.js';
import { JSON_RPC } from '../common/http/json-rpc-error.js';

/**
 * Refusals of the Streamable HTTP transport (MCP 2025-06-18, "Sending messages to the server"),
 * answered as JSON-RPC errors by the error filter like every other /mcp problem.
 */
export const mcpProblems = {
  notAcceptable: () =>
    new HttpProblem(
      406,
      'not_acceptable',
      'Not Acceptable: the client must accept both application/json and text/event-stream.',
      'Send Accept: application/json, text/event-stream (the MCP SDK clients do).',
    ),
  unsupportedMediaType: () =>
    new HttpProblem(
      415,
      'bad_request',
      'Unsupported Media Type: Content-Type must be application/json.',
      'Send the JSON-RPC message as a JSON body with Content-Type: application/json.',
    ),
  invalidMessage: () =>
    new HttpProblem(
      400,
      'bad_request',
      'Parse error: the body is not a valid JSON-RPC message or batch.',
      'Send a JSON-RPC 2.0 request ({"jsonrpc":"2.0","id":1,"method":"tools/list"}), a notification, or an array of them.',
      {},
      JSON_RPC.parseError,
    ),
  batchTooLarge: (max: number) =>
    new HttpProblem(400, 'bad_request', `Invalid Request: a batch may hold at most ${max} messages.`, `Split the batch into batches of at most ${max}.`),
  lonelyInitialize: () =>
    new HttpProblem(400, 'bad_request', 'Invalid Request: initialize must be sent alone, not in a batch.', 'Send initialize as a single message.'),
  unsupportedVersion: (version: string, supported: readonly string[]) =>
    new HttpProblem(
      400,
      'bad_request',
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))}.`,
      `Send one of ${supported.join(', ')} (or no MCP-Protocol-Version header) with the initialize handshake, or 2026-07-28 with its per-request _meta envelope (server/discover).`,
    ),
  batchRemoved: (version: string) =>
    new HttpProblem(
      400,
      'bad_request',
      `Invalid Request: protocol revision ${version} has no JSON-RPC batches.`,
      'Send one JSON-RPC message per POST (batches exist only in revision 2025-03-26, the default when no MCP-Protocol-Version header is sent).',
    ),
};
