/**
 * Text from the dataset placed inside generated markdown. Plan names and other figures come from the
 * providers' catalogues, so they are text, never markup: every character markdown acts on inline
 * (emphasis, code, links, images, autolinks, raw HTML, strikethrough) is escaped, and so is the colon of
 * a URL scheme, which the renderer's linkify would otherwise turn into a live link.
 */
export function text(value: string | number): string {
  return String(value)
    .replace(/[\\`*_[\]<>~|]/g, (c) => `\\${c}`)
    .replace(/\b(https?|ftp|mailto):/gi, '$1\\:')
    .replace(/[\r\n]+/g, ' ');
}

/** Markdown a caller wrote on purpose (a link, emphasis), placed in a table cell as it is. */
export class Markup {
  constructor(readonly markdown: string) {}
}

/** A link whose label is text from the dataset. */
export const link = (label: string, href: string) => new Markup(`[${text(label)}](${href})`);

/** One table cell: text escaped (table pipes included), markup as written with its pipes escaped. */
export function cell(value: string | number | Markup): string {
  return value instanceof Markup ? value.markdown.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ') : text(value);
}

/** A markdown table; every cell is text unless it is `Markup`. */
export function table(head: string[], rows: (string | number | Markup)[][]): string {
  const line = (cells: (string | number | Markup)[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), `| ${head.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** A price as written in prose and tables: "3.49 EUR". */
export const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;
