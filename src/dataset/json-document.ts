import { createHash } from 'node:crypto';
import type { Deprecation } from './dto/meta.dto.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A response document serialized once: the value, its UTF-8 JSON bytes and a strong ETag derived
 * from those bytes. Built once per dataset version; every transport sends the same bytes.
 */
export class JsonDocument<T = unknown> {
  readonly contentType = JSON_CONTENT_TYPE;
  readonly body: Buffer;
  readonly etag: string;

  constructor(
    readonly value: T,
    /** Day the content last changed, `YYYY-MM-DD`. */
    readonly lastModified: string,
    /** Deprecated fields this document still carries. */
    readonly deprecations: readonly Deprecation[] = [],
    /** Further headers this document is always sent with (a cache policy of its own). */
    readonly headers?: readonly (readonly [string, string])[],
  ) {
    this.body = Buffer.from(JSON.stringify(value), 'utf8');
    this.etag = strongEtag(this.body);
  }
}

/** A strong entity tag: a quoted, truncated SHA-256 of the bytes. */
export function strongEtag(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
}
