import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The requests this server handles, by method. */
const SCHEMAS = new Map<string, { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    CompleteRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema]),
);

type JsonRpcError = { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } };

/**
 * The SDK answers a request whose params do not fit the method's schema with -32603 (internal
 * error); the client made the mistake, so this answers it first with -32602 (invalid params).
 * Returns the error response for an invalid request, undefined for anything else.
 */
export function invalidParams(message: unknown): JsonRpcError | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const result = SCHEMAS.get(method)?.safeParse(message);
  if (!result || result.success) return undefined;
  const issue = result.error!.issues[0];
  const where = issue.path.map(String).join('.') || 'params';
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}: ${where}: ${issue.message}` } };
}
