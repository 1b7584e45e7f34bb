/**
 * "Did you mean": the valid values closest to one a caller got wrong. Pure functions over strings,
 * so every feature (argument names, provider ids, cities) suggests by one rule.
 */

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** Case, accents, spaces, dashes and underscores do not matter when comparing a guess with a valid value. */
export const foldForSuggestion = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

/**
 * The valid values close to `input`, best first, at most `max`: within an edit distance of a third
 * of the longer word (at least 1), or one containing the other when both have 3+ characters
 * ("hetzner-cloud" -> "hetzner", "minRam" -> "minRamGb"). Empty when nothing is close.
 */
export function suggest(input: string, valid: readonly string[], max = 3): string[] {
  const guess = foldForSuggestion(input);
  if (guess.length === 0) return [];
  const scored: { value: string; score: number }[] = [];
  for (const value of new Set(valid)) {
    const folded = foldForSuggestion(value);
    const distance = editDistance(guess, folded);
    const contains = Math.min(guess.length, folded.length) >= 3 && (guess.includes(folded) || folded.includes(guess));
    if (distance <= Math.max(1, Math.floor(Math.max(guess.length, folded.length) / 3)) || contains) {
      scored.push({ value, score: contains ? Math.min(distance, Math.abs(guess.length - folded.length)) : distance });
    }
  }
  return scored
    .sort((a, b) => a.score - b.score || a.value.localeCompare(b.value))
    .slice(0, max)
    .map((s) => s.value);
}

/** " Did you mean X?" (or "X or Y"), or nothing when no valid value is close. */
export function didYouMean(input: string, valid: readonly string[], quote = (s: string) => `"${s}"`): string {
  const close = suggest(input, valid);
  if (close.length === 0) return '';
  const names = close.map(quote);
  return ` Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}?`;
}
