import type { HttpProblem } from '../errors/http-problem.js';

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

export const isMcpPath = (path: string) => path === MCP_PATH;

/** JSON-RPC error codes for HTTP problems on the MCP endpoint. */
function codeOf(problem: HttpProblem): number {
  if (problem.status === 400 && problem.message.includes('JSON')) return -32700;
  if (problem.status === 400 || problem.status === 413) return -32600;
  if (problem.status >= 500 && problem.status !== 503) return -32603;
  return -32000;
}

/** An HTTP problem as a JSON-RPC error response (no request id is known at this level). */
export function jsonRpcError(problem: HttpProblem) {
  return {
    jsonrpc: '2.0' as const,
    error: { code: codeOf(problem), message: problem.message, data: { status: problem.status, code: problem.code, resolution: problem.resolution } },
    id: null,
  };
}
