import { classifyInboundRequest } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * Whether the SDK's entry would serve this POST as 2025-era traffic: what its `isLegacyRequest` answers
 * for the request and its parsed body, computed with the classification step that predicate runs
 * (`classifyInboundRequest`) on the three standard headers and the body, without building a web
 * Request only to read those headers from it.
 */
export function isLegacyPost(headers: IncomingHttpHeaders, body: unknown): boolean {
  if (body === undefined) return true;
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(headers, 'mcp-protocol-version'),
    mcpMethodHeader: header(headers, 'mcp-method'),
    mcpNameHeader: header(headers, 'mcp-name'),
    body,
  });
  return outcome.kind === 'legacy';
}
