import { strongEtag } from '../dataset/json-document.js';
import type { Sendable } from '../common/http/sendable.js';

/** A file served from memory with a strong ETag. */
export class StaticAsset implements Sendable {
  readonly etag: string;

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
    readonly headers: readonly (readonly [string, string])[] = [],
  ) {
    this.etag = strongEtag(body);
  }
}
