import type { HttpProblem } from '../errors/http-problem.js';

/** JSON-RPC 2.0 error codes (the specification's, and the implementation-defined server error). */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
} as const;

/** The JSON-RPC code of an HTTP problem: the one it names, else one that follows from its status. */
function codeOf(problem: HttpProblem): number {
  if (problem.jsonRpcCode !== undefined) return problem.jsonRpcCode;
  if (problem.status === 400 || problem.status === 413) return JSON_RPC.invalidRequest;
  if (problem.status >= 500 && problem.status !== 503) return JSON_RPC.internalError;
  return JSON_RPC.serverError;
}

/** An HTTP problem as a JSON-RPC error response (no request id is known at this level). */
export function jsonRpcError(problem: HttpProblem) {
  return {
    jsonrpc: '2.0' as const,
    error: {
      code: codeOf(problem),
      message: problem.message,
      data: { status: problem.status, code: problem.code, resolution: problem.resolution },
    },
    id: null,
  };
}
