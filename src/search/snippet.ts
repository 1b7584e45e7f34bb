/** Markdown reduced to the text a reader sees: no code blocks, link targets, emphasis or heading marks. */
export function plainText(markdown: string): string {
  return (
    markdown
      .replace(/```[^`]*```/g, ' ')
      .replace(/`([^`\n]*)`/g, '$1')
      .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
      // A heading, bullet or number is a marker only when a space follows it ("1.5 GB" is text).
      .replace(/^[ \t]*(#{1,6}|[-*+]|\d+\.)[ \t]+|^[ \t]*[>|][ \t]*/gm, '')
      .replace(/[*_|]+/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * A short passage of `text` around the earliest of `terms`, cut at word boundaries, with ellipses
 * where it was cut. Falls back to the opening of the text.
 */
export function snippet(text: string, terms: readonly string[], length = 200): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const i = lower.indexOf(term.toLowerCase());
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  let start = Math.max(0, at === -1 ? 0 : at - Math.floor(length / 3));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space === -1 || space > start + 20 ? start : space + 1;
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > start + length / 2 ? space : end;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
