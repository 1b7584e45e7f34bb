import { strongEtag } from '../dataset/json-document.js';
import type { Sendable } from '../common/http/sendable.js';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** A CSV download serialized once per dataset version, with its ETag and the file name to save it as. */
export class CsvDocument implements Sendable {
  readonly contentType = CSV_CONTENT_TYPE;
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: readonly (readonly [string, string])[];

  constructor(
    text: string,
    /** File name offered to the browser, e.g. `vpsapi-plans-2026-11-26.csv`. */
    readonly filename: string,
    readonly lastModified: string,
  ) {
    this.body = Buffer.from(text, 'utf8');
    this.etag = strongEtag(this.body);
    this.headers = [['Content-Disposition', `attachment; filename="${filename}"`]];
  }
}
