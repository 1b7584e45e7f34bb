import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allProse, publishedGuideProse, type Prose } from './support/prose-corpus';
import { DATA_DIR, rawExchangeRates, rawGuides, rawMeta, rawProviders } from './support/raw-data';

/*
 * Dates that mean what they say.
 *
 * 1. "current", "now", "today's", "latest" attached to a figure that has a date in the data (a price,
 *    an exchange rate, a fee, an SLA) fail unless the date is stated in the same sentence: a reader
 *    cannot tell that "the current reference rate" is ten months old.
 * 2. A generated guide's `updated` is the newest day among the sources of the figures it quotes (the
 *    day we read each page, `retrievedAt`), never before `published`: not one global date for all.
 *
 * The facts come from the data files (test/support/raw-data.ts), the rules from data/README.md and
 * data/editorial/README.md; nothing here calls the generator's date functions.
 */

// ---------------------------------------------------------------------------------------------------
// 1. Temporal words next to dated figures

/** Words that claim a figure is as of now. */
const TEMPORAL = /\b(?:current(?:ly)?|today(?:'s)?|latest|now|at the moment|right now|presently|up[- ]to[- ]date)\b/gi;
/** Figures the data dates: prices, rates, fees, SLAs (and the plans whose price a sentence compares), or an amount. */
const FIGURE =
  /\b(?:prices?|pricing|price lists?|rates?|costs?|fees?|charges?|SLAs?|uptime|entry plans?|cheapest plans?|renewals?)\b|\d+(?:\.\d+)?\s?(?:EUR|USD|GBP|%)|[$€£]\s?\d/i;
/** A date stated in the sentence: a day, a month and year, or a date the generator fills in. */
const DATE =
  /\b\d{4}-\d{2}-\d{2}\b|\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b|\{ratesDate\}/;

/** Prose without code (a command that prints "current" is not a claim). */
const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');

/**
 * Each clause (a sentence cut at commas, colons, semicolons and dashes, so "Linode, now part of Akamai,
 * keeps pricing flat" does not tie "now" to "pricing") that has a temporal word and a figure, in a
 * sentence that states no date.
 */
export function undatedCurrentClaims(prose: Prose): string[] {
  const found: string[] = [];
  for (const sentence of withoutCode(prose.text).split(/(?<=[.!?])\s+|\n+/)) {
    if (DATE.test(sentence)) continue;
    for (const clause of sentence.split(/[,;:()]\s*|\s[—–-]\s/)) {
      if (new RegExp(TEMPORAL.source, 'i').test(clause) && FIGURE.test(clause))
        found.push(`${prose.where}: "${clause.trim()}" (in: ${sentence.trim()})`);
    }
  }
  return found;
}

/** The fixed text of the generator: every string and template literal of its source files, comments left out. */
function generatorText(): Prose[] {
  const dir = join(__dirname, '..', 'src', 'cli', 'guides-generator');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .flatMap((f) => {
      const code = readFileSync(join(dir, f), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      return [...code.matchAll(/'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].map((m) => ({
        where: `src/cli/guides-generator/${f}`,
        text: (m[1] ?? m[2]).replace(/\$\{[^}]*\}/g, 'X'),
      }));
    });
}

describe('"current" next to a dated figure states the date', () => {
  it('in the editorial prose, the hand-written guides and the guides as published', () => {
    expect([...allProse, ...publishedGuideProse].flatMap(undatedCurrentClaims)).toEqual([]);
  });

  it("in the generator's own fixed text", () => {
    const text = generatorText();
    expect(text.length).toBeGreaterThan(50);
    expect(text.flatMap(undatedCurrentClaims)).toEqual([]);
  });

  it('fails a fixture of the claims it exists for, and passes the ones it must not flag', () => {
    const fixture = readFileSync(join(__dirname, 'fixtures', 'prose-claims', 'current-figures.md'), 'utf8');
    const [bad, good] = fixture.split('\n\n');
    const flagged = (text: string) =>
      text
        .split('\n')
        .slice(1)
        .filter((line) => undatedCurrentClaims({ where: 'fixture', text: line }).length > 0);
    expect(flagged(bad)).toEqual(bad.split('\n').slice(1));
    expect(flagged(good)).toEqual([]);
  });

  it('the best-of list that converts euro prices names the day of the rate it uses', () => {
    const under5 = rawGuides.find((g) => g.slug === 'best-vps-under-5-dollars')!;
    // It converts euros into dollars, so the day is the dollar's rate's.
    expect(under5.body).toContain(`reference rate of ${rawExchangeRates.rateDates.USD}`);
  });
});

// ---------------------------------------------------------------------------------------------------
// 2. Each generated guide is dated by the figures it quotes

const providers: any[] = rawProviders.providers;
const byId = new Map(providers.map((p) => [p.id, p]));
const editorial = (name: string) => JSON.parse(readFileSync(join(DATA_DIR, 'editorial', name), 'utf8'));
const newest = (dates: string[]) => [...dates].sort().at(-1);

/** The days of a provider's plan figures: each line's price source and reported change (sold lines, or all with `listed`), and the source that says a line is discontinued. */
function planDates(p: any, listed: boolean): string[] {
  return p.planLines.flatMap((l: any) =>
    [...(listed || !l.discontinued ? [l.source, l.laterPriceChange?.source] : []), l.discontinued?.source]
      .filter(Boolean)
      .map((s: any) => s.retrievedAt),
  );
}

/** The days of the provider pages behind its support, locations and features: its sources that no plan line, add-on or tax treatment cites. */
function recordDates(p: any): string[] {
  const cited = new Set<string>();
  for (const l of p.planLines)
    for (const s of [l.source, l.laterPriceChange?.source, l.discontinued?.source])
      if (s) [s.url, s.copyOf].forEach((u) => u && cited.add(u));
  for (const a of Object.values<any>(p.addOns)) if (a.source) cited.add(a.source.url);
  for (const s of p.tax.sources) cited.add(s.url);
  return p.sources.filter((s: any) => !cited.has(s.url)).map((s: any) => s.retrievedAt);
}

const rates = (ps: any[]) => (ps.some((p) => p.currency !== 'USD') ? [rawExchangeRates.date] : []);
const offers = (p: any, feature: string) => p.featureDetails[feature].status !== 'unavailable';

/** The day each generated guide's figures were last read, worked out from the data and the editorial inputs. */
function expectedFigureDate(g: any): string | undefined {
  const subject = (suffix: string) => byId.get(g.slug.slice(0, -suffix.length));
  switch (g.type) {
    case 'review': {
      const p = subject('-review');
      return newest([...planDates(p, true), ...recordDates(p), ...rates([p])]);
    }
    case 'alternatives': {
      const p = subject('-alternatives');
      const all = [p, ...editorial('alternatives.json')[p.id].picks.map((x: any) => byId.get(x.id))];
      return newest(all.flatMap((x) => [...planDates(x, false), ...recordDates(x)]).concat(rates(all)));
    }
    case 'comparison': {
      const ps = editorial('comparisons.json')
        .comparisons.find((c: any) => c.slug === g.slug)
        .providers.map((id: string) => byId.get(id));
      return newest(ps.flatMap((x: any) => [...planDates(x, false), ...recordDates(x)]).concat(rates(ps)));
    }
    case 'best-of': {
      const c = editorial('best-of.json').lists.find((l: any) => l.slug === g.slug).criteria;
      if (c.kind === 'rating') return undefined; // ratings carry no date
      if (c.kind === 'region') return newest(providers.flatMap(recordDates));
      if (c.kind === 'feature') {
        const ranked = providers.filter((p) => offers(p, c.value));
        return newest([
          ...providers.flatMap(recordDates),
          ...ranked.flatMap((p) => planDates(p, false)),
          ...rates(ranked),
        ]);
      }
      return newest([...providers.flatMap((p) => planDates(p, false)), ...rates(providers)]);
    }
  }
  return undefined;
}

describe('each generated guide is dated by the figures it quotes', () => {
  const generated = rawGuides.filter((g) => ['review', 'comparison', 'best-of', 'alternatives'].includes(g.type));
  const expected = (g: any) => {
    const figures = expectedFigureDate(g);
    return figures !== undefined && figures > g.published ? figures : g.published;
  };

  it('has updated = the newest source day of the figures it quotes, never before published nor after the release', () => {
    expect(generated.length).toBeGreaterThan(60);
    const wrong = generated
      .filter((g) => g.updated !== expected(g))
      .map((g) => `${g.slug}: updated ${g.updated}, figures read ${expected(g)}`);
    expect(wrong).toEqual([]);
    for (const g of generated)
      expect([g.slug, g.updated >= g.published && g.updated <= rawMeta.version]).toEqual([g.slug, true]);
  });

  it('gives guides about providers read on different days different dates (not one date for all)', () => {
    const days = new Set(generated.map(expected));
    expect(days.size).toBeGreaterThan(1);
    expect(new Set(generated.map((g) => g.updated))).toEqual(days);
    // A review moves only with its own provider: two reviews differ exactly when their providers' figures were read on different days.
    const reviews = generated.filter((g) => g.type === 'review');
    for (const a of reviews)
      for (const b of reviews)
        expect([a.slug, b.slug, a.updated === b.updated]).toEqual([a.slug, b.slug, expected(a) === expected(b)]);
  });
});
