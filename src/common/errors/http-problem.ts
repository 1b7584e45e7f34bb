import type { ErrorCode } from './error-codes.js';

/**
 * An HTTP error answer before it is written: status, code, texts and extra headers. The global
 * filter turns every exception into one of these, then into the envelope.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly resolution: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** The JSON-RPC error code when this problem is answered on the MCP endpoint; by default one follows from the status. */
    readonly jsonRpcCode?: number,
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}
