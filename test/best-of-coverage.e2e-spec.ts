import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DATA_DIR, rawExchangeRates, rawGuides, rawProviders } from './support/raw-data';
import { figures } from './support/independent-figures';

/*
 * A best-of list accounts for every provider of the dataset: each is either ranked, and meets the list's
 * criteria, or named under "Not on this list" with a reason that is true of the data. The intro and
 * advice around the list do not say a provider is on it (or off it) when the ranking says otherwise.
 *
 * Everything here is worked out from the data files with the rules of data/editorial/README.md (the
 * criteria kinds) and data/README.md (how a price is paid), not with the generator's code.
 */

type Criteria = { kind: string; value: any };
const providers: any[] = rawProviders.providers;
const lists: { slug: string; criteria: Criteria; intro: string; advice: string }[] = JSON.parse(
  readFileSync(join(DATA_DIR, 'editorial', 'best-of.json'), 'utf8'),
).lists;

const usd = (amount: number, currency: string) =>
  (amount / rawExchangeRates.rates[currency]) * rawExchangeRates.rates.USD;
const lineOf = (p: any, plan: any) => p.planLines.find((l: any) => l.id === plan.line);
/** The price with no commitment, in USD: the headline price unless the line needs a prepaid term; then the month-to-month price where the line is sold so and the price is known. */
function noCommitmentUsd(p: any, plan: any): number | null {
  const line = lineOf(p, plan);
  if (line.priceBasis !== 'prepaid-term') return usd(plan.price, plan.currency);
  return line.monthToMonthSold !== false && typeof plan.monthToMonthPrice === 'number'
    ? usd(plan.monthToMonthPrice, plan.currency)
    : null;
}
// Plans a list may pick: of a line still sold, and not read as unorderable.
const sold = (p: any) =>
  p.plans.filter((plan: any) => !lineOf(p, plan).discontinued && plan.availability?.orderable !== false);
const regionName = (id: string) =>
  id
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');

/** The plans a criterion asks for (before the question whether they can be compared without commitment). */
function wanted(c: Criteria): ((plan: any) => boolean) | undefined {
  if (c.kind === 'dedicatedCpu') return (plan) => plan.cpuType === 'dedicated';
  if (c.kind === 'nvme') return (plan) => figures(plan).storageType === 'NVMe';
  if (c.kind === 'ramPerDollar') return (plan) => figures(plan).ramGb >= c.value;
  return undefined;
}

/** Whether a provider meets a list's criteria, from the data. */
function qualifies(p: any, c: Criteria): boolean {
  const plans = sold(p);
  switch (c.kind) {
    case 'budget':
      return plans.some((plan: any) => (noCommitmentUsd(p, plan) ?? Infinity) <= c.value);
    case 'region':
      return p.datacenters.some((d: any) => d.region === c.value);
    case 'feature':
      return p.featureDetails[c.value].status !== 'unavailable';
    case 'rating':
    case 'traffic':
      return plans.length > 0;
    default:
      return plans.some((plan: any) => wanted(c)!(plan) && noCommitmentUsd(p, plan) !== null);
  }
}

/** Whether a prepaid-term clause ("its X plans are sold only on / priced here only for a N-month prepaid term") is true of the data. */
function commitmentClauseHolds(p: any, clause: string, c: Criteria): boolean {
  const m = /^its (.+) plans are (sold only on|priced here only for) a (\d+)-month prepaid term/.exec(clause);
  if (!m) return false;
  const line = p.planLines.find((l: any) => l.name === m[1]);
  if (!line || line.priceBasis !== 'prepaid-term' || line.termMonths !== Number(m[3]) || line.discontinued)
    return false;
  const plans = p.plans.filter((plan: any) => plan.line === line.id);
  const relevant = plans.filter((plan: any) => (wanted(c) ?? (() => true))(plan));
  if (relevant.length === 0 || relevant.some((plan: any) => noCommitmentUsd(p, plan) !== null)) return false;
  return m[2] === 'sold only on' ? line.monthToMonthSold === false : line.monthToMonthSold !== false;
}

/** Whether a left-out reason is true of the data for this provider and criteria. */
function reasonHolds(p: any, reason: string, c: Criteria): boolean {
  const matches = wanted(c);
  let m: RegExpExecArray | null;
  if ((m = /^no data center in (.+)$/.exec(reason)))
    return c.kind === 'region' && m[1] === regionName(c.value) && !qualifies(p, c);
  if ((m = /^does not offer (.+)$/.exec(reason)))
    return c.kind === 'feature' && p.featureDetails[c.value].status === 'unavailable';
  if (
    (m =
      /^no (dedicated-vCPU plan|NVMe plan|plan with at least (\d+) GB of RAM) (in the dataset|still sold: .* discontinued)$/.exec(
        reason,
      ))
  ) {
    const kind = m[1].startsWith('dedicated') ? 'dedicatedCpu' : m[1].startsWith('NVMe') ? 'nvme' : 'ramPerDollar';
    if (kind !== c.kind || (m[2] && Number(m[2]) !== c.value) || !matches) return false;
    const anywhere = p.plans.some(matches);
    return m[3] === 'in the dataset' ? !anywhere : anywhere && !sold(p).some(matches);
  }
  if (
    (m =
      /^no plan at or under ([\d.]+) USD a month without commitment; its cheapest is (.+?) at (.+?)(?:; (its .*))?$/.exec(
        reason,
      ))
  ) {
    if (c.kind !== 'budget' || Number(m[1]) !== c.value) return false;
    const priced = sold(p)
      .map((plan: any) => ({ plan, usd: noCommitmentUsd(p, plan) }))
      .filter((x: any) => x.usd !== null);
    const cheapest = priced.reduce((a: any, b: any) => (b.usd < a.usd ? b : a), priced[0]);
    return (
      cheapest !== undefined &&
      cheapest.usd > c.value &&
      cheapest.plan.name === m[2] &&
      (m[4] === undefined ||
        m[4].split('; ').every((clause) => commitmentClauseHolds(p, clause, { kind: 'any', value: null })))
    );
  }
  if (reason.startsWith('its '))
    return !qualifies(p, c) && reason.split('; ').every((clause) => commitmentClauseHolds(p, clause, c));
  return false;
}

const link = /\[[^\]]+\]\(\/providers\/([a-z0-9-]+)\)/;
const names = (p: any) => [p.name, p.name.replace(/\s*\(.*\)$/, '')];
const named = (sentence: string) =>
  providers.filter(
    (p) =>
      sentence.includes(`/providers/${p.id})`) ||
      names(p).some((n) =>
        new RegExp(`(?<![\\w-])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(sentence),
      ),
  );

/** Words that say a provider is on the list, or off it. */
const ON_LIST =
  /\b(appears?|is ranked|are ranked|tops the list|leads the list|makes the list|on this list|in this list|in the table)\b/i;
const OFF_LIST = /\b(absent|do(?:es)? not appear|left out|not on (?:this|the) list|the exception|missing from)\b/i;

/** Everything wrong with one best-of guide: its coverage, its reasons, and membership claims in its framing prose. */
export function coverageProblems(slug: string, body: string, c: Criteria, framing: string): string[] {
  const problems: string[] = [];
  const ranked = body.split('\n').flatMap((l) => (/^\| \d+ \|/.test(l) && link.exec(l) ? [link.exec(l)![1]] : []));
  const section = body.split('## Not on this list')[1]?.split('\n## ')[0] ?? '';
  const leftOut = section.split('\n').flatMap((l) => {
    const m = /^- \[[^\]]+\]\(\/providers\/([a-z0-9-]+)\): (.+)\.$/.exec(l);
    return m ? [{ id: m[1], reason: m[2] }] : [];
  });
  if (section.includes('Every provider in the dataset is ranked.') && leftOut.length > 0)
    problems.push(`${slug}: says every provider is ranked but names some as not ranked`);
  for (const p of providers) {
    const isRanked = ranked.includes(p.id);
    const out = leftOut.filter((x) => x.id === p.id);
    if (!isRanked && out.length === 0) problems.push(`${slug}: ${p.id} is neither ranked nor named with a reason`);
    if (isRanked && out.length > 0) problems.push(`${slug}: ${p.id} is both ranked and named as not ranked`);
    if (isRanked && !qualifies(p, c))
      problems.push(`${slug}: ${p.id} is ranked but does not meet the criteria (${c.kind} ${c.value})`);
    for (const x of out)
      if (!reasonHolds(p, x.reason, c))
        problems.push(`${slug}: ${p.id} is left out "${x.reason}", which the data does not bear out`);
  }
  for (const sentence of framing.split(/(?<=[.!?])\s+|\n+/)) {
    const on = ON_LIST.test(sentence);
    const off = OFF_LIST.test(sentence);
    if (on === off) continue;
    for (const p of named(sentence)) {
      if (on && !ranked.includes(p.id))
        problems.push(`${slug}: the prose puts ${p.id} on the list, which does not rank it: "${sentence}"`);
      if (off && ranked.includes(p.id))
        problems.push(`${slug}: the prose leaves ${p.id} out, but the list ranks it: "${sentence}"`);
    }
  }
  return problems;
}

describe('best-of lists account for every provider', () => {
  const guides = rawGuides.filter((g) => g.type === 'best-of' && lists.some((l) => l.slug === g.slug));

  it('covers every generated best-of list', () => {
    expect(guides.map((g) => g.slug).sort()).toEqual(lists.map((l) => l.slug).sort());
  });

  it.each(lists.map((l) => [l.slug, l] as const))(
    '%s ranks only providers that meet its criteria and names every other one with a reason the data bears out',
    (slug, list) => {
      const guide = guides.find((g) => g.slug === slug)!;
      expect(coverageProblems(slug, guide.body, list.criteria, `${list.intro}\n${list.advice}`)).toEqual([]);
    },
  );

  it('best-dedicated-cpu-vps names Hostinger for having no dedicated-vCPU plan and ranks Contabo at its VDS month-to-month price', () => {
    const body = guides.find((g) => g.slug === 'best-dedicated-cpu-vps')!.body;
    const reasonOf = (id: string) =>
      new RegExp(`^- \\[[^\\]]+\\]\\(/providers/${id}\\): (.+)\\.$`, 'm').exec(body)?.[1];
    const dedicated = (id: string) =>
      providers.find((p) => p.id === id).plans.some((plan: any) => plan.cpuType === 'dedicated');
    // Hostinger has no dedicated plan in the data; Contabo's dedicated plans are on a prepaid line that is also sold month to month.
    expect(dedicated('hostinger')).toBe(false);
    expect(reasonOf('hostinger')).toBe('no dedicated-vCPU plan in the dataset');
    const contabo = providers.find((p) => p.id === 'contabo');
    const vds = contabo.planLines.find((l: any) => l.priceBasis === 'prepaid-term');
    const cheapest = contabo.plans
      .filter((plan: any) => plan.line === vds.id && typeof plan.monthToMonthPrice === 'number')
      .sort((a: any, b: any) => a.monthToMonthPrice - b.monthToMonthPrice)[0];
    // The ranking compares prices without commitment: the month-to-month rate, never the prepaid-term one.
    expect(cheapest.monthToMonthPrice).not.toBe(cheapest.price);
    expect(body).toContain(`[Contabo](/providers/contabo) | ${cheapest.name} (`);
    expect(body).toContain(`at ${cheapest.monthToMonthPrice.toFixed(2)} ${cheapest.currency}`);
    expect(reasonOf('contabo')).toBeUndefined();
  });

  it('fails a fixture of the claims it exists for', () => {
    const text = readFileSync(join(__dirname, 'fixtures', 'prose-claims', 'best-of-coverage.md'), 'utf8');
    const [, front, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)!;
    const fm = parse(front);
    const problems = coverageProblems(fm.slug, body, fm.criteria, fm.intro);
    expect(problems).toEqual(
      expect.arrayContaining([
        `${fm.slug}: contabo is neither ranked nor named with a reason`,
        `${fm.slug}: hostinger is ranked but does not meet the criteria (dedicatedCpu true)`,
        `${fm.slug}: ovhcloud is left out "no data center in Asia", which the data does not bear out`,
        `${fm.slug}: vultr is both ranked and named as not ranked`,
        `${fm.slug}: vultr is left out "no dedicated-vCPU plan in the dataset", which the data does not bear out`,
        expect.stringMatching(/the prose puts contabo on the list, which does not rank it/),
      ]),
    );
    // UpCloud is correctly named as not ranked, and the prose that says so is true.
    expect(problems.filter((p) => p.includes('upcloud'))).toEqual([]);
  });
});
