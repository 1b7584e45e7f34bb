import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, with one addition to its reply step: bytes (a Buffer or any Uint8Array) that
 * a handler or interceptor returns are the body as they are, written with the response's `end`. Nest's
 * own reply would serialize them as JSON, and a StreamableFile pipes them through a Readable made for
 * each request; precomputed documents (DocumentAnswers) need neither. Headers (Content-Type,
 * Content-Length) are the caller's to set; Node sends no body for HEAD. Anything else goes to Nest's reply.
 */
export class BytesReplyAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof Uint8Array)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    return response.end(body);
  }
}
