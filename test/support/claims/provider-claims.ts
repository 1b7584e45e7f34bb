import { providers as dataProviders, type Prose } from '../prose-corpus.js';

/*
 * Claims prose makes about one provider, read from the sentence and checked against that provider's
 * data (test/support/raw-data.ts, read straight from the files):
 *
 * - transfer: a traffic allowance ("20 TB of traffic", "up to 32 TB", "unmetered", a traffic cap)
 *   against the plans' `bandwidth`;
 * - price: "starts at $N", "from $N", "costs $N", "for $N a month" about a provider or a plan line
 *   against the lowest price of the plans the sentence restricts to;
 * - support: "24/7", "around the clock", "phone", "live chat", "email", "tickets" against `support`
 *   and `supportChannels`; an SLA or uptime percentage against `uptime` and the lines' `uptime`;
 * - feature: "snapshots / backups / IPv4 / DDoS protection included (or free)" against
 *   `addOns.*.status` and `featureDetails.*.status`.
 *
 * The provider a claim is about is the provider named nearest before it in the same sentence; when
 * the sentence names none, the one provider the paragraph has named so far, else the provider the
 * whole text is about (Prose.providerId). A sentence about no provider makes no provider claim.
 */

export type ClaimKind = 'transfer' | 'price' | 'support' | 'sla' | 'feature';

export interface ProviderClaim {
  kind: ClaimKind;
  where: string;
  providerId: string;
  /** The words the claim was read from. */
  quote: string;
  /** Why the data does not bear the claim out; absent when it does. */
  wrong?: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---------------------------------------------------------------------------------------------
// Reading the text: sentences, clauses, the provider a claim is about

/** Markdown and JSON prose reduced to plain words: links keep their text, emphasis marks go. */
const plain = (text: string) => text.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\*\*|__|`/g, '');

/** Clauses of a sentence: split at ; and : and dashes, at commas outside parentheses, and before but / while / whereas. */
export function clauses(sentence: string): { text: string; start: number }[] {
  const cuts: { text: string; start: number }[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < sentence.length; i++) {
    const c = sentence[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    const rest = sentence.slice(i);
    const boundary =
      (depth === 0 && (c === ';' || (c === ':' && /^:\s/.test(rest)) || (c === ',' && !/^,\d/.test(rest)))) ||
      /^ (?:—|–|-) /.test(rest) ||
      /^ (?:but|while|whereas|although|though) /.test(rest);
    if (boundary) {
      cuts.push({ text: sentence.slice(start, i), start });
      start = i + 1;
    }
  }
  cuts.push({ text: sentence.slice(start), start });
  return cuts.filter((c) => c.text.trim());
}

/** How prose names each provider: its name, the name without the parenthesis, and the name inside it ("Akamai Cloud", "Akamai"). */
function aliasesOf(provider: any): string[] {
  const name: string = provider.name;
  const outer = name.replace(/\s*\(.*\)\s*/, '').trim();
  const inner = /\(([^)]+)\)/.exec(name)?.[1];
  const names = [name, outer, ...(inner ? [inner, inner.split(' ')[0]] : [])];
  return [...new Set(names)].sort((a, b) => b.length - a.length);
}

interface Mention {
  id: string;
  index: number;
}

const mentionCache = new WeakMap<object, RegExp>();
export function providerMentions(sentence: string, providers: any[] = dataProviders): Mention[] {
  const mentions: Mention[] = [];
  for (const p of providers) {
    let pattern = mentionCache.get(p);
    if (!pattern)
      mentionCache.set(
        p,
        (pattern = new RegExp(`(?<![\\w/.-])(?:${aliasesOf(p).map(escape).join('|')})(?![\\w-]|\\.com)`, 'g')),
      );
    for (const m of sentence.matchAll(pattern)) mentions.push({ id: p.id, index: m.index! });
  }
  return mentions.sort((a, b) => a.index - b.index);
}

/** A sentence with the provider each position in it is about. */
export interface Sentence {
  text: string;
  /** The provider a claim at `index` is about, given the clause it sits in. */
  subjectAt(index: number, clause?: { text: string; start: number }): string | undefined;
}

/** A markdown heading; a section whose heading says what "we would change" lists wishes, not facts. */
const HEADING = /^\s*#{1,6}\s+(.*)$/;
const WISHES = /\bwould change\b|\bwish list\b/i;

/**
 * The sentences of a text, each knowing which provider a claim at a given position is about. A
 * sentence that names no provider falls back on the one provider its paragraph has named so far,
 * else the provider its section heading names ("### Linode (Akamai Cloud)"), else Prose.providerId.
 */
const sentenceCache = new WeakMap<Prose, Sentence[]>();
export function sentencesOf(prose: Prose, providers: any[] = dataProviders): Sentence[] {
  const cached = providers === dataProviders ? sentenceCache.get(prose) : undefined;
  if (cached) return cached;
  const out: Sentence[] = [];
  if (providers === dataProviders) sentenceCache.set(prose, out);
  let section: string | undefined = prose.providerId;
  let wishes = false;
  for (const line of plain(prose.text).split(/\n+/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      const named = [...new Set(providerMentions(heading[1], providers).map((m) => m.id))];
      section = named.length === 1 ? named[0] : prose.providerId;
      wishes = WISHES.test(heading[1]);
      continue;
    }
    if (wishes) continue;
    const named = new Set<string>();
    for (const text of line.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(€$£])/).filter((x) => x.trim())) {
      const mentions = providerMentions(text, providers);
      const fallback = named.size === 1 ? [...named][0] : named.size === 0 ? section : undefined;
      out.push({
        text,
        subjectAt: (index, clause) => {
          const before = mentions.filter((m) => m.index <= index);
          if (!clause) return before.pop()?.id ?? fallback;
          // Named in the clause itself, before the claim: "..., while OVHcloud's is slow".
          const inClause = before.filter((m) => m.index >= clause.start).pop();
          if (inClause) return inClause.id;
          // A relative clause is about the noun just before it: "UpCloud's Premium line, which includes ...".
          if (/^\s*(?:which|that|who|whose|where)\b/i.test(clause.text)) return before.pop()?.id ?? fallback;
          // Otherwise the subject of that part of the sentence (from the last semicolon), the provider it names first:
          // "Hetzner handles tickets, email and phone"; "Choose Linode when you need ..., or when ...".
          const part = text.lastIndexOf(';', clause.start) + 1;
          return (before.find((m) => m.index >= part) ?? before[0])?.id ?? fallback;
        },
      });
      mentions.forEach((m) => named.add(m.id));
    }
  }
  return out;
}

/** True when a negation governs the words just before `index` in the clause ("no phone or live chat", "rather than included"). */
function negatedBefore(clause: string, index: number): boolean {
  const before = clause.slice(Math.max(0, index - 40), index);
  return /\b(?:no|not|nor|without|never|rather than|instead of|isn't|aren't|lacks?|lacking)\b[\w\s/'-]*$/i.test(before);
}

// ---------------------------------------------------------------------------------------------
// The data a claim is checked against

const byId = (providers: any[], id: string) => providers.find((p) => p.id === id);

/** Plan lines still sold (a discontinued line keeps its last prices but is no longer a fact about the provider). */
const soldLinesOf = new WeakMap<object, string[]>();
/** The ids of a provider's lines still sold (read once per provider record). */
function soldLines(provider: any): string[] {
  let ids = soldLinesOf.get(provider);
  if (!ids)
    soldLinesOf.set(provider, (ids = provider.planLines.filter((l: any) => !l.discontinued).map((l: any) => l.id)));
  return ids;
}

/** The words prose uses for a plan line: the parts of its name outside parentheses, the codes inside them ("CX"), and the common name stem of its plans ("CPU Optimized", "Cloud VPS", "KVM"). */
export function lineAliases(provider: any, line: any): string[] {
  const outside = line.name
    .replace(/\s*\([^)]*\)/g, '')
    .split(/,\s*/)
    .map((s: string) => s.replace(/\s+plans$/i, '').trim());
  const codes = [...line.name.matchAll(/\(([A-Z][A-Z0-9]+)\)/g)].map((m: RegExpMatchArray) => m[1]);
  const stems = provider.plans
    .filter((p: any) => p.line === line.id)
    .map((p: any) => /^([A-Za-z][A-Za-z -]*?)[\s-]*\d/.exec(p.name)?.[1]);
  const stem = stems.every((s: string | undefined) => s && s === stems[0]) ? [stems[0]] : [];
  const titled = stem.map((s: string) => (s === s.toUpperCase() && s.length > 3 ? s[0] + s.slice(1).toLowerCase() : s));
  return [...new Set([...outside, ...codes, ...stem, ...titled])].filter((a) => a.length >= 2 && /[A-Z]/.test(a));
}

const normalise = (s: string) => s.replace(/(?<=[A-Za-z])-(?=[A-Za-z])/g, ' ');

/** The plan lines a clause names (several when a word fits several, as Vultr's "Optimized Cloud Compute"). */
export function linesNamed(provider: any, clause: string): string[] {
  return [...new Set(lineMentions(provider, clause).map((m) => m.line))];
}

/** One pattern per plan line (its aliases, singular or plural, hyphens read as spaces), compiled once per provider. */
const linePatternCache = new WeakMap<object, { line: string; pattern: RegExp }[]>();
function linePatterns(provider: any): { line: string; pattern: RegExp }[] {
  let patterns = linePatternCache.get(provider);
  if (!patterns) {
    patterns = provider.planLines.map((line: any) => ({
      line: line.id,
      pattern: new RegExp(
        `(?<![\\w])(?:${lineAliases(provider, line)
          .map((a) => escape(normalise(a).replace(/s$/, '')))
          .sort((a, b) => b.length - a.length)
          .join('|')})s?(?![\\w])`,
        'g',
      ),
    }));
    linePatternCache.set(provider, patterns!);
  }
  return patterns!;
}

/** Where a sentence names each plan line of the provider. */
function lineMentions(provider: any, sentence: string): { line: string; index: number; end: number }[] {
  const text = normalise(sentence);
  return linePatterns(provider)
    .flatMap(({ line, pattern }) =>
      [...text.matchAll(pattern)].map((m) => ({ line, index: m.index!, end: m.index! + m[0].length })),
    )
    .sort((a, b) => a.index - b.index);
}

/**
 * The plan line a word at `index` of the sentence is about: inside parentheses, the line named just
 * before them ("Premium (MaxIOPS storage, a daily backup)"); else the first line its clause names
 * before it (the clause's subject); else the line named nearest before it in the sentence.
 */
export function lineAt(provider: any, sentence: string, index: number): string | undefined {
  const mentions = lineMentions(provider, sentence);
  const open = sentence.lastIndexOf('(', index);
  if (open >= 0 && sentence.indexOf(')', open) >= index) {
    const before = mentions.filter((m) => sentence.slice(m.end, open).trim() === '').pop();
    if (before) return before.line;
  }
  const clause = clauses(sentence)
    .filter((c) => c.start <= index)
    .pop();
  const end = clause ? clause.start + clause.text.length : index;
  const inClause =
    mentions.find((m) => clause && m.index >= clause.start && m.index < index) ??
    mentions.find((m) => m.index > index && m.index < end);
  return inClause?.line ?? mentions.filter((m) => m.index < index).pop()?.line;
}

/** Products prose may name that the dataset does not hold (bare metal, storage boxes): a claim in a sentence about one of them is not about the VPS plans. */
const OUTSIDE_THE_DATA =
  /\b(?:Storage Box(?:es)?|dedicated servers?|bare[- ]metal|server auction|Kimsufi|Eco (?:line|range)|Public Cloud|GPU (?:instances|servers)|object storage|Storage VPS)\b/i;

/** The plans of the provider a clause names by their full name. */
const planPatternCache = new WeakMap<object, { plan: any; pattern: RegExp }[]>();
function plansNamed(provider: any, clause: string): any[] {
  let patterns = planPatternCache.get(provider);
  if (!patterns) {
    patterns = provider.plans.map((plan: any) => ({
      plan,
      pattern: new RegExp(`(?<![\\w-])${escape(plan.name)}(?![\\w-]| /)`),
    }));
    planPatternCache.set(provider, patterns!);
  }
  return patterns!.filter(({ pattern }) => pattern.test(clause)).map(({ plan }) => plan);
}

const gb = (size: string) => {
  const m = /(\d+(?:\.\d+)?)\s?(TB|GB|MB)/i.exec(size);
  if (!m) return NaN;
  return Number(m[1]) * ({ TB: 1000, GB: 1, MB: 1 / 1024 } as Record<string, number>)[m[2].toUpperCase()];
};
const cores = (cpu: string) => Number(/(\d+)/.exec(cpu)?.[1]);

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, six: 6, eight: 8 };

/**
 * The plans a clause restricts a claim to: the lines or plans it names, "shared" or "dedicated",
 * a core count ("2 cores", "2-core", "2 vCPU"), a RAM size ("4 GB RAM", "2 vCPU / 4 GB"), a price
 * ("the $24 plan"). Without a line named, plans still sold; with one, that line's plans.
 */
export function plansRestrictedBy(
  provider: any,
  clause: string,
  options: { ignorePrice?: boolean } = {},
): { plans: any[]; restricted: string[] } {
  const restricted: string[] = [];
  const namedPlans = plansNamed(provider, clause);
  if (namedPlans.length) return { plans: namedPlans, restricted: namedPlans.map((p) => p.name) };
  const named = linesNamed(provider, clause);
  const sold = named.filter((l) => soldLines(provider).includes(l));
  const lines = sold.length ? sold : named;
  let plans = provider.plans.filter((p: any) =>
    lines.length ? lines.includes(p.line) : soldLines(provider).includes(p.line),
  );
  if (lines.length) restricted.push(`line ${lines.join('/')}`);
  const text = normalise(clause);
  if (/\bdedicated\b(?!\s+servers?\b)/i.test(text)) {
    plans = plans.filter((p: any) => p.cpuType === 'dedicated');
    restricted.push('dedicated');
  } else if (/\bshared\b/i.test(text)) {
    plans = plans.filter((p: any) => p.cpuType === 'shared');
    restricted.push('shared');
  }
  const core = /\b(\d+|one|two|three|four|six|eight)[\s-](?:cores?|v?CPUs?|vCores?)\b/i.exec(text);
  if (core) {
    const n = NUMBER_WORDS[core[1].toLowerCase()] ?? Number(core[1]);
    plans = plans.filter((p: any) => cores(p.cpu) === n);
    restricted.push(`${n} cores`);
  }
  const ram =
    /\b(\d+)\s?GB(?:\s+of)?\s+(?:RAM|memory)\b|\bv?CPUs?\s*\/\s*(\d+)\s?GB\b|\b(\d+)\s?GB\s+(?:plan|Droplet|Linode|instance|server|VPS)\b/i.exec(
      text,
    );
  if (ram) {
    const n = Number(ram[1] ?? ram[2] ?? ram[3]);
    plans = plans.filter((p: any) => gb(p.ram) === n);
    restricted.push(`${n} GB RAM`);
  }
  const price = options.ignorePrice
    ? null
    : /(?:[$€£]|EUR |USD )(\d+(?:\.\d+)?)(?: a month)? (?:shared |dedicated )?(?:plan|Droplet|server|instance)\b/.exec(
        text,
      );
  if (price) {
    plans = plans.filter((p: any) => [p.price, p.monthToMonthPrice, p.renewalPrice].includes(Number(price[1])));
    restricted.push(`priced ${price[1]}`);
  }
  return { plans, restricted };
}

// ---------------------------------------------------------------------------------------------
// Amounts of money

const SYMBOL: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP' };
/** "€3.49", "$24", "EUR 4.50", "3.49 EUR". */
export const AMOUNT =
  /(?:([€$£])\s?(\d+(?:\.\d{1,2})?))|(?:\b(EUR|USD|GBP)\s?(\d+(?:\.\d{1,2})?))|(?:(\d+(?:\.\d{1,2})?)\s?(EUR|USD|GBP)\b)/;
export function readAmount(m: RegExpExecArray | RegExpMatchArray): { value: number; currency: string } {
  if (m[1]) return { value: Number(m[2]), currency: SYMBOL[m[1]] };
  if (m[3]) return { value: Number(m[4]), currency: m[3] };
  return { value: Number(m[5]), currency: m[6] };
}

// ---------------------------------------------------------------------------------------------
// The checkers. Each reads every claim of its kind in a text and says which the data does not bear out.

type Checker = (prose: Prose, providers?: any[]) => ProviderClaim[];

/** Walks the clauses of every sentence, calling `read` with the clause and a way to find its subject. */
function eachClause(
  prose: Prose,
  providers: any[],
  read: (clause: string, sentence: string, subjectAt: (i: number) => string | undefined, start: number) => void,
) {
  for (const s of sentencesOf(prose, providers)) {
    // A sentence that lists what a comparison covers ("compared on price, unmetered traffic, support") names topics, not facts.
    if (/\bcompared?\s+(?:on|by)\b/i.test(s.text)) continue;
    for (const { c, owner } of claimClauses(s, providers))
      read(c.text, s.text, (i) => owner ?? s.subjectAt(c.start + i, c), c.start);
  }
}

/** Each sentence's clauses that can state a fact, with the provider whose plan a clause names; read once per sentence for every checker. */
const clausesOf = new WeakMap<
  Sentence,
  { providers: any[]; found: { c: { text: string; start: number }; owner: string | undefined }[] }
>();
function claimClauses(s: Sentence, providers: any[]) {
  const cached = clausesOf.get(s);
  if (cached?.providers === providers) return cached.found;
  const found = clauses(s.text)
    // A condition ("If you need phone support, ...") states a need, not a fact about a provider.
    .filter((c) => !/^\s*(?:if|when|unless|whether)\b/i.test(c.text))
    // A plan named in the clause says whose it is ("... undercut its entry plan: a 2 vCPU / 4 GB CX23 ...").
    .map((c) => ({ c, owner: providers.find((p) => plansNamed(p, c.text).length > 0)?.id as string | undefined }));
  clausesOf.set(s, { providers, found });
  return found;
}

/** True when the sentence is about a product the dataset does not hold and the clause names none of the provider's plan lines. */
const aboutOtherProducts = (provider: any, sentence: string, clause: string) =>
  OUTSIDE_THE_DATA.test(sentence) && linesNamed(provider, clause).length === 0;

const TRAFFIC = /\b(?:traffic|transfer|bandwidth|egress)\b/i;
const DISK_AFTER = /^\s*(?:of\s+)?(?:NVMe|SSD|HDD|disk|storage|hard|object|block|RAM|memory|Storage Box)/i;

/** A plan's allowance in TB, 'unmetered', or undefined (a fair-use allowance with no figure). */
export function allowanceOf(plan: any): number | 'unmetered' | undefined {
  if (/^unmetered/i.test(plan.bandwidth)) return 'unmetered';
  const m = /^(\d+(?:\.\d+)?)\s?(TB|GB)$/i.exec(plan.bandwidth.trim());
  return m ? Number(m[1]) / (m[2].toUpperCase() === 'GB' ? 1000 : 1) : undefined;
}
const showAllowances = (plans: any[]) => [...new Set(plans.map((p) => p.bandwidth))].join(', ') || 'no plan';

/** Transfer: a traffic figure, "unmetered"/"unlimited", or a traffic cap, against the plans' bandwidth. */
export const transferClaims: Checker = (prose, providers = dataProviders) => {
  const found: ProviderClaim[] = [];
  eachClause(prose, providers, (clause, sentence, subjectAt) => {
    if (!TRAFFIC.test(sentence)) return;
    const claim = (index: number, quote: string, verdict: (plans: any[]) => string | undefined) => {
      const id = subjectAt(index);
      if (!id) return;
      const provider = byId(providers, id);
      if (aboutOtherProducts(provider, sentence, clause)) return;
      const { plans, restricted } = plansRestrictedBy(provider, clause);
      const wrong = verdict(plans);
      found.push({
        kind: 'transfer',
        where: prose.where,
        providerId: id,
        quote: quote.trim(),
        wrong:
          wrong &&
          `${wrong} (${provider.name} plans${restricted.length ? ` restricted to ${restricted.join(', ')}` : ''}: ${showAllowances(plans)})`,
      });
    };
    // A figure: "20 TB of traffic", "up to 32 TB of outbound traffic", "1 TB or less of traffic", "5 TB on the $24 plan".
    for (const m of clause.matchAll(
      /(?:\b(up to|at least|over|more than)\s+)?\b(\d+(?:\.\d+)?)\s?(TB|GB)\b(?:\s+or\s+(less|more))?/gi,
    )) {
      const after = clause.slice(m.index! + m[0].length);
      if (DISK_AFTER.test(after)) continue;
      if (/^\s*(?:a|per)\s+(?:month|TB|GB)\b/i.test(after) && /[$€£]\s?$|EUR\s?$/.test(clause.slice(0, m.index!)))
        continue;
      if (/[$€£]\s?[\d.]+\s*(?:per|\/|a)\s*$/i.test(clause.slice(0, m.index!))) continue; // "€1 per TB"
      if (
        !/^\s*(?:(?:a|per) month\s+)?(?:of\s+)?(?:(?:outbound|outgoing|included|monthly|bundled|egress|free|inbound|EU)\s+)*(?:traffic|transfer|bandwidth|egress)\b/i.test(
          after,
        ) &&
        !/^\s+(?:on|with|for|in)\s+(?:the|a|its|every|each|all)\b/i.test(after)
      )
        continue;
      const tb = Number(m[2]) / (m[3].toUpperCase() === 'GB' ? 1000 : 1);
      const every = /\b(?:every|all|each)\b/i.test(clause);
      const smallest = /\b(?:smallest|cheapest|entry)\b/i.test(clause);
      claim(m.index!, m[0], (plans) => {
        const figures = plans.map(allowanceOf);
        if (!plans.length) return `${m[0]}: no plan matches`;
        const numbers = figures.filter((f): f is number => typeof f === 'number');
        if (m[1] && /up to/i.test(m[1]))
          return numbers.length && Math.max(...numbers) === tb && numbers.length === figures.length
            ? undefined
            : `"up to ${m[2]} ${m[3]}" but the largest allowance is not that`;
        if (m[4] === 'less') return numbers.some((n) => n <= tb) ? undefined : `"${m[0]}" but no plan has that little`;
        if (m[4] === 'more' || (m[1] && !/up to/i.test(m[1])))
          return numbers.some((n) => n >= tb) ? undefined : `"${m[0]}" but no plan has that much`;
        if (every)
          return figures.every((f) => f === tb) ? undefined : `"${m[0]}" on every plan but not every plan has it`;
        if (smallest) {
          const cheapest = [...plans].sort((a, b) => a.price - b.price)[0];
          return allowanceOf(cheapest) === tb
            ? undefined
            : `"${m[0]}" on the smallest plan but ${cheapest.name} has ${cheapest.bandwidth}`;
        }
        return figures.includes(tb) ? undefined : `"${m[0]}" but no plan has that allowance`;
      });
    }
    // "unmetered" / "unlimited" traffic: true of every plan the clause is about.
    for (const m of clause.matchAll(/\b(?:unmetered|unlimited)\b/gi)) {
      if (negatedBefore(clause, m.index!) || /["“”]/.test(clause.slice(Math.max(0, m.index! - 1), m.index!))) continue;
      claim(m.index!, m[0], (plans) =>
        plans.length && plans.every((p) => allowanceOf(p) === 'unmetered')
          ? undefined
          : `traffic called ${m[0].toLowerCase()} but not every plan's bandwidth is unmetered`,
      );
    }
    // A traffic cap: "transfer caps", "Contabo's flat cap": some plan must have a figure.
    for (const m of clause.matchAll(/\b(?:(?:traffic|transfer|bandwidth|flat|monthly)\s+)+caps?\b/gi)) {
      if (negatedBefore(clause, m.index!) || !/\b(?:traffic|transfer|bandwidth|egress|port)\b/i.test(clause)) continue;
      claim(m.index!, m[0], (plans) =>
        plans.some((p) => typeof allowanceOf(p) === 'number')
          ? undefined
          : `"${m[0]}" but no plan has a capped allowance`,
      );
    }
  });
  return found;
};

/** Price in words: "starts at", "from", "costs", "for N a month" about a provider or a plan line, against the lowest price of the plans it restricts to. */
export const priceClaims: Checker = (prose, providers = dataProviders) => {
  const found: ProviderClaim[] = [];
  const amount = AMOUNT.source;
  const phrase = new RegExp(
    `\\b(?:(?:start|starts|starting|priced)\\s+(?:at|from)|from|costs?|costing|for)\\s+(?:only\\s+|just\\s+)?(?:${amount})(?:\\s*(?:a|per|\\/)\\s*(?:month|mo)\\b)?`,
    'g',
  );
  eachClause(prose, providers, (clause, sentence, subjectAt) => {
    for (const m of clause.matchAll(phrase)) {
      const head = m[0].split(/\s+/)[0].toLowerCase();
      const after = clause.slice(m.index! + m[0].length);
      const before = clause.slice(0, m.index!);
      if (head === 'for' && !/(?:a|per|\/)\s*(?:month|mo)\b/.test(m[0])) continue;
      if (
        head === 'from' &&
        (/^\s*(?:to|up to)\s/i.test(after) ||
          /\b(?:rose|risen|up|down|fell|fallen|went|increase[ds]?|moved|raised|cut)\s*$/i.test(before))
      )
        continue;
      if (
        /^\s*(?:more|less|extra|per (?:TB|GB|IP|hour))\b/i.test(after) ||
        /\b(?:about|around|roughly|under|below|over|above|than)\s*$/i.test(before)
      )
        continue;
      if (
        /\b(?:backups?|snapshots?|IPs?|IPv4|addresses|storage box|object storage|volumes?|load balancers?|Kubernetes|databases?|licen[cs]es?|overage|surcharge|setup fee|add-ons?|traffic|transfer)\b/i.test(
          before.slice(-60),
        )
      )
        continue;
      const id = subjectAt(m.index!);
      if (!id) continue;
      const provider = byId(providers, id);
      if (plansNamed(provider, clause).length || aboutOtherProducts(provider, sentence, clause)) continue; // a named plan's price: test/prose-figures.e2e-spec.ts checks it
      const quoted = readAmount(AMOUNT.exec(m[0])!);
      const { plans, restricted } = plansRestrictedBy(provider, clause, { ignorePrice: true });
      const inCurrency = plans.filter((p) => p.currency === quoted.currency);
      if (plans.length && !inCurrency.length) continue; // quoted in another currency than the data's: not comparable
      const lowest = (key: string) => {
        const xs = inCurrency.map((p) => p[key]).filter((x) => typeof x === 'number');
        return xs.length ? Math.min(...xs) : undefined;
      };
      // "From" a provider can also mean from its cheapest plan that can be ordered.
      const orderable = inCurrency.filter((p) => p.availability?.orderable !== false);
      const lowestOrderable = (key: string) => {
        const xs = orderable.map((p) => p[key]).filter((x) => typeof x === 'number');
        return xs.length ? Math.min(...xs) : undefined;
      };
      const honest = ['price', 'monthToMonthPrice', 'renewalPrice']
        .flatMap((key) => [lowest(key), lowestOrderable(key)])
        .filter((x): x is number => x !== undefined);
      const scope = `${provider.name}${restricted.length ? ` (${restricted.join(', ')})` : ''}`;
      found.push({
        kind: 'price',
        where: prose.where,
        providerId: id,
        quote: clause.trim(),
        wrong: honest.includes(quoted.value)
          ? undefined
          : `${quoted.value} ${quoted.currency} but the lowest price of ${scope} is ${honest.join(' or ') || 'nothing: no plan matches'}`,
      });
    }
  });
  return found;
};

/** Support channels and their words in prose. */
const CHANNELS: Record<string, RegExp> = {
  phone: /\b(?:phone|telephone)\b/gi,
  chat: /\b(?:live\s+)?chat\b/gi,
  email: /\be-?mail\b/gi,
  ticket: /\btickets?\b|\bticket-only\b/gi,
};
const AROUND_THE_CLOCK = /\b24\/7\b|\baround the clock\b|\bround[- ]the[- ]clock\b|\bat any hour\b|\b24 hours a day\b/i;
const SUPPORT_CONTEXT =
  /\bsupport\b|\bhelp ?desk\b|\bcustomer service\b|\bhelp\b|\breplies\b|\banswers?\b|\bstaff\b|\bchat\b|\bphone\b/i;

/** Support: hours and channels against `support` and `supportChannels`; an SLA or uptime percentage against `uptime`. */
export const supportClaims: Checker = (prose, providers = dataProviders) => {
  const found: ProviderClaim[] = [];
  eachClause(prose, providers, (clause, sentence, subjectAt) => {
    if (!SUPPORT_CONTEXT.test(clause)) return;
    // A channel offered only on a paid tier, or a channel ruled out, is a different claim.
    const paidTier = /\b(?:paid|premium|priority|enterprise|business)\b/i.test(clause);
    const say = (index: number, quote: string, wrong: (p: any) => string | undefined) => {
      const id = subjectAt(index);
      if (!id) return;
      const provider = byId(providers, id);
      const unknown = /^unknown\b/i.test(provider.support)
        ? `${provider.name}'s support is "${provider.support}"`
        : undefined;
      found.push({ kind: 'support', where: prose.where, providerId: id, quote, wrong: unknown ?? wrong(provider) });
    };
    const hours = AROUND_THE_CLOCK.exec(clause);
    if (hours && !negatedBefore(clause, hours.index)) {
      say(hours.index, hours[0], (p) =>
        AROUND_THE_CLOCK.test(p.support) ? undefined : `"${hours[0]}" but ${p.name}'s support is "${p.support}"`,
      );
    }
    for (const [channel, pattern] of Object.entries(CHANNELS)) {
      for (const m of clause.matchAll(pattern)) {
        const negated = negatedBefore(clause, m.index!);
        if (paidTier && !negated) continue;
        if (negated) {
          // "no phone line": the channel must be absent (unless offered only on a paid tier).
          const id = subjectAt(m.index!);
          if (!id) continue;
          const p = byId(providers, id);
          if (/^unknown\b/i.test(p.support) || paidTier) continue;
          found.push({
            kind: 'support',
            where: prose.where,
            providerId: id,
            quote: m[0],
            wrong: p.supportChannels.includes(channel)
              ? `says no ${m[0]} but ${p.name}'s supportChannels list ${channel}`
              : undefined,
          });
          continue;
        }
        if (
          channel === 'email' &&
          !/\bsupport|help|answers?|replies|staff|by e-?mail|e-?mail and\b|and e-?mail\b/i.test(clause)
        )
          continue;
        say(m.index!, m[0], (p) =>
          p.supportChannels.includes(channel)
            ? undefined
            : `"${m[0]}" but ${p.name}'s supportChannels are ${p.supportChannels.join(', ')}`,
        );
      }
    }
    void sentence;
  });
  return found;
};

/** An SLA or uptime percentage quoted for a provider or one of its lines. */
export const slaClaims: Checker = (prose, providers = dataProviders) => {
  const found: ProviderClaim[] = [];
  const percent =
    /\b(\d{2,3}(?:\.\d+)?)\s?%(?=\s*(?:uptime|SLA|availability|service level)\b)|\b(?:SLA|uptime (?:guarantee|commitment|SLA)|service level agreement)\s+(?:of\s+|at\s+|is\s+)?(\d{2,3}(?:\.\d+)?)\s?%/gi;
  eachClause(prose, providers, (clause, _sentence, subjectAt) => {
    for (const m of clause.matchAll(percent)) {
      const id = subjectAt(m.index!);
      if (!id) continue;
      const p = byId(providers, id);
      const quoted = `${m[1] ?? m[2]}%`;
      const lines = linesNamed(p, clause);
      const lineUptimes = p.planLines
        .filter((l: any) => (lines.length ? lines.includes(l.id) : true) && l.uptime)
        .map((l: any) => l.uptime);
      const allowed =
        lines.length && lineUptimes.length
          ? lineUptimes
          : [p.uptime, ...lineUptimes].filter((u) => u && u !== 'unknown');
      found.push({
        kind: 'sla',
        where: prose.where,
        providerId: id,
        quote: m[0],
        wrong: allowed.includes(quoted)
          ? undefined
          : `${quoted} but ${p.name}'s uptime is ${p.uptime}${lineUptimes.length ? ` and its lines' ${lineUptimes.join(', ')}` : ''}${lines.length ? ` (lines named: ${lines.join(', ')})` : ''}`,
      });
    }
  });
  return found;
};

/** The data fields behind each add-on or feature word. */
const FEATURES: { name: string; words: RegExp; addOn?: string; feature?: string }[] = [
  { name: 'snapshots', words: /\bsnapshots?\b/gi, addOn: 'snapshots', feature: 'snapshots' },
  {
    name: 'backups',
    words: /\b(?:automated\s+|automatic\s+|daily\s+|weekly\s+)?backups?\b/gi,
    addOn: 'backups',
    feature: 'automatedBackups',
  },
  { name: 'IPv4', words: /\bIPv4(?:\s+address(?:es)?)?\b/g, addOn: 'ipv4' },
  {
    name: 'DDoS protection',
    words: /\b(?:anti-)?DDoS(?:\s+(?:protection|filtering|mitigation))?\b/gi,
    feature: 'ddosProtection',
  },
];
const INCLUDED_AFTER =
  /^[^.;]{0,45}?\b(?:(?:is|are)\s+)?(?:included|free(?!\s+(?:up|of))|at no (?:extra\s+)?(?:charge|cost)|bundled|built in|come free|comes? with every)\b/i;
const INCLUDED_BEFORE =
  /\b(?:free|included|includes?|including|bundles?|bundled|built-in|comes? with)\b[^.;:,()]{0,40}$/i;

/** Add-ons and features: "included"/"free" against addOns.*.status and featureDetails.*.status (unknown is not included). */
export const featureClaims: Checker = (prose, providers = dataProviders) => {
  const found: ProviderClaim[] = [];
  eachClause(prose, providers, (clause, sentence, subjectAt, start) => {
    for (const f of FEATURES) {
      for (const m of clause.matchAll(f.words)) {
        const before = clause.slice(0, m.index!);
        const after = clause.slice(m.index! + m[0].length);
        const saysIncludedBefore = INCLUDED_BEFORE.test(before);
        const inc = INCLUDED_AFTER.exec(after);
        const saysIncludedAfter =
          inc &&
          !/\b(?:not|never|rather than|instead of|extra|paid|cost|costs|charged)\b/i.test(
            after.slice(0, inc.index + inc[0].length),
          );
        if (!(saysIncludedBefore || saysIncludedAfter)) continue;
        if (
          negatedBefore(clause, m.index!) ||
          /\b(?:paid|extra|add-on|costs?|charged?|upgrade)\b/i.test(after.slice(0, 25))
        )
          continue;
        const id = subjectAt(m.index!);
        if (!id) continue;
        const p = byId(providers, id);
        if (aboutOtherProducts(p, sentence, clause)) continue;
        const line = lineAt(p, sentence, start + m.index!);
        const lines = line ? [line] : [];
        const records = [
          f.addOn && p.addOns?.[f.addOn] && { field: `addOns.${f.addOn}`, ...p.addOns[f.addOn] },
          f.feature &&
            p.featureDetails?.[f.feature] && { field: `featureDetails.${f.feature}`, ...p.featureDetails[f.feature] },
        ].filter(Boolean) as any[];
        const holds = (r: any) =>
          r.status === 'included' ||
          (lines.length > 0 && Array.isArray(r.includedInLines) && lines.every((l) => r.includedInLines.includes(l)));
        const against = records.filter((r) => !holds(r));
        found.push({
          kind: 'feature',
          where: prose.where,
          providerId: id,
          quote: clause.trim(),
          wrong:
            records.length === 0
              ? `${f.name} said to be included but ${p.name}'s data has no record of it`
              : against.length
                ? `${f.name} said to be included but ${against.map((r) => `${r.field} is ${r.status}`).join(' and ')}`
                : undefined,
        });
      }
    }
  });
  return found;
};

export const CHECKERS: Record<ClaimKind, Checker> = {
  transfer: transferClaims,
  price: priceClaims,
  support: supportClaims,
  sla: slaClaims,
  feature: featureClaims,
};

/** Every provider claim in the texts, of every kind. */
export const providerClaims = (texts: Prose[], providers: any[] = dataProviders): ProviderClaim[] =>
  texts.flatMap((t) => Object.values(CHECKERS).flatMap((check) => check(t, providers)));
