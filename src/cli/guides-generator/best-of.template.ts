import { FEATURE_NAMES, isOffered, type FeatureKey } from '../../dataset/features.js';
import type { ProviderRecord } from '../../dataset/dto/provider.dto.js';
import type { BestOfEditorial } from './editorial.js';
import type { QuotedFigures } from '../../dataset/provider-rules.js';
import { joinQuotes, quoting, type GeneratorContext, type PricedPlan } from './generator-context.js';
import { frontMatter, link, listing, money, planPrice, REGION_NAMES, table } from './markdown.js';

interface Ranked {
  provider: ProviderRecord;
  /** What the provider is ranked on, as shown in the table. */
  metric: string;
  /** The plan that earned the place, if one did. */
  plan?: PricedPlan;
}

const RATING_NAMES = {
  performance: 'performance',
  value: 'value for money',
  support: 'support',
  easeOfUse: 'ease of use',
  features: 'features',
};
const byRating = (a: ProviderRecord, b: ProviderRecord) => b.rating - a.rating || a.name.localeCompare(b.name);
/** A plan's no-commitment price in USD; the price rankings compare only plans that have one. */
const monthly = (x: PricedPlan) => x.noCommitmentUsd!;
const withoutCommitment = (plans: PricedPlan[]) => plans.filter((x) => x.noCommitmentUsd !== null);
/** Fresh prices rank before stale ones: a stale price is never ranked as if it were fresh. */
const freshFirst = (a: PricedPlan, b: PricedPlan) => Number(a.plan.stale) - Number(b.plan.stale);

/** A provider a list does not rank, and why, in words derived from the data. */
export interface LeftOut {
  provider: ProviderRecord;
  reason: string;
}

/**
 * Why plans that would qualify cannot be compared: their price needs a prepaid term, and either the line is
 * not sold month to month or its month-to-month price is not in the dataset. One clause per line.
 */
function commitmentReason(ctx: GeneratorContext, p: ProviderRecord, plans: PricedPlan[]): string {
  const lines = p.planLines.filter((l) => plans.some((x) => x.plan.line === l.id));
  return lines
    .map((l) =>
      l.monthToMonthSold === false
        ? `its ${l.name} plans are sold only on a ${l.termMonths}-month prepaid term, which does not compare with month-to-month prices`
        : `its ${l.name} plans are priced here only for a ${l.termMonths}-month prepaid term, with no month-to-month price in the dataset`,
    )
    .join('; ');
}

/**
 * Selects and ranks providers for a list's criteria; returns the ranking, every other provider with the
 * reason it is not ranked, a sentence on the method, and the figures the list quotes (for its date).
 */
export function rank(
  ctx: GeneratorContext,
  ed: BestOfEditorial,
): { method: string; ranked: Ranked[]; leftOut: LeftOut[]; metricName: string; quoted: QuotedFigures } {
  const r = rankOnly(ctx, ed);
  const rankedIds = new Set(r.ranked.map((x) => x.provider.id));
  const c = ed.criteria;
  const leftOut = ctx.providers
    .filter((p) => !rankedIds.has(p.id))
    .map((p) => ({ provider: p, reason: leftOutReason(ctx, c, p) }));
  const everyone = ctx.providers;
  const quoted =
    c.kind === 'rating'
      ? quoting([], [], false)
      : c.kind === 'region'
        ? quoting(everyone, ['datacenters'], false)
        : c.kind === 'feature'
          ? joinQuotes(
              quoting(everyone, ['features'], false),
              quoting(
                r.ranked.map((x) => x.provider),
                ['plans'],
                true,
              ),
            )
          : quoting(everyone, ['plans'], true);
  return { ...r, leftOut, quoted };
}

/** Why a provider does not make a list: what the data says it lacks for the criteria. */
function leftOutReason(ctx: GeneratorContext, c: BestOfEditorial['criteria'], p: ProviderRecord): string {
  const sold = ctx.plansOf(p.id);
  const lacking = (what: string, matches: (x: PricedPlan) => boolean) => {
    const matching = sold.filter(matches);
    if (matching.length > 0) return commitmentReason(ctx, p, matching);
    const gone = p.planLines.filter(
      (l) => l.discontinued && ctx.listedPlansOf(p.id).some((x) => x.plan.line === l.id && matches(x)),
    );
    return gone.length === 0
      ? `no ${what} in the dataset`
      : `no ${what} still sold: ${listing(gone.map((l) => `its ${l.name} line`))}, which had them, ${gone.length === 1 ? 'is' : 'are'} discontinued`;
  };
  switch (c.kind) {
    case 'budget': {
      const monthlyPlans = withoutCommitment(sold);
      const prepaidUnder = sold.filter((x) => x.noCommitmentUsd === null && x.usd <= c.value);
      const parts = [];
      if (monthlyPlans.length > 0) {
        const cheapest = monthlyPlans.reduce((a, b) => (monthly(b) < monthly(a) ? b : a));
        parts.push(
          `no plan at or under ${money(c.value, 'USD')} a month without commitment; its cheapest is ${cheapest.plan.name} at ${planPrice(cheapest)}`,
        );
      }
      if (prepaidUnder.length > 0 || monthlyPlans.length === 0)
        parts.push(commitmentReason(ctx, p, prepaidUnder.length > 0 ? prepaidUnder : sold));
      return parts.join('; ');
    }
    case 'region':
      return `no data center in ${REGION_NAMES[c.value as keyof typeof REGION_NAMES] ?? c.value}`;
    case 'feature':
      return `does not offer ${FEATURE_NAMES[c.value as FeatureKey]?.prose ?? c.value}`;
    case 'dedicatedCpu':
      return lacking('dedicated-vCPU plan', (x) => x.plan.cpuType === 'dedicated');
    case 'nvme':
      return lacking('NVMe plan', (x) => x.storageType === 'NVMe');
    case 'ramPerDollar':
      return lacking(`plan with at least ${c.value} GB of RAM`, (x) => (x.ramGb ?? 0) >= c.value);
    case 'rating':
    case 'traffic':
      // Every provider is ranked on these; a provider without a sold plan would land here.
      return 'no plan still sold in the dataset';
  }
}

function rankOnly(
  ctx: GeneratorContext,
  ed: BestOfEditorial,
): { method: string; ranked: Ranked[]; metricName: string } {
  const c = ed.criteria;
  const all = [...ctx.providers];
  switch (c.kind) {
    case 'budget': {
      const rows = all.flatMap((p) => {
        const fits = withoutCommitment(ctx.plansOf(p.id)).filter((x) => monthly(x) <= c.value && x.ramGb !== null);
        if (fits.length === 0) return [];
        const plan = fits.reduce((best, x) =>
          (x.ramGb ?? 0) > (best.ramGb ?? 0) || ((x.ramGb ?? 0) === (best.ramGb ?? 0) && monthly(x) < monthly(best))
            ? x
            : best,
        );
        return [
          {
            provider: p,
            plan,
            metric: `${plan.plan.ram} RAM, ${plan.plan.cpu}: ${plan.plan.name} at ${planPrice(plan)}`,
          },
        ];
      });
      rows.sort(
        (a, b) =>
          freshFirst(a.plan, b.plan) || (b.plan.ramGb ?? 0) - (a.plan.ramGb ?? 0) || byRating(a.provider, b.provider),
      );
      return {
        method: `Each provider's plan with the most RAM at or under ${c.value} USD a month with no commitment (prices converted at the ECB rate of ${ctx.usdRatesDate}), ranked by that RAM, then by our rating.`,
        ranked: rows,
        metricName: `Most RAM for ${c.value} USD or less`,
      };
    }
    case 'region': {
      const rows = all
        .map((p) => ({ provider: p, cities: p.datacenters.filter((l) => l.region === c.value).map((l) => l.city) }))
        .filter((r) => r.cities.length > 0)
        .sort((a, b) => b.cities.length - a.cities.length || byRating(a.provider, b.provider));
      return {
        method: `Providers with data centers in ${REGION_NAMES[c.value as keyof typeof REGION_NAMES] ?? c.value}, ranked by how many locations they have there, then by our rating.`,
        ranked: rows.map((r) => ({ provider: r.provider, metric: r.cities.join(', ') })),
        metricName: `Locations in ${REGION_NAMES[c.value as keyof typeof REGION_NAMES] ?? c.value}`,
      };
    }
    case 'feature': {
      const rows = all.filter((p) => isOffered(p.featureDetails[c.value as FeatureKey])).sort(byRating);
      return {
        method: `Providers that offer ${FEATURE_NAMES[c.value as FeatureKey]?.prose ?? c.value}, ranked by our overall rating.`,
        ranked: rows.map((p) => ({
          provider: p,
          plan: ctx.plansOf(p.id)[0],
          metric: `from ${planPrice(ctx.plansOf(p.id)[0])}`,
        })),
        metricName: 'Entry price a month',
      };
    }
    case 'rating': {
      const rows = all.sort((a, b) => b.ratings[c.value] - a.ratings[c.value] || byRating(a, b));
      return {
        method: `Every provider, ranked by our ${RATING_NAMES[c.value]} score (0 to 5), then by the overall rating.`,
        ranked: rows.map((p) => ({ provider: p, metric: `${p.ratings[c.value]}/5` })),
        metricName: `Score for ${RATING_NAMES[c.value]}`,
      };
    }
    case 'dedicatedCpu':
    case 'nvme': {
      const pick = (p: ProviderRecord) =>
        withoutCommitment(ctx.plansOf(p.id)).find((x) =>
          c.kind === 'dedicatedCpu' ? x.plan.cpuType === 'dedicated' : x.storageType === 'NVMe',
        );
      const rows = all.flatMap((p) => {
        const plan = pick(p);
        return plan
          ? [
              {
                provider: p,
                plan,
                metric: `${plan.plan.name} (${plan.plan.cpu}, ${plan.plan.ram}, ${plan.plan.storage}) at ${planPrice(plan)}`,
              },
            ]
          : [];
      });
      rows.sort(
        (a, b) => freshFirst(a.plan, b.plan) || monthly(a.plan) - monthly(b.plan) || byRating(a.provider, b.provider),
      );
      const what = c.kind === 'dedicatedCpu' ? 'dedicated-vCPU plans' : 'NVMe storage';
      return {
        method: `Providers with ${what}, ranked by the no-commitment monthly price of their cheapest such plan in USD.`,
        ranked: rows,
        metricName: `Cheapest plan with ${what}`,
      };
    }
    case 'ramPerDollar': {
      const rows = all.flatMap((p) => {
        const plan = withoutCommitment(ctx.plansOf(p.id)).find((x) => (x.ramGb ?? 0) >= c.value);
        return plan ? [{ provider: p, plan, ratio: (plan.ramGb ?? 0) / monthly(plan) }] : [];
      });
      rows.sort((a, b) => freshFirst(a.plan, b.plan) || b.ratio - a.ratio || byRating(a.provider, b.provider));
      return {
        method: `Each provider's cheapest plan with at least ${c.value} GB of RAM, ranked by gigabytes of RAM per US dollar a month with no commitment.`,
        ranked: rows.map((r) => ({
          provider: r.provider,
          plan: r.plan,
          metric: `${r.ratio.toFixed(2)} GB per USD: ${r.plan.plan.name}, ${r.plan.plan.ram} at ${planPrice(r.plan)}`,
        })),
        metricName: 'RAM per dollar',
      };
    }
    case 'traffic': {
      const score = (x: PricedPlan) => (x.unmetered ? Number.POSITIVE_INFINITY : (x.bandwidthTb ?? -1));
      const rows = all
        .flatMap((p) => (ctx.plansOf(p.id).length > 0 ? [{ provider: p, plan: ctx.plansOf(p.id)[0] }] : []))
        .sort((a, b) => score(b.plan) - score(a.plan) || byRating(a.provider, b.provider));
      return {
        method:
          'Providers ranked by the traffic included with their entry plan: unmetered first, then by the monthly allowance.',
        ranked: rows.map((r) => ({
          ...r,
          metric: `${r.plan.plan.bandwidth} with ${r.plan.plan.name} (${planPrice(r.plan)})`,
        })),
        metricName: 'Traffic on the entry plan',
      };
    }
  }
}

/**
 * Editorial prose with the dates it may name filled in from the data: `{ratesDate}` is the day of the
 * exchange rate into US dollars (so prose that mentions the rate states its date instead of calling it current).
 */
export function withDates(ctx: GeneratorContext, text: string): string {
  return text.replaceAll('{ratesDate}', ctx.usdRatesDate);
}

/** A best-of list: editorial framing around a ranking computed from the data. */
export function bestOfGuide(ctx: GeneratorContext, ed: BestOfEditorial): { slug: string; content: string } {
  const { method, ranked, leftOut, metricName, quoted } = rank(ctx, ed);
  const pricesCompared = ['budget', 'dedicatedCpu', 'nvme', 'ramPerDollar'].includes(ed.criteria.kind);
  const stale = ranked.filter((r) => r.plan?.plan.stale);
  const body = [
    withDates(ctx, ed.intro),
    '',
    '## How we ranked',
    '',
    method,
    '',
    '## The list',
    '',
    table(
      ['#', 'Provider', metricName, 'Rating'],
      ranked.map((r, i) => [
        i + 1,
        link(r.provider.name, `/providers/${r.provider.id}`),
        r.metric,
        `${r.provider.rating}/5`,
      ]),
    ),
    '',
    ranked.length === 0
      ? 'No provider in the dataset meets this criterion.'
      : `Each provider's [full review](/guides/${ranked[0].provider.id}-review) and page give the complete plan list.`,
    ...(stale.length > 0
      ? [
          '',
          `${stale.length === ranked.length ? 'Every row' : `${stale.length} of ${ranked.length} rows`} of this list ${stale.length === 1 ? 'rests' : 'rest'} on a stale price (seen more than 90 days before this release, or before a price change the provider announced): ${stale.map((r) => `${r.provider.name} (seen ${r.plan!.plan.observedAt})`).join(', ')}. ${pricesCompared ? 'Stale prices are ranked after fresh ones; check' : 'Check'} the provider's own price page before you buy.`,
        ]
      : []),
    '',
    '## Not on this list',
    '',
    ...(leftOut.length === 0
      ? ['Every provider in the dataset is ranked.']
      : [
          `${leftOut.length === 1 ? 'One provider' : `${leftOut.length} of the ${ctx.providers.length} providers`} in the dataset ${leftOut.length === 1 ? 'is' : 'are'} not ranked:`,
          '',
          ...leftOut.map((x) => `- [${x.provider.name}](/providers/${x.provider.id}): ${x.reason}.`),
        ]),
    '',
    '## How to choose',
    '',
    withDates(ctx, ed.advice),
    '',
  ].join('\n');
  return {
    slug: ed.slug,
    content:
      frontMatter({
        slug: ed.slug,
        title: ed.title,
        description: ed.description,
        type: 'best-of',
        keywords: ed.keywords,
        published: ed.published,
        updated: ctx.updated(ed.published, quoted),
        author: ed.author,
      }) + body,
  };
}
