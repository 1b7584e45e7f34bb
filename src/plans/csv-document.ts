import { TextDocument } from '../dataset/text-document.js';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** A CSV download: offered to the browser as an attachment under `filename` (e.g. `vpsapi-plans-2026-11-26.csv`). */
export function csvDocument(text: string, filename: string, lastModified: string): TextDocument {
  return new TextDocument(text, CSV_CONTENT_TYPE, lastModified, [
    ['Content-Disposition', `attachment; filename="${filename}"`],
  ]);
}
