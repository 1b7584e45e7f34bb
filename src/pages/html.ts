/** HTML that is safe to insert as is: built by `html` or marked with `raw` after review. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Marks trusted markup (the markdown renderer's output, our own templates) as safe. */
export const raw = (markup: string) => new SafeHtml(markup);

type Value = SafeHtml | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * Tagged template for HTML: every interpolated value is escaped unless it is SafeHtml, so dataset
 * text (names, descriptions) and anything from a request can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new SafeHtml(out);
}

/** JSON for a `<script type="application/ld+json">` block: `<` escaped so no text can close the element. */
export function jsonLd(data: unknown): SafeHtml {
  return raw(JSON.stringify(data).replace(/</g, '\\u003c'));
}
