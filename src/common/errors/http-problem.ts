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
    // An answer to a client, never a fault to trace: no stack is captured (collecting one was about a
    // tenth of a 404's cost), and none is ever logged (the error filter logs the stacks of unexpected errors).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'HttpProblem';
  }
}
