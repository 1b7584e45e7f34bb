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
 * `produces` for a text download) and every response status it can answer with (500 is added with the
 * headers). Errors are always the JSON envelope. Headers, the `If-None-Match` parameter and the HEAD
 * form of the operation are added to the document in one place (openapi/).
 */
export function ApiEndpoint(
  operation: ApiOperation,
  type: Type<unknown> | undefined,
  options: { notFound?: string; produces?: ProducedText } = {},
) {
  const { produces } = options;
  const ok = produces
    ? [
        ApiOkResponse({
          description: produces.description,
          content: { [produces.mediaType]: { schema: { type: 'string' } } },
        }),
      ]
    : [ApiOkResponse({ type, description: 'The document.' })];
  return applyDecorators(
    Get(expressRoute(operation.path)),
    ApiOperationDoc({
      operationId: operation.operationId,
      summary: operation.summary,
      description: operation.description,
    }),
    ApiExtraModels(ErrorEnvelope),
    ...ok,
    ApiResponse({
      status: HttpStatus.MOVED_PERMANENTLY,
      description:
        'Only where the server requires HTTPS: a plain-HTTP request is redirected to the same path and query on the public HTTPS origin (`Location`). No body.',
    }),
    ApiResponse({
      status: HttpStatus.NOT_MODIFIED,
      description: 'Not modified: the `If-None-Match` ETag is current. No body.',
    }),
    errorResponse(
      HttpStatus.BAD_REQUEST,
      'The request could not be understood (`bad_request`): malformed percent-encoding in the path, or a request line or header the HTTP parser refuses.',
    ),
    errorResponse(HttpStatus.NOT_FOUND, options.notFound ?? 'Nothing is served at this path.'),
    errorResponse(HttpStatus.METHOD_NOT_ALLOWED, 'Only GET, HEAD and OPTIONS are allowed. `Allow` lists them.'),
    errorResponse(
      HttpStatus.NOT_ACCEPTABLE,
      'No content coding the client accepts is available (`not_acceptable`), e.g. `Accept-Encoding: identity;q=0` without `gzip` or `br`.',
    ),
    errorResponse(
      HttpStatus.REQUEST_TIMEOUT,
      'The request took too long to arrive (`bad_request`); the connection is closed.',
    ),
    errorResponse(431, 'The request headers are too large (`bad_request`); the connection is closed.'),
    errorResponse(HttpStatus.TOO_MANY_REQUESTS, 'Rate limit exceeded; retry after `Retry-After` seconds.'),
    errorResponse(
      HttpStatus.SERVICE_UNAVAILABLE,
      'Temporarily unavailable (starting, draining or maintenance); retry after `Retry-After` seconds.',
    ),
  );
}
