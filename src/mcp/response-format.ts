import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { structured } from './tool-results.js';

/** How much a listing tool says about each item: the few fields to choose by, or every field. */
export const RESPONSE_FORMATS = ['concise', 'detailed'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** The most characters of JSON a listing answer holds, by format; a longer list is cut and says so. */
export const ANSWER_LIMITS: Readonly<Record<ResponseFormat, number>> = { concise: 12_000, detailed: 60_000 };

const thousands = (n: number) => n.toLocaleString('en-US');

/** The sentence every listing tool's description ends with. */
export const ANSWER_SIZE_NOTE =
  `Answers stay under ${thousands(ANSWER_LIMITS.concise)} characters with responseFormat "concise" (the default) and under ${thousands(ANSWER_LIMITS.detailed)} with "detailed"; ` +
  'a longer list is cut from the end, and `truncated` counts what was left out.';

/** The `responseFormat` argument, with what each format holds for this tool. */
export const responseFormatInput = (concise: string, byDefault: (typeof RESPONSE_FORMATS)[number] = 'concise') =>
  z
    .enum(RESPONSE_FORMATS, { error: 'responseFormat must be "concise" or "detailed"' })
    .optional()
    .describe(
      `"concise"${byDefault === 'concise' ? ' (default)' : ''}: ${concise}. "detailed"${byDefault === 'detailed' ? ' (default)' : ''}: every field.`,
    );

/** Output fields every listing answer carries beside its list. */
export const listingOutputShape = {
  responseFormat: z
    .enum(RESPONSE_FORMATS)
    .describe('The format of this answer: in "concise", fields marked detailed-only are absent.'),
  truncated: z
    .object({ omitted: z.number().int(), reason: z.string() })
    .optional()
    .describe('Present only when the list was cut to keep the answer under its size limit.'),
};

/** Only the named fields of an item, in that order. */
export function pick<T extends object, K extends keyof T>(item: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (item[key] !== undefined) out[key] = item[key];
  return out;
}

/**
 * A listing answer as structuredContent and JSON text, within the size limit of its format: items
 * are dropped from the end of `data[key]` until the text fits, and `truncated` counts them and says
 * how to ask for less (`narrower`).
 */
export function structuredWithin<T extends Record<string, unknown>>(
  data: T,
  key: keyof T & string,
  format: ResponseFormat,
  narrower = 'fewer items',
): CallToolResult {
  const limit = ANSWER_LIMITS[format];
  const whole = structured(data);
  if ((whole.content[0] as { text: string }).text.length <= limit) return whole;
  const items = data[key] as unknown[];
  const reason = `Cut to stay under ${thousands(limit)} characters; ask for ${narrower}${format === 'detailed' ? ' or the concise format' : ''}.`;
  const cut = (kept: number) => ({
    ...data,
    [key]: items.slice(0, kept),
    truncated: { omitted: items.length - kept, reason },
  });
  let kept = items.length;
  while (kept > 0 && JSON.stringify(cut(kept)).length > limit) kept -= 1;
  return structured(cut(kept));
}
