import { strongEtag } from './json-document.js';

/** A non-JSON document (a feed, a download) serialized once per dataset version, with its ETag: sendable like a JsonDocument. */
export class TextDocument {
  readonly body: Buffer;
  readonly etag: string;

  constructor(
    text: string,
    readonly contentType: string,
    /** Day the content last changed, `YYYY-MM-DD`. */
    readonly lastModified?: string,
    readonly headers: readonly (readonly [string, string])[] = [],
  ) {
    this.body = Buffer.from(text, 'utf8');
    this.etag = strongEtag(this.body);
  }
}
