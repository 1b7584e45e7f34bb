import { ProtocolErrorCode, specTypeSchemas, type SpecTypeName } from '@modelcontextprotocol/server';

/** The requests this server handles, by method: the SDK's schemas for them. */
const SCHEMAS = new Map<string, (typeof specTypeSchemas)[SpecTypeName]>(
  (
    [
      ['initialize', 'InitializeRequest'],
      ['ping', 'PingRequest'],
      ['tools/list', 'ListToolsRequest'],
      ['tools/call', 'CallToolRequest'],
      ['resources/list', 'ListResourcesRequest'],
      ['resources/templates/list', 'ListResourceTemplatesRequest'],
      ['resources/read', 'ReadResourceRequest'],
      ['completion/complete', 'CompleteRequest'],
    ] as const
  ).map(([method, name]) => [method, specTypeSchemas[name]]),
);

type JsonRpcError = { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } };

/**
 * The largest params one request may carry, as JSON. The longest argument of any tool (a search query,
 * a workload description) is a few hundred characters; this bounds what one call of a batch may ask
 * the server to parse, validate and key.
 */
export const MAX_PARAMS_BYTES = 16 * 1024;

/**
 * The SDK answers a request whose params do not fit the method's schema with -32603 (internal
 * error); the client made the mistake, so this answers it first with -32602 (invalid params).
 * Params larger than MAX_PARAMS_BYTES are refused the same way. Returns the error response for an
 * invalid request, undefined for anything else.
 */
export function invalidParams(message: unknown): JsonRpcError | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const oversize = params === undefined ? undefined : oversized(params);
  if (oversize) return { jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InvalidParams, message: `Invalid params for ${method}: params: ${oversize}` } };
  const result = SCHEMAS.get(method)?.['~standard'].validate(message);
  if (!result || result instanceof Promise || !result.issues) return undefined;
  const issue = result.issues[0];
  const where = (issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.') || 'params';
  return { jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InvalidParams, message: `Invalid params for ${method}: ${where}: ${issue.message}` } };
}

/** Why params are beyond the ceiling, if they are: too large as JSON, or nested too deeply to write out. */
function oversized(params: unknown): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(params);
  } catch {
    return 'nested too deeply';
  }
  return Buffer.byteLength(json ?? '') > MAX_PARAMS_BYTES ? `larger than ${MAX_PARAMS_BYTES} bytes as JSON` : undefined;
}
