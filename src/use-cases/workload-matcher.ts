import type { UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import { SearchIndex } from '../search/search-index.js';

/**
 * How a free-text workload was matched to a use case, and how sure the match is:
 * - `exact` (confidence 1): the text is a use case's slug or title;
 * - `alias` (0.55-0.9): the text contains one of its names as whole words: a tag ("minecraft",
 *   "k8s", "docker compose"), its slug's words ("game server") or its title. 0.9 when the text is
 *   nothing but that name; otherwise 0.8 when its names cover every content word of the text and 0.7
 *   when some are left over; 0.15 less when another use case's name is in the text too;
 * - `words` (0.4-0.85): no name is in the text, but some of its content words match words of the use
 *   case's names (whole, as a prefix or with a typo: "postgres" -> "postgresql"), at least one of them
 *   specific to it (no other use case's names have it): 0.4 plus 0.45 times the share of content words
 *   matched (a word other use cases' names share counts half).
 * - `description` (0.3-0.55): no name matches, but content words are whole words of a use case's
 *   description, at least one of them in no other description: 0.3 plus 0.3 times the share of content
 *   words matched (a shared word counts half), at most 0.55.
 * Content words are the text's words less grammar, numbers and words that say nothing of the workload
 * (server, vps, hosting, run, ...). A text that fits none of these is not matched: a word several use
 * cases share ("node" in kubernetes-node and in web-app's node.js) does not tell what will run, so
 * "blockchain validator node" is refused rather than mapped to kubernetes-node.
 */
export type MatchKind = 'exact' | 'alias' | 'words' | 'description';

export interface WorkloadMatch {
  kind: MatchKind;
  /** 0..1, by the rule above. */
  confidence: number;
  matchedUseCase: string;
  /** The name or the words of the text it was matched on. */
  matchedOn: string[];
}

/** A text matched to no use case: why, in words, and the closest use cases by typo-tolerant search. */
export interface WorkloadMiss {
  why: string;
  closest: string[];
}

const IGNORED = new Set(
  (
    'a an the and or but for of on in at to into with without from by as about my our your their his her me i we you they it its is are be ' +
    'this that these those some few lot lots many much more small big large little tiny cheap simple good best new want need needs like just ' +
    'server servers vps host hosting hosted machine box instance cloud run running runs setup set up use using thing stuff ' +
    'one two three four five six seven eight nine ten twenty hundred thousand dozen'
  ).split(' '),
);

/** Case and accents folded, split on anything but letters and digits: "Node.js" -> ["node", "js"]. */
export const wordsOf = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);

const isContent = (word: string) => !IGNORED.has(word) && !/^\d+$/.test(word);
const round2 = (n: number) => Math.round(n * 100) / 100;

/** True when `phrase` appears in `words` as consecutive whole words. */
function contains(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0 || phrase.length > words.length) return false;
  for (let i = 0; i + phrase.length <= words.length; i++) if (phrase.every((w, j) => words[i + j] === w)) return true;
  return false;
}

/** Matches free text to use cases by their names (slug, title, tags), built once per dataset version. */
export class WorkloadMatcher {
  private readonly names: SearchIndex<UseCaseRecord>;
  private readonly phrases: ReadonlyMap<string, string[][]>;
  private readonly exact: ReadonlyMap<string, string>;
  /** The words of each use case's description, for text that names none of its names. */
  private readonly described: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(
    private readonly useCases: readonly UseCaseRecord[],
    /** The full search (names and descriptions) that ranks ties and finds alternatives. */
    private readonly ranked: (text: string) => string[],
    /** Typo-tolerant search over slugs and titles, for "closest" in a miss. */
    private readonly closest: (text: string) => string[],
  ) {
    this.names = new SearchIndex(useCases, {
      id: (u) => u.slug,
      fields: {
        slug: { text: (u) => u.slug.replace(/-/g, ' '), boost: 1 },
        title: { text: (u) => u.title, boost: 1 },
        tags: { text: (u) => u.tags.join(' '), boost: 1 },
      },
    });
    this.phrases = new Map(
      useCases.map((u) => [u.slug, [u.slug, u.title, ...u.tags].map(wordsOf).filter((p) => p.length > 0)]),
    );
    this.described = new Map(useCases.map((u) => [u.slug, new Set(wordsOf(u.description ?? ''))]));
    this.exact = new Map(
      useCases.flatMap(
        (u) =>
          [
            [wordsOf(u.slug).join(' '), u.slug],
            [wordsOf(u.title).join(' '), u.slug],
          ] as [string, string][],
      ),
    );
  }

  /** The use case `text` describes, how and how surely, with other candidates best first; or why none. */
  match(text: string): { match: WorkloadMatch; alternatives: string[] } | { miss: WorkloadMiss } {
    const words = wordsOf(text);
    const content = words.filter(isContent);
    const rank = this.ranked(text);
    const byRank = (a: string, b: string) =>
      (rank.includes(a) ? rank.indexOf(a) : rank.length) - (rank.includes(b) ? rank.indexOf(b) : rank.length);
    const others = (chosen: string, first: string[]) =>
      [...new Set([...first, ...rank])].filter((s) => s !== chosen).slice(0, 3);

    const exact = this.exact.get(words.join(' '));
    if (exact)
      return {
        match: { kind: 'exact', confidence: 1, matchedUseCase: exact, matchedOn: [text.trim()] },
        alternatives: [],
      };

    const aliased = this.useCases
      .map((u) => {
        const found = this.phrases.get(u.slug)!.filter((p) => contains(words, p));
        const covered = new Set(found.flat());
        return {
          slug: u.slug,
          found,
          covered: content.filter((w) => covered.has(w)).length,
          longest: Math.max(0, ...found.map((p) => p.length)),
        };
      })
      .filter((a) => a.found.length > 0)
      .sort((a, b) => b.covered - a.covered || b.longest - a.longest || byRank(a.slug, b.slug));
    if (aliased.length > 0) {
      const best = aliased[0];
      const whole = best.found.some((p) => p.join(' ') === words.join(' '));
      const base = whole ? 0.9 : best.covered === content.length ? 0.8 : 0.7;
      const confidence = round2(base - (aliased.length > 1 ? 0.15 : 0));
      return {
        match: {
          kind: 'alias',
          confidence,
          matchedUseCase: best.slug,
          matchedOn: [...new Set(best.found.map((p) => p.join(' ')))],
        },
        alternatives: others(
          best.slug,
          aliased.slice(1).map((a) => a.slug),
        ),
      };
    }

    // Which use cases' names each content word matches (whole, prefix or typo).
    const hits = content.map((word) => ({ word, ids: [...new Set(this.names.search(word).map((h) => h.id))] }));
    const scored = this.scoredBy(hits, byRank);
    if (scored.length > 0) {
      const best = scored[0];
      const confidence = round2(Math.min(0.85, 0.4 + 0.45 * (best.score / content.length)));
      return {
        match: { kind: 'words', confidence, matchedUseCase: best.slug, matchedOn: best.words },
        alternatives: others(
          best.slug,
          scored.slice(1).map((s) => s.slug),
        ),
      };
    }

    // Last, the descriptions: whole words only, at least one found in no other use case's description.
    const inDescriptions = content.map((word) => ({
      word,
      ids: this.useCases.filter((u) => this.described.get(u.slug)!.has(word)).map((u) => u.slug),
    }));
    const byDescription = this.scoredBy(inDescriptions, byRank);
    if (byDescription.length > 0) {
      const best = byDescription[0];
      const confidence = round2(Math.min(0.55, 0.3 + 0.3 * (best.score / content.length)));
      return {
        match: { kind: 'description', confidence, matchedUseCase: best.slug, matchedOn: best.words },
        alternatives: others(
          best.slug,
          byDescription.slice(1).map((s) => s.slug),
        ),
      };
    }

    const shared = hits.filter((h) => h.ids.length > 1);
    const why =
      content.length === 0
        ? 'it has no word that says what will run'
        : shared.length > 0
          ? `${shared.map((h) => `"${h.word}" is a word of several use cases (${h.ids.join(', ')})`).join('; ')}, and no other word names one`
          : 'none of its words names a use case';
    return { miss: { why, closest: [...new Set([...this.closest(text), ...rank])].slice(0, 3) } };
  }

  /**
   * The use cases the words hit, best first: a word only one use case has counts 1, a shared one half;
   * a use case none of whose words is its own is left out.
   */
  private scoredBy(hits: { word: string; ids: string[] }[], byRank: (a: string, b: string) => number) {
    return this.useCases
      .map((u) => {
        const mine = hits.filter((h) => h.ids.includes(u.slug));
        return {
          slug: u.slug,
          words: mine.map((h) => h.word),
          specific: mine.filter((h) => h.ids.length === 1).length,
          score: mine.reduce((s, h) => s + (h.ids.length === 1 ? 1 : 0.5), 0),
        };
      })
      .filter((s) => s.specific > 0)
      .sort((a, b) => b.score - a.score || byRank(a.slug, b.slug));
  }
}
