/** Text placed inside generated markdown: table pipes and line breaks escaped, markup characters inert. */
export function cell(text: string | number): string {
  return String(text)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}

/** A markdown table. */
export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), `| ${head.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** A price as written in prose and tables: "3.49 EUR". */
export const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;
