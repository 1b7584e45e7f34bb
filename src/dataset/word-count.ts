const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** Words a reader reads in a markdown text: runs of letters and digits, markup ignored. */
export function countWords(markdown: string): number {
  return markdown.match(WORD)?.length ?? 0;
}

export const WORDS_PER_MINUTE = 230;

/** Minutes to read `words` at a steady adult pace; never less than one. */
export function readTimeMinutes(words: number): number {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
