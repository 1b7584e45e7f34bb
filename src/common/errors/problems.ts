import { JSON_RPC } from '../http/json-rpc-error.js';
import { MCP_BODY_LIMIT_BYTES } from '../http/mcp-path.js';
import type { AppConfig } from '../../config/app-config.js';
import type { NotFoundError } from './domain-errors.js';
import { HttpProblem } from './http-problem.js';

/** Where the full list of each kind of record lives, for "not found" resolutions. */
const LIST_PATHS: Record<string, string> = {
  provider: '/api/providers.json',
  guide: '/api/guides.json',
  'use case': '/api/use-cases.json',
};

/** An unknown id: the answer names the valid ids and where the list is. */
export function problemFromNotFound(error: NotFoundError, config: AppConfig): HttpProblem {
  const list = LIST_PATHS[error.kind];
  return new HttpProblem(
    404,
    'not_found',
    `There is no ${error.kind} with that id.`,
    `Use one of: ${error.validIds.join(', ')}.` + (list ? ` The full list is at ${config.url(list)}.` : ''),
  );
}

/** A path nothing is served at. */
export function routeNotFound(config: AppConfig): HttpProblem {
  return new HttpProblem(
    404,
    'not_found',
    'Nothing is served at this path.',
    `Start from the API index at ${config.url('/api/index.json')}; it lists every endpoint. Paths are lowercase and have no trailing slash.`,
  );
}

/**
 * A body over MCP_BODY_LIMIT_BYTES (the one endpoint that reads a body). The connection is closed after
 * the answer, so a body that was announced but not read is never waited for.
 */
export function payloadTooLarge(): HttpProblem {
  return new HttpProblem(
    413,
    'payload_too_large',
    'The request body is too large.',
    `Send a body of at most ${MCP_BODY_LIMIT_BYTES / 1024} KiB.`,
    { Connection: 'close' },
  );
}

/** A client error raised below our code (malformed percent-encoding, a body parser, by its error `type`). */
export function problemFromHttpStatus(status: number, config: AppConfig, type?: string): HttpProblem {
  if (status === 413) return payloadTooLarge();
  if (type === 'charset.unsupported') {
    return new HttpProblem(
      415,
      'bad_request',
      'Unsupported Media Type: a JSON body must be UTF-8.',
      'Send Content-Type: application/json (charset=utf-8, or no charset).',
    );
  }
  if (type === 'encoding.unsupported') {
    return new HttpProblem(
      415,
      'bad_request',
      'Unsupported Media Type: the body is in a Content-Encoding this server does not read.',
      'Send the body uncompressed, or with Content-Encoding gzip, deflate or br.',
    );
  }
  if (type === 'entity.parse.failed') {
    return new HttpProblem(
      400,
      'bad_request',
      'The request body is not valid JSON.',
      'Send one JSON-RPC message as a JSON object.',
      {},
      JSON_RPC.parseError,
    );
  }
  return new HttpProblem(
    status === 405 ? 405 : 400,
    status === 405 ? 'method_not_allowed' : 'bad_request',
    'The request could not be understood.',
    `Check the URL's percent-encoding, the body and the request headers, then try again. Every endpoint is listed at ${config.url('/api/index.json')}.`,
  );
}

/** Any method but GET, HEAD and OPTIONS on the read-only API. */
export function methodNotAllowed(method: string, allow: string): HttpProblem {
  return new HttpProblem(
    405,
    'method_not_allowed',
    `The API is read-only; ${method.slice(0, 20)} is not allowed here.`,
    `Send GET or HEAD instead (OPTIONS for CORS preflight).`,
    { Allow: allow },
  );
}

/** Over the rate limit: retry when the window resets. */
export function rateLimited(limit: number, windowSeconds: number, retryAfter: number): HttpProblem {
  return new HttpProblem(
    429,
    'rate_limited',
    `Too many requests: each client may send ${limit} requests per ${windowSeconds} seconds.`,
    `Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'} (the Retry-After header), when the window resets. Revalidating with If-None-Match and honouring Cache-Control saves requests.`,
    { 'Retry-After': String(retryAfter) },
  );
}

const UNAVAILABLE_MESSAGES: Record<string, string> = {
  maintenance: 'The service is down for planned maintenance.',
  draining: 'This instance is shutting down.',
  starting: 'The service is starting and has not loaded its data yet.',
};

/** The service cannot answer now (maintenance, shutdown, start-up). */
export function serviceUnavailable(reason: string, retryAfter: number): HttpProblem {
  return new HttpProblem(
    503,
    'service_unavailable',
    UNAVAILABLE_MESSAGES[reason] ?? 'The service is temporarily unavailable.',
    `Retry after ${retryAfter} seconds (the Retry-After header).`,
    { 'Retry-After': String(retryAfter) },
  );
}

/** The MCP endpoint only takes POST (stateless Streamable HTTP: no SSE stream, no session to delete). */
export function mcpMethodNotAllowed(method: string): HttpProblem {
  return new HttpProblem(
    405,
    'method_not_allowed',
    `Method not allowed: ${method.slice(0, 20)}. This MCP server is stateless and answers POST only.`,
    'Send JSON-RPC messages with POST; there is no stream to open with GET and no session to end with DELETE.',
    { Allow: 'POST' },
  );
}

/** DNS-rebinding protection refused the Host or Origin of an /mcp request. */
export function forbidden(what: 'Host' | 'Origin'): HttpProblem {
  return new HttpProblem(
    403,
    'forbidden',
    `Forbidden: this ${what} is not allowed to use the MCP endpoint.`,
    what === 'Host'
      ? 'Connect through the public address of this server (MCP_ALLOWED_HOSTS lists the host names it answers for).'
      : 'Call from an allowed origin (MCP_ALLOWED_ORIGINS), or from a client that sends no Origin.',
  );
}
