import { applyDecorators, Get, HttpStatus, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation as ApiOperationDoc, ApiResponse } from '@nestjs/swagger';
import { expressRoute, type ApiOperation } from './api-operations.js';
import { ErrorEnvelope } from '../common/errors/error-envelope.dto.js';

const errorResponse = (status: number, description: string) =>
  ApiResponse({ status, description, type: ErrorEnvelope });

/** A success body that is not JSON (a CSV download): its media type, documented as text. */
export interface ProducedText {
  mediaType: string;
  description: string;
}

/**
 * A GET endpoint of the JSON API: the route, its OpenAPI operation, the success type (a DTO class, or
 * `produces` for a text download) and every response status it can answer with. Errors are always the
 * JSON envelope. Headers are added to the document in one place (openapi/).
 */
export function ApiEndpoint(operation: ApiOperation, type: Type<unknown> | undefined, options: { notFound?: string; produces?: ProducedText } = {}) {
  const { produces } = options;
  const ok = produces
    ? [ApiOkResponse({ description: produces.description, content: { [produces.mediaType]: { schema: { type: 'string' } } } })]
    : [ApiOkResponse({ type, description: 'The document.' })];
  return applyDecorators(
    Get(expressRoute(operation.path)),
    ApiOperationDoc({ operationId: operation.operationId, summary: operation.summary, description: operation.description }),
    ApiExtraModels(ErrorEnvelope),
    ...ok,
    ApiResponse({ status: HttpStatus.NOT_MODIFIED, description: 'Not modified: the `If-None-Match` ETag is current. No body.' }),
    errorResponse(HttpStatus.NOT_FOUND, options.notFound ?? 'Nothing is served at this path.'),
    errorResponse(HttpStatus.METHOD_NOT_ALLOWED, 'Only GET, HEAD and OPTIONS are allowed. `Allow` lists them.'),
    errorResponse(HttpStatus.TOO_MANY_REQUESTS, 'Rate limit exceeded; retry after `Retry-After` seconds.'),
    errorResponse(HttpStatus.SERVICE_UNAVAILABLE, 'Temporarily unavailable (starting, draining or maintenance); retry after `Retry-After` seconds.'),
  );
}
