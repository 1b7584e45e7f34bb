import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR, rawExchangeRates, rawProviders, rawUseCases } from '../raw-data.js';
import type { Prose } from '../prose-corpus.js';

/*
 * Dataset-wide claims in prose, checked against the data files (issue #27 §3, second half). Four kinds:
 *
 * 1. Comparisons and superlatives: "the cheapest dedicated entry point among the US-based clouds", "the
 *    most RAM per euro of the eight providers", "more locations than any other provider we track", "the
 *    same disk and transfer as the matching shared plan". The sentence names the measure, the provider it
 *    is about and the set it is compared with; both sides are worked out from the plans and datacenters.
 * 2. Counts: "of the four", "all three", "the eight providers", "32 locations", "all four plans". A count
 *    of providers must be the size of the set the text speaks of (the guide's providers in a comparison,
 *    the dataset elsewhere); a count of locations or plans must be the provider's count in the data.
 * 3. Existence: "No VPS in the dataset has 4 TB of disk", "only Contabo sells dedicated cores", "the only
 *    one of the three that offers managed Kubernetes": the quantity or feature is looked up in the plans
 *    and featureDetails of the providers in scope.
 * 4. Retired products: a provider plan identifier (cx22, s-1vcpu-1gb, vc2-1c-1gb, g6-nanode-1,
 *    1xCPU-1GB, VPS-1...) must be a plan the data lists as sold, unless the sentence says it is retired.
 *
 * Each checker returns findings (where, what the text claims, what the data says); an empty list is a pass.
 * Nothing here holds an expected result: every fact is read from data/providers.json, exchange-rates.json
 * and data/editorial/comparisons.json when the check runs.
 */

export type ClaimKind = 'comparison' | 'count' | 'existence' | 'retired-id';

export interface Finding {
  kind: ClaimKind;
  where: string;
  claim: string;
  fact: string;
}

const providers: any[] = rawProviders.providers;
const byId = new Map<string, any>(providers.map((p) => [p.id, p]));
const comparisons: { slug: string; providers: string[] }[] = JSON.parse(
  readFileSync(join(DATA_DIR, 'editorial', 'comparisons.json'), 'utf8'),
).comparisons;
const useCases: any[] = rawUseCases.useCases;

// ---------------------------------------------------------------------------------------------------
// Figures from the data
// ---------------------------------------------------------------------------------------------------

const rates: Record<string, number> = rawExchangeRates.rates;
/** A price in USD, through the exchange rates' EUR base. */
export const usd = (price: number, currency: string) => (price / rates[currency]) * rates.USD;

/** "4GB", "512MB", "1TB", "5000GB" → gigabytes. */
export function gigabytes(text: string): number | undefined {
  const m = /(\d+(?:\.\d+)?)\s*(TB|GB|MB)/i.exec(text ?? '');
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2].toUpperCase() === 'TB' ? n * 1000 : m[2].toUpperCase() === 'MB' ? n / 1000 : n;
}
const vcpusOf = (plan: any) => Number(/(\d+)/.exec(plan.cpu)?.[1] ?? NaN);
const unmetered = (plan: any) => /unmetered|unlimited/i.test(plan.bandwidth ?? '');

const lineOf = (provider: any, plan: any) => provider.planLines.find((l: any) => l.id === plan.line);
/** A plan still sold: its line is not discontinued. */
export const isSold = (provider: any, plan: any) => !lineOf(provider, plan)?.discontinued;
export const soldPlans = (provider: any): any[] => provider.plans.filter((plan: any) => isSold(provider, plan));

type Measure = {
  label: string;
  /** The provider's figure, undefined when it has nothing to compare (no dedicated plans, say). */
  value: (provider: any, filter?: (plan: any) => boolean) => number | undefined;
  /** Whether higher is better (locations, RAM per dollar) or lower (prices). */
  higherIsBetter: boolean;
  unit: string;
};

const minOf = (xs: number[]) => (xs.length ? Math.min(...xs) : undefined);
const maxOf = (xs: number[]) => (xs.length ? Math.max(...xs) : undefined);
const plansWhere = (p: any, filter?: (plan: any) => boolean) => soldPlans(p).filter((plan) => !filter || filter(plan));
const dedicated = (plan: any) => plan.cpuType === 'dedicated';

export const MEASURES: Record<string, Measure> = {
  entryPrice: {
    label: 'cheapest plan still sold',
    unit: 'USD a month',
    higherIsBetter: false,
    value: (p, f) => minOf(plansWhere(p, f).map((x) => usd(x.price, x.currency))),
  },
  dedicatedEntry: {
    label: 'cheapest dedicated-CPU plan still sold',
    unit: 'USD a month',
    higherIsBetter: false,
    value: (p) => minOf(plansWhere(p, dedicated).map((x) => usd(x.price, x.currency))),
  },
  dedicatedPerCore: {
    label: 'lowest price per dedicated core',
    unit: 'USD a core a month',
    higherIsBetter: false,
    value: (p) => minOf(plansWhere(p, dedicated).map((x) => usd(x.price, x.currency) / vcpusOf(x))),
  },
  ramPerDollar: {
    label: 'most GB of RAM per USD of any plan still sold',
    unit: 'GB per USD',
    higherIsBetter: true,
    value: (p, f) => maxOf(plansWhere(p, f).map((x) => gigabytes(x.ram)! / usd(x.price, x.currency))),
  },
  diskPerDollar: {
    label: 'most GB of disk per USD of any plan still sold',
    unit: 'GB per USD',
    higherIsBetter: true,
    value: (p, f) => maxOf(plansWhere(p, f).map((x) => gigabytes(x.storage)! / usd(x.price, x.currency))),
  },
  vcpuPerDollar: {
    label: 'most vCPU per USD of any plan still sold',
    unit: 'vCPU per USD',
    higherIsBetter: true,
    value: (p, f) => maxOf(plansWhere(p, f).map((x) => vcpusOf(x) / usd(x.price, x.currency))),
  },
  locations: { label: 'datacenters', unit: 'locations', higherIsBetter: true, value: (p) => p.datacenters.length },
};

/** Region words in prose → the data's datacenter regions. */
const REGION_WORDS: [RegExp, string[]][] = [
  [/\bEurope(?:an)?\b/i, ['europe']],
  [/\b(?:North American?|US|American)\b/, ['north-america']],
  [/\b(?:South American?|Latin American?)\b/i, ['south-america']],
  [/\bAsian?\b|\bAsia-Pacific\b/i, ['asia']],
];
const locationsIn = (p: any, regions?: string[]) =>
  p.datacenters.filter((d: any) => !regions || regions.includes(d.region)).length;

/** Countries of headquarters that "European" and "US-based" mean. */
const EUROPEAN = new Set([
  'AT',
  'BE',
  'BG',
  'CH',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]);
const hq = (p: any): string => p.headquarters?.country;

// ---------------------------------------------------------------------------------------------------
// Reading the text
// ---------------------------------------------------------------------------------------------------

/** How prose names each provider (its name, the company behind it, its signature product). */
const ALIASES: Record<string, string[]> = {
  hetzner: ['Hetzner'],
  digitalocean: ['DigitalOcean', 'Droplets?'],
  vultr: ['Vultr'],
  linode: ['Linode', 'Akamai', 'Nanode'],
  ovhcloud: ['OVHcloud', 'OVH'],
  contabo: ['Contabo'],
  hostinger: ['Hostinger'],
  upcloud: ['UpCloud'],
};
const NAME_SOURCE = `\\b(${Object.values(ALIASES).flat().join('|')})\\b`;
const NAME = new RegExp(NAME_SOURCE, 'g');
const IS_NAME = new RegExp(`^${NAME_SOURCE}$`);
const idOfName = (name: string) =>
  Object.keys(ALIASES).find((id) => ALIASES[id].some((a) => new RegExp(`^${a}$`).test(name)))!;

/** The providers a sentence names, in order, with where each is named. */
export function mentions(sentence: string): { id: string; index: number }[] {
  return [...sentence.matchAll(NAME)].map((m) => ({ id: idOfName(m[1]), index: m.index! }));
}

/** Markdown to plain sentences: code blocks out (unless kept), links to their text, emphasis off; one entry per sentence, list item or table row. */
export function sentencesOf(text: string, keepCode = false): string[] {
  let plain = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*|__/g, '');
  if (!keepCode) plain = plain.replace(/```[\s\S]*?```/g, '\n').replace(/`[^`\n]*`/g, 'CODE');
  return plain
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z0-9[(*-])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
};
const NUMBER = `(?:${Object.keys(NUMBER_WORDS).join('|')}|\\d+)`;
const numberOf = (word: string) => NUMBER_WORDS[word.toLowerCase()] ?? Number(word);

/** The comparison a piece of prose belongs to, if it is one: its providers. */
export function comparisonScope(where: string): string[] | undefined {
  const editorial = /^editorial\/comparisons\.json\.comparisons\[(\d+)\]/.exec(where);
  if (editorial) return comparisons[Number(editorial[1])]?.providers;
  const guide = /^guides\/([a-z0-9-]+)\.md$/.exec(where);
  if (guide && guide[1].includes('-vs-')) {
    const ids = guide[1].split('-vs-');
    if (ids.every((id) => byId.has(id))) return ids;
  }
  return undefined;
}
const allIds = () => providers.map((p) => p.id);

/**
 * The set a superlative or "only" compares against, read from the sentence: "among the US-based clouds",
 * "of the European providers", "of the eight providers we review", "here", "in the dataset", "of the
 * three" (the guide's providers). Undefined when the sentence does not bound its claim to the dataset.
 */
function scopeOf(sentence: string, where: string): { ids: string[]; label: string } | undefined {
  if (/\b(?:US|American)[- ]based\b|\bthe US (?:developer )?clouds\b/i.test(sentence)) {
    return { ids: allIds().filter((id) => hq(byId.get(id)) === 'US'), label: 'providers headquartered in the US' };
  }
  if (/\bEuropean[- ](?:based\s+)?(?:providers|hosts|clouds)\b|\bEU[- ]based\b/i.test(sentence)) {
    return { ids: allIds().filter((id) => EUROPEAN.has(hq(byId.get(id)))), label: 'providers headquartered in Europe' };
  }
  const compared = comparisonScope(where);
  if (compared && new RegExp(`\\b(?:of|among) (?:the|these) ${NUMBER}\\b(?! providers we)`, 'i').test(sentence))
    return { ids: compared, label: `the guide's providers (${compared.join(', ')})` };
  if (
    /\b(?:we (?:track|review|list|compare)|here\b|in (?:the|this) dataset|of the \w+ providers\b|any other (?:provider|host)|of any (?:host|provider))/i.test(
      sentence,
    )
  ) {
    return { ids: allIds(), label: `the dataset's ${providers.length} providers` };
  }
  if (compared) return { ids: compared, label: `the guide's providers (${compared.join(', ')})` };
  return undefined;
}

/** The provider a phrase at `index` is about: the nearest one named before it, else the first after, else the prose's own. */
function subjectAt(sentence: string, index: number, prose: Prose): string | undefined {
  const named = mentions(sentence);
  const before = named.filter((m) => m.index < index).pop();
  return before?.id ?? named.find((m) => m.index >= index)?.id ?? prose.providerId;
}

const fmt = (n: number | undefined) => (n === undefined ? 'none' : Number.isInteger(n) ? String(n) : n.toFixed(3));

// ---------------------------------------------------------------------------------------------------
// 1. Comparisons and superlatives
// ---------------------------------------------------------------------------------------------------

/**
 * Superlatives that name a measure the data holds. A hedge ("some of the", "one of the") is not a
 * superlative and is left alone, as is a superlative bounded by the market rather than the dataset.
 */
const SUPERLATIVES: { measure: keyof typeof MEASURES; re: RegExp }[] = [
  {
    measure: 'dedicatedEntry',
    re: /\b(?:best|cheapest|lowest[- ]priced|lowest)\s+dedicated(?:[- ](?:CPU|vCPU))?\s+(?:entry(?:\s+(?:point|plan|price))?|plans?|servers?|line)\b|\bdedicated(?:[- ](?:CPU|vCPU))?\s+(?:plans|line|servers)\s+(?:are|is)\s+the\s+cheapest\b/gi,
  },
  {
    measure: 'dedicatedPerCore',
    re: /\bcheapest\s+dedicated\s+(?:cores|vCPUs|CPUs)\b|\blowest\s+(?:entry\s+)?price\s+per\s+dedicated\s+(?:core|vCPU)\b|\bdedicated\b[^.;]{0,40}?\bcosts?\s+the\s+least\s+per\s+(?:core|vCPU)\b/gi,
  },
  // An entry price "per dedicated core" is the per-core measure above, not the provider's cheapest plan.
  { measure: 'entryPrice', re: /\b(?:lowest|cheapest)\s+(?:entry|starting)\s+(?:price|plan|point)\b(?!\s+per\b)/gi },
  {
    measure: 'locations',
    re: /\b(?:(?:covers?|has|have|with)\s+the\s+)?(?:most|widest\s+spread\s+of|largest\s+number\s+of)\s+(?:(?:European|Asian|US|North American|South American|Latin American)\s+)?(?:locations|cities|regions|data\s?cent(?:er|re)s)\b|\bwidest\s+spread\b|\bmore\s+locations\s+than\s+any\b/gi,
  },
];
const HEDGE = /\b(?:some|one|among)\s+of\s+the\s*$/i;
/** A superlative the reader is asked about, not told ("if you want the most RAM per euro"). */
const WISH = /\b(?:want|wants|need|needs|looking\s+for|chasing|after)\s+(?:the\s+)?$/i;

/** "the most RAM and disk per euro", "by far the most RAM, vCPU and disk" (for the money), "more RAM and disk for the money than anyone". */
const RESOURCE = '(?:RAM|memory|vCPUs?|cores|disk|storage)';
const RESOURCES = `${RESOURCE}(?:(?:,\\s*|\\s+and\\s+|,\\s+and\\s+)${RESOURCE})*`;
const PER_MONEY = /\b(?:per|for\s+the)\s+(?:euro|dollar|money)\b|\bper\s+(?:euro|dollar)\b|\bfor\s+the\s+money\b/i;
const MOST_PER_MONEY = new RegExp(`\\bmost\\s+(${RESOURCES})\\b`, 'gi');
const resourceMeasures = (list: string): (keyof typeof MEASURES)[] => [
  ...new Set(
    list
      .split(/,\s*and\s+|,\s*|\s+and\s+/)
      .map((r): keyof typeof MEASURES =>
        /ram|memory/i.test(r) ? 'ramPerDollar' : /vcpu|core/i.test(r) ? 'vcpuPerDollar' : 'diskPerDollar',
      ),
  ),
];

/** The superlatives in a sentence: the fixed phrases above, and resources "for the money" (one measure per resource named). */
function superlativesIn(sentence: string): { measure: keyof typeof MEASURES; m: RegExpMatchArray }[] {
  const fixed = SUPERLATIVES.flatMap(({ measure, re }) => [...sentence.matchAll(re)].map((m) => ({ measure, m })));
  const perMoney = PER_MONEY.test(sentence)
    ? [...sentence.matchAll(MOST_PER_MONEY)].flatMap((m) => resourceMeasures(m[1]).map((measure) => ({ measure, m })))
    : [];
  return [...fixed, ...perMoney];
}

function checkSuperlatives(sentence: string, prose: Prose): Finding[] {
  const found: Finding[] = [];
  {
    for (const { measure, m } of superlativesIn(sentence)) {
      if (HEDGE.test(sentence.slice(0, m.index!)) || WISH.test(sentence.slice(0, m.index!))) continue;
      const scope = scopeOf(sentence, prose.where);
      const subject = subjectAt(sentence, m.index!, prose);
      if (!scope || !subject || !scope.ids.includes(subject)) continue;
      const regions = measure === 'locations' ? REGION_WORDS.find(([w]) => w.test(m[0]))?.[1] : undefined;
      const value = (id: string) =>
        measure === 'locations' ? locationsIn(byId.get(id), regions) : MEASURES[measure].value(byId.get(id));
      const { higherIsBetter, label, unit } = MEASURES[measure];
      const mine = value(subject);
      const rivals = scope.ids
        .filter((id) => id !== subject)
        .map((id) => ({ id, v: value(id) }))
        .filter((r) => r.v !== undefined);
      const beaten = rivals.filter((r) => mine === undefined || (higherIsBetter ? r.v! > mine : r.v! < mine));
      if (beaten.length) {
        found.push({
          kind: 'comparison',
          where: prose.where,
          claim: `"${m[0]}" (${byId.get(subject).name}, among ${scope.label}): ${sentence}`,
          fact: `${label}${regions ? ` in ${regions.join(', ')}` : ''}: ${byId.get(subject).name} ${fmt(mine)} ${unit}, but ${beaten.map((r) => `${byId.get(r.id).name} ${fmt(r.v)}`).join(', ')}`,
        });
      }
    }
  }
  return found;
}

/**
 * "<A>'s entry dedicated plan costs less than <B>'s", "more locations than <B>", "more RAM per euro than
 * the US clouds' dedicated plans": both sides named, the measure read from the words.
 */
const COMPARATIVE = new RegExp(
  `\\b(cheaper|costs?\\s+less|undercuts?|more\\s+${RESOURCES}\\s+(?:per|for\\s+the)\\s+(?:euro|dollar|money)|more\\s+locations|fewer\\s+locations|more\\s+expensive|costs?\\s+more)\\s+than\\s+(?:those\\s+of\\s+|that\\s+of\\s+)?(?:the\\s+|any\\s+)?([A-Z][A-Za-z]+|US\\s+(?:developer\\s+)?clouds|European\\s+(?:providers|hosts)|anyone(?:\\s+else)?|any\\s+other\\s+(?:provider|host))`,
  'g',
);

function checkComparatives(sentence: string, prose: Prose): Finding[] {
  const found: Finding[] = [];
  for (const m of sentence.matchAll(COMPARATIVE)) {
    const clause = sentence
      .slice(0, m.index!)
      .split(/[;:]|,\s+(?:and|but|while|though)\s+/)
      .pop()!;
    const verb = m[1].toLowerCase();
    let measures: (keyof typeof MEASURES)[] = [];
    if (/locations/.test(verb)) measures = ['locations'];
    else if (/^more\s/.test(verb) && !/expensive/.test(verb))
      measures = resourceMeasures(verb.replace(/^more\s+/, '').replace(/\s+(?:per|for\s+the)\s+\w+$/, ''));
    else if (/\bdedicated\b/i.test(clause) && /\b(?:entry|cheapest|start)/i.test(clause)) measures = ['dedicatedEntry'];
    else if (/\b(?:entry|cheapest|smallest)\b/i.test(clause)) measures = ['entryPrice'];
    for (const measure of measures) found.push(...compareTwo(sentence, prose, m, clause, measure));
  }
  return found;
}

function compareTwo(
  sentence: string,
  prose: Prose,
  m: RegExpMatchArray,
  clause: string,
  measure: keyof typeof MEASURES,
): Finding[] {
  const found: Finding[] = [];
  const verb = m[1].toLowerCase();
  {
    const subject = subjectAt(clause, clause.length, prose);
    const other = IS_NAME.test(m[2])
      ? [idOfName(m[2])]
      : /US/.test(m[2])
        ? allIds().filter((id) => hq(byId.get(id)) === 'US')
        : /European/.test(m[2])
          ? allIds().filter((id) => EUROPEAN.has(hq(byId.get(id))))
          : /anyone|any other/i.test(m[2]) && subject
            ? allIds().filter((id) => id !== subject)
            : undefined;
    if (!subject || !other?.length || other.includes(subject)) return found;
    const filter =
      /\bdedicated\b/i.test(clause) || /\bdedicated\b/i.test(sentence.slice(m.index!, m.index! + m[0].length + 30))
        ? dedicated
        : undefined;
    const { value, label, unit } = MEASURES[measure];
    const mine = value(byId.get(subject), filter);
    const better = /cheaper|less|undercut/.test(verb) || (/^more\s/.test(verb) && !/expensive/.test(verb));
    const lowerWins = !MEASURES[measure].higherIsBetter;
    const wrong = other
      .map((id) => ({ id, v: value(byId.get(id), filter) }))
      .filter((r) => r.v !== undefined && mine !== undefined)
      .filter((r) => {
        const subjectBetter = lowerWins ? mine! < r.v! : mine! > r.v!;
        return better ? !subjectBetter : subjectBetter;
      });
    if (wrong.length) {
      found.push({
        kind: 'comparison',
        where: prose.where,
        claim: `"${m[0]}" (${byId.get(subject).name}): ${sentence}`,
        fact: `${label}${filter ? ' (dedicated-CPU plans)' : ''}: ${byId.get(subject).name} ${fmt(mine)} ${unit}; ${wrong.map((r) => `${byId.get(r.id).name} ${fmt(r.v)}`).join(', ')}`,
      });
    }
  }
  return found;
}

/**
 * "Shared and Dedicated plans with the same RAM have the same disk and transfer", "keeps the same disk and
 * transfer as the matching shared plan": every shared plan and dedicated plan of the provider with equal
 * RAM must have equal disk (and transfer, when the sentence says so). A bound the sentence states is
 * honoured: "up to 96 GB" (of RAM) or "at all but the largest size" (every pair but the one with most RAM).
 */
const SAME_DISK = /\bsame\s+(?:disk|storage)(\s+and\s+(?:transfer|traffic|bandwidth))?\b/i;
const UP_TO = /\bup\s+to\s+(\d+)\s*GB\b/i;
const ALL_BUT_LARGEST = /\ball\s+but\s+the\s+(?:largest|biggest)\b/i;

function checkSameDisk(sentence: string, prose: Prose): Finding[] {
  const m = SAME_DISK.exec(sentence);
  if (!m || !/\bshared\b/i.test(sentence) || !/\bdedicated\b/i.test(sentence)) return [];
  const subject = subjectAt(sentence, m.index, prose);
  const p = subject && byId.get(subject);
  if (!p) return [];
  const plans = soldPlans(p);
  const pairs = plans
    .filter((s) => s.cpuType === 'shared')
    .flatMap((s) => plans.filter((d) => dedicated(d) && gigabytes(d.ram) === gigabytes(s.ram)).map((d) => ({ s, d })));
  const largest = Math.max(...pairs.map(({ s }) => gigabytes(s.ram)!));
  const bound = UP_TO.exec(sentence.slice(m.index));
  const differ = pairs
    .filter(
      ({ s }) =>
        (!bound || gigabytes(s.ram)! <= Number(bound[1])) &&
        (!ALL_BUT_LARGEST.test(sentence) || gigabytes(s.ram)! < largest),
    )
    .filter(({ s, d }) => gigabytes(s.storage) !== gigabytes(d.storage) || (m[1] && s.bandwidth !== d.bandwidth));
  return differ.length
    ? [
        {
          kind: 'comparison',
          where: prose.where,
          claim: `"${m[0]}" between ${p.name}'s shared and dedicated plans: ${sentence}`,
          fact: differ
            .map(({ s, d }) => `${s.name} ${s.storage}, ${s.bandwidth} vs ${d.name} ${d.storage}, ${d.bandwidth}`)
            .join('; '),
        },
      ]
    : [];
}

export function checkComparisons(prose: Prose): Finding[] {
  return sentencesOf(prose.text).flatMap((s) => [
    ...checkSuperlatives(s, prose),
    ...checkComparatives(s, prose),
    ...checkSameDisk(s, prose),
  ]);
}

// ---------------------------------------------------------------------------------------------------
// 2. Counts
// ---------------------------------------------------------------------------------------------------

/** Words after a count that make it a count of providers. */
const PROVIDER_NOUN =
  /^(?:\s+(other\s+)?(?:(?:[A-Z][a-z]+|US|EU|budget|developer|value|big|large|small)\s+){0,2}(?:providers|hosts|clouds|companies|platforms|vendors)\b)/;
/** Words after a bare count ("of the four here", "all three sell") that show no noun follows. */
const BARE =
  /^(?:\s*(?:[,.;:!?)—–]|$)|\s+(?:here|we|of|are|is|have|has|had|sell|sells|offer|offers|bill|include|includes|hold|stand|stands|charge|give|gives|use|run|cover|covers|differ|also|share|let|make|can|will|do|does|were|was|come|start|publish|support|keep|look|make|need|put|rely|ask|let|in|on|for|to|at|by|with|and|or|but|so)\b)/i;
/** Qualifiers that make a count of a subset, with the subset. */
const SUBSETS: [RegExp, (p: any) => boolean][] = [
  [/\bUS\b|\bAmerican\b/, (p) => hq(p) === 'US'],
  [/\bEuropean\b|\bEU\b/, (p) => EUROPEAN.has(hq(p))],
];

function checkProviderCounts(sentence: string, prose: Prose, providerProse: boolean): Finding[] {
  const found: Finding[] = [];
  // "of the four", "among these three", "all three", "all the eight", "the eight", "these three" (never "out of 5").
  const re = new RegExp(
    `\\b(?:(?:of|among)\\s+(?:the|these|those)|all(?:\\s+the)?|the|these|those)\\s+(${NUMBER})\\b`,
    'gi',
  );
  for (const m of sentence.matchAll(re)) {
    const n = numberOf(m[1]);
    if (n <= 2) continue;
    const after = sentence.slice(m.index! + m[0].length);
    const noun = PROVIDER_NOUN.exec(after);
    const bare = !noun && BARE.test(after);
    if (!noun && !bare) continue;
    // A bare count is about providers only where the text is about them: provider prose, or a sentence naming one.
    if (bare && !providerProse && mentions(sentence).length === 0) continue;
    const phrase = m[0] + (noun ? noun[0] : '');
    const subset = noun ? SUBSETS.find(([w]) => w.test(noun[0])) : undefined;
    const scope = comparisonScope(prose.where);
    // A qualified count ("the three European hosts") is the size of that subset, or of the comparison when all its providers qualify.
    const allowed = new Set<number>(
      subset
        ? [
            providers.filter(subset[1]).length,
            ...(scope && scope.every((id) => subset[1](byId.get(id))) ? [scope.length] : []),
          ]
        : [providers.length, ...(scope ? [scope.length] : [])],
    );
    if (bare && scope && !/\b(?:we|here|dataset)\b/.test(after.slice(0, 20))) {
      allowed.clear();
      allowed.add(scope.length);
    }
    // "the seven other providers": all but the one the sentence is about.
    const expected = [...allowed].map((k) => (noun?.[1] ? k - 1 : k));
    if (!expected.includes(n)) {
      found.push({
        kind: 'count',
        where: prose.where,
        claim: `"${phrase.trim()}": ${sentence}`,
        fact: `${expected.join(' or ')} ${noun?.[1] ? 'other ' : ''}${subset ? 'such providers' : scope ? 'providers in this comparison (or in the dataset)' : 'providers in the dataset'}`,
      });
    }
  }
  return found;
}

/** "32 locations", "around 30 regions", "Ten locations across ...", "three European data centers". */
const LOCATION_COUNT = new RegExp(
  `\\b(?:(around|about|roughly|nearly|almost|over|more than|some|just over|under|fewer than)\\s+)?(${NUMBER})\\s+(?:(European|US|North American|South American|Latin American|Asian|Asia-Pacific|American)\\s+)?(locations|data\\s?cent(?:er|re)s|regions|cities)\\b`,
  'gi',
);

function checkLocationCounts(sentence: string, prose: Prose): Finding[] {
  const found: Finding[] = [];
  for (const m of sentence.matchAll(LOCATION_COUNT)) {
    const n = numberOf(m[2]);
    // One or two locations is mostly a generic setup ("two data centers in the same city", "one or two US locations" of a plan line).
    if (n <= 2 || /\bone or\s*$/i.test(sentence.slice(0, m.index!))) continue;
    const subject = subjectAt(sentence, m.index!, prose);
    if (!subject) continue;
    const regions = m[3] ? REGION_WORDS.find(([w]) => w.test(m[3]))?.[1] : undefined;
    const actual = locationsIn(byId.get(subject), regions);
    const q = (m[1] ?? '').toLowerCase();
    const ok = /around|about|roughly|nearly|almost/.test(q)
      ? Math.abs(actual - n) <= Math.max(2, 0.1 * n)
      : /over|more than|just over/.test(q)
        ? actual > n
        : /under|fewer than/.test(q)
          ? actual < n
          : q === 'some'
            ? Math.abs(actual - n) <= Math.max(2, 0.1 * n)
            : actual === n;
    if (!ok) {
      found.push({
        kind: 'count',
        where: prose.where,
        claim: `"${m[0]}" (${byId.get(subject).name}): ${sentence}`,
        fact: `${byId.get(subject).name} has ${actual} ${regions ? `${regions.join(', ')} ` : ''}datacenters in the data`,
      });
    }
  }
  return found;
}

/** "all four plans", "Only four plans": the provider's plans still sold. */
const PLAN_COUNT = new RegExp(
  `\\b(?:(all|only|its)\\s+)?(${NUMBER})\\s+(?:VPS\\s+)?(plans|plan sizes|server types)\\b`,
  'gi',
);

function checkPlanCounts(sentence: string, prose: Prose): Finding[] {
  const found: Finding[] = [];
  for (const m of sentence.matchAll(PLAN_COUNT)) {
    const n = numberOf(m[2]);
    // Without "all", "only" or "its" a number of plans is a selection ("two plans with identical specs"), not the range.
    if (!m[1] || n <= 1) continue;
    const subject = subjectAt(sentence, m.index!, prose);
    if (!subject) continue;
    const actual = soldPlans(byId.get(subject)).length;
    if (actual !== n) {
      found.push({
        kind: 'count',
        where: prose.where,
        claim: `"${m[0]}" (${byId.get(subject).name}): ${sentence}`,
        fact: `${byId.get(subject).name} has ${actual} plans still sold in the data`,
      });
    }
  }
  return found;
}

/** Prose about providers (not a tutorial): providers.json, use cases, editorial inputs, generated guides. */
const isProviderProse = (where: string) =>
  !/^guides\//.test(where) ||
  comparisonScope(where) !== undefined ||
  /-(?:review|alternatives)\.md$|^guides\/(?:best|most)-/.test(where);

export function checkCounts(prose: Prose): Finding[] {
  const providerProse = isProviderProse(prose.where);
  return sentencesOf(prose.text).flatMap((s) => [
    ...checkProviderCounts(s, prose, providerProse),
    ...checkLocationCounts(s, prose),
    ...checkPlanCounts(s, prose),
  ]);
}

// ---------------------------------------------------------------------------------------------------
// 3. Existence
// ---------------------------------------------------------------------------------------------------

/** Features prose names, as featureDetails keys; "dedicated cores" is a property of plans. */
const FEATURES: [RegExp, string][] = [
  [/\bmanaged Kubernetes\b|\bKubernetes service\b/i, 'managedKubernetes'],
  [/\bobject storage\b/i, 'objectStorage'],
  [/\bhourly billing\b|\bbill(?:s|ed)? by the hour\b/i, 'hourlyBilling'],
  [/\bDDoS (?:protection|mitigation|filtering)\b/i, 'ddosProtection'],
  [/\bautomated backups\b/i, 'automatedBackups'],
  [/\bsnapshots\b/i, 'snapshots'],
  [/\bIPv6\b/, 'ipv6'],
];
const DEDICATED_CORES = /\bdedicated(?:[- ](?:CPU|vCPU|cores?|core VDS))\b|\bdedicated cores\b/i;

type Requirement = { label: string; test: (provider: any) => boolean };

/** What "X" is in "has X": a quantity of disk, RAM, vCPU or transfer, a feature, or dedicated cores. */
function requirementIn(text: string): Requirement | undefined {
  const quantity =
    /(\d+(?:\.\d+)?)\s*(TB|GB)\s+(?:of\s+)?(disk|storage|NVMe|SSD|RAM|memory|traffic|transfer|bandwidth)\b/i.exec(text);
  if (quantity) {
    const gb = Number(quantity[1]) * (quantity[2].toUpperCase() === 'TB' ? 1000 : 1);
    const what = quantity[3].toLowerCase();
    const field = /ram|memory/.test(what) ? 'ram' : /traffic|transfer|bandwidth/.test(what) ? 'bandwidth' : 'storage';
    return {
      label: `a plan with at least ${quantity[1]} ${quantity[2]} of ${field}`,
      test: (p) =>
        soldPlans(p).some((plan) => (field === 'bandwidth' && unmetered(plan)) || (gigabytes(plan[field]) ?? 0) >= gb),
    };
  }
  const cores = /(\d+)\s*(?:vCPUs?|cores)\b/i.exec(text);
  if (cores && !DEDICATED_CORES.test(text))
    return {
      label: `a plan with at least ${cores[1]} vCPU`,
      test: (p) => soldPlans(p).some((plan) => vcpusOf(plan) >= Number(cores[1])),
    };
  const feature = FEATURES.find(([w]) => w.test(text));
  if (feature)
    return {
      label: `${feature[1]} (featureDetails)`,
      test: (p) => !!p.featureDetails?.[feature[1]] && p.featureDetails[feature[1]].status !== 'unavailable',
    };
  if (DEDICATED_CORES.test(text)) return { label: 'dedicated-CPU plans', test: (p) => soldPlans(p).some(dedicated) };
  return undefined;
}

const WHERE_IN = `(?:\\s+(?:in\\s+(?:the|this)\\s+dataset|here|we\\s+(?:track|review)|listed|(?:of|from|at)\\s+(?:these|the\\s+recommended|the\\s+listed)\\s+providers))?`;
const HAS = `(?:has|have|offers?|sells?|includes?|comes?\\s+with|reaches?|goes\\s+up\\s+to|tops?\\s+out\\s+at)`;
/** "No VPS in the dataset has X", "none of the providers offers X", "no plan of these providers has X". */
const NONE_HAS = new RegExp(
  `\\b(?:no|none\\s+of\\s+the|not\\s+one|not\\s+a\\s+single)\\s+(?:VPS|plans?|providers?|servers?|hosts?|clouds?)${WHERE_IN}\\s+${HAS}\\s+([^.;:]{0,80})`,
  'gi',
);
/** "4 TB of disk is more than any plan of these providers has". */
const MORE_THAN_ANY = new RegExp(
  `(\\d+(?:\\.\\d+)?\\s*(?:TB|GB)\\s+of\\s+\\w+|\\d+\\s*(?:vCPUs?|cores))\\s+(?:is|are)\\s+(?:more|larger|bigger)\\s+than\\s+any\\s+(?:VPS|plan|provider|server)${WHERE_IN}\\s+${HAS}`,
  'gi',
);
const ONLY_NAMED = new RegExp(
  `\\b[Oo]nly\\s+(${Object.values(ALIASES).flat().join('|')})\\s+(?:sells|offers|has|includes|gives|provides)\\s+([^.;:]{0,80})`,
  'g',
);
const THE_ONLY = new RegExp(`\\bthe\\s+only\\s+(?:one|provider|host|cloud)\\b(?:\\s+of\\s+the\\s+${NUMBER})?`, 'gi');

/** The providers "these providers" means in a use case's note: the ones it recommends. */
function recommendedScope(where: string): string[] | undefined {
  const slug = /^use-cases\.json ([a-z0-9-]+)[. ]/.exec(where)?.[1];
  return useCases.find((u) => u.slug === slug)?.recommendedProviders.map((r: any) => r.id);
}

function checkNone(sentence: string, prose: Prose): Finding[] {
  const found: Finding[] = [];
  const claims = [
    ...[...sentence.matchAll(NONE_HAS)].map((m) => ({ phrase: m[0], x: m[1] })),
    ...[...sentence.matchAll(MORE_THAN_ANY)].map((m) => ({ phrase: m[0], x: m[1] })),
  ];
  for (const { phrase, x } of claims) {
    const req = requirementIn(x);
    if (!req) continue;
    const these = /\b(?:these|the recommended|the listed) providers\b/i.test(phrase)
      ? (recommendedScope(prose.where) ?? comparisonScope(prose.where))
      : undefined;
    const scope =
      these ??
      (comparisonScope(prose.where) && !/dataset|we track|we review|here/i.test(phrase)
        ? comparisonScope(prose.where)!
        : allIds());
    const having = scope.filter((id) => req.test(byId.get(id)));
    if (having.length) {
      found.push({
        kind: 'existence',
        where: prose.where,
        claim: `"${phrase.trim()}": ${sentence}`,
        fact: `${req.label}: ${having.map((id) => byId.get(id).name).join(', ')} ${having.length === 1 ? 'has' : 'have'} one`,
      });
    }
  }
  return found;
}

function checkOnly(sentence: string, prose: Prose): Finding[] {
  const claims: { subject: string; phrase: string; rest: string }[] = [];
  for (const m of sentence.matchAll(ONLY_NAMED)) claims.push({ subject: idOfName(m[1]), phrase: m[0], rest: m[2] });
  for (const m of sentence.matchAll(THE_ONLY)) {
    const subject = subjectAt(sentence, m.index!, prose);
    // "the only one ... that offers it": the feature can be anywhere in the sentence (a list item's heading).
    if (subject) claims.push({ subject, phrase: m[0], rest: sentence });
  }
  const found: Finding[] = [];
  for (const { subject, phrase, rest } of claims) {
    const req = requirementIn(rest);
    const scope =
      comparisonScope(prose.where) ??
      (/\bwe\s+(?:track|review)|\bhere\b|dataset/i.test(sentence) ? allIds() : undefined);
    if (!req || !scope) continue;
    const others = scope.filter((id) => id !== subject && req.test(byId.get(id)));
    const lacks = !req.test(byId.get(subject));
    if (others.length || lacks) {
      found.push({
        kind: 'existence',
        where: prose.where,
        claim: `"${phrase}" (${byId.get(subject).name}, ${req.label}): ${sentence}`,
        fact: [
          lacks ? `${byId.get(subject).name} has none` : '',
          others.length
            ? `${others.map((id) => byId.get(id).name).join(', ')} also ${others.length === 1 ? 'has' : 'have'} it`
            : '',
        ]
          .filter(Boolean)
          .join('; '),
      });
    }
  }
  return found;
}

export function checkExistence(prose: Prose): Finding[] {
  return sentencesOf(prose.text).flatMap((s) => [...checkNone(s, prose), ...checkOnly(s, prose)]);
}

// ---------------------------------------------------------------------------------------------------
// 4. Retired products
// ---------------------------------------------------------------------------------------------------

/**
 * Plan identifiers per provider, as their APIs, consoles and Terraform providers spell them:
 * - hetzner: server types cx23, cax11, cpx22, ccx13 (two digits after the family letters);
 * - digitalocean: size slugs s-1vcpu-1gb, s-2vcpu-4gb-amd, g-2vcpu-8gb, m-2vcpu-16gb (the CPU-Optimized
 *   c-2 slugs are too short to tell from other text and are not matched);
 * - vultr: plan ids vc2-1c-1gb, vhp-1c-1gb-amd, vhf-1c-1gb, vdc-..., voc-c-1c-2gb-25s-amd, vx1-...;
 * - linode: type ids g6-nanode-1, g6-standard-2, g6-dedicated-4, g7-dedicated-8-4, g7-highmem-...;
 * - upcloud: plan names 1xCPU-1GB, STARTER-1xCPU-1GB, PREMIUM-2xCPU-4GB, DEV-1xCPU-1GB-10GB, HICPU-..., HIMEM-...;
 * - ovhcloud: plan names VPS-1 ... VPS-6, with the range year when there is one ("VPS-1 2027"), and
 *   catalogue codes vps-2025-model1, vps-le-2-2-40, vps-starter-1-2-20, vps-value-1-2-40 and the like.
 * An identifier is sold when it equals (case-insensitively) the providerPlanId or the name of a plan whose
 * line is not discontinued. A bare "VPS-1" to "VPS-4" is therefore sold (the 2027 range's plans have those
 * names); "VPS-5" and "VPS-6" are only in the discontinued 2025 range.
 */
export const PLAN_ID_PATTERNS: Record<string, RegExp> = {
  hetzner: /\b(?:cx|cax|cpx|ccx)\d{2}\b/gi,
  digitalocean: /\b[sgm]-\d+vcpu-\d+(?:gb|mb)(?:-[a-z0-9]+)*\b/gi,
  vultr: /\bv(?:c2|hp|hf|dc|oc|x1)-(?:[a-z0-9.]+-)*[a-z0-9.]*\d[a-z0-9.]*\b/gi,
  linode: /\bg\d-(?:nanode|standard|dedicated|highmem|gpu|premium)-\d+(?:-\d+)?\b/gi,
  upcloud: /(?<![\w-])(?:(?:STARTER|PREMIUM|DEV|HICPU|HIMEM|CLOUDNATIVE)-)?\d+xCPU-\d+GB(?:-\d+GB)?(?![\w-])/gi,
  ovhcloud:
    /\bVPS-\d+(?: 20\d\d)?(?![\w-])|\bvps-(?:20\d\d-model\d+|(?:le|starter|value|essential|comfort|elite)-\d+(?:-\d+)*|ssd-\d+|cloud-\d+)\b/gi,
};

/** A sentence that says the identifier is no longer sold. */
const RETIRED_WORDS =
  /\b(?:retired|discontinued|old|older|previous|former|formerly|replaced|replaces|replacing|legacy|no longer|withdrawn|superseded|successor|earlier|renamed)\b/i;

/**
 * The identifiers of the plans a provider still sells, lower-cased. A name the data qualifies with its
 * range year ("VPS-1 2027", where OVHcloud's own name is "VPS-1") also counts without the year.
 */
const soldIdCache = new Map<string, Set<string>>();
function soldIds(provider: any): Set<string> {
  if (!soldIdCache.has(provider.id)) {
    const ids = soldPlans(provider).flatMap((plan) => [
      plan.name,
      plan.name.replace(/\s+20\d\d$/, ''),
      plan.providerPlanId,
    ]);
    soldIdCache.set(provider.id, new Set(ids.filter(Boolean).map((s: string) => s.toLowerCase())));
  }
  return soldIdCache.get(provider.id)!;
}

export function checkRetiredIds(prose: Prose): Finding[] {
  const found: Finding[] = [];
  // Code blocks count (a Terraform file or cloud-init example is where ids live); each code line is its own unit.
  for (const unit of sentencesOf(prose.text, true)) {
    if (RETIRED_WORDS.test(unit)) continue;
    for (const [id, pattern] of Object.entries(PLAN_ID_PATTERNS)) {
      if (!byId.has(id)) continue;
      const sold = soldIds(byId.get(id));
      for (const m of unit.matchAll(pattern)) {
        if (sold.has(m[0].toLowerCase())) continue;
        found.push({
          kind: 'retired-id',
          where: prose.where,
          claim: `${byId.get(id).name} plan "${m[0]}": ${unit.slice(0, 200)}`,
          fact: `not a plan ${byId.get(id).name} sells in the data (sold: ${[...sold]
            .filter((s) => !/\s/.test(s))
            .slice(0, 6)
            .join(', ')}...)`,
        });
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------

export const CHECKERS: Record<ClaimKind, (prose: Prose) => Finding[]> = {
  comparison: checkComparisons,
  count: checkCounts,
  existence: checkExistence,
  'retired-id': checkRetiredIds,
};

export const checkAll = (corpus: Prose[]): Finding[] =>
  corpus.flatMap((p) => Object.values(CHECKERS).flatMap((check) => check(p)));
