import { strongEtag } from '../dataset/json-document.js';
import type { Sendable } from '../common/http/sendable.js';

export const HTML_TYPE = 'text/html; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/** A body with its own ETag and fixed headers. */
export class StaticBody implements Sendable {
  readonly body: Buffer;
  readonly etag: string;

  constructor(
    text: string | Buffer,
    readonly contentType: string,
    readonly lastModified?: string,
    readonly headers: readonly (readonly [string, string])[] = [],
  ) {
    this.body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    this.etag = strongEtag(this.body);
  }
}

/** A page in its two forms: HTML for people, markdown for agents (`Accept: text/markdown`). */
export interface PageDocument {
  html: StaticBody;
  markdown: StaticBody;
}
