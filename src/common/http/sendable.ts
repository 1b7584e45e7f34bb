import type { Deprecation } from '../../dataset/dto/meta.dto.js';

/** A response body computed ahead of time, with what conditional requests need. */
export interface Sendable {
  readonly body: Buffer;
  readonly etag: string;
  readonly contentType: string;
  /** Day the content last changed, `YYYY-MM-DD`. */
  readonly lastModified?: string;
  /** Deprecated fields the body carries. */
  readonly deprecations?: readonly Deprecation[];
  /** Further headers this body is always sent with (Link, Vary, Content-Security-Policy...). */
  readonly headers?: readonly (readonly [string, string])[];
}

/** Whether a handler's result is a precomputed document (DocumentAnswers writes it). */
export function isSendable(value: unknown): value is Sendable {
  if (typeof value !== 'object' || value === null) return false;
  const doc = value as Partial<Sendable>;
  return Buffer.isBuffer(doc.body) && typeof doc.etag === 'string' && typeof doc.contentType === 'string';
}
