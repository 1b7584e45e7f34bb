import { REGION_NAMES, type FeatureDetail } from '../dataset/dto/provider.dto.js';
import type { PlanLine } from '../dataset/dto/plan-line.dto.js';
import type { Plan } from '../dataset/dto/plan.dto.js';
import { STALE_AFTER_DAYS } from '../dataset/price-age.js';
import type { ServedProvider as Provider } from '../providers/dto/served-provider.dto.js';
import { FEATURE_KEYS, FEATURE_NAMES } from '../dataset/features.js';
import { priceBasisCell } from '../dataset/plan-pricing.js';
import { guidePath } from '../guides/guide-documents.js';
import { money, table, text } from './markdown-text.js';
import { addOnsMarkdown } from './provider-add-ons.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';

/** A plan's price as its table cell: the amount, and "stale" in words when it is, so no colour is needed to see it. */
const priceCell = (plan: Plan) => `${money(plan.price, plan.currency)}${plan.stale ? ' (stale)' : ''}`;

/** How a plan is paid, and that its line is no longer sold when so. */
const basisCell = (plan: Plan) =>
  `${priceBasisCell(plan)}${plan.discontinued ? '; no longer sold' : plan.orderable === false ? `; not orderable (seen ${plan.orderableObservedAt})${plan.successor ? `, replaced by ${plan.successor}` : ''}` : ''}`;

/**
 * When the provider showed a line's prices, and whether they are stale and why: one date for the line,
 * or one per plan when its plans were seen on different days.
 */
export function linePriceAge(providerName: string, line: PlanLine, plans: readonly Plan[]): string {
  const dates = [...new Set(plans.map((p) => p.observedAt))];
  const seen =
    dates.length === 1
      ? `Prices seen at ${providerName} on ${dates[0]}${line.source.copyOf ? `, read from a copy of ${line.source.copyOf}` : ''}.`
      : `Prices seen at ${providerName}: ${plans.map((p) => `${text(p.name)} on ${p.observedAt}`).join(', ')}.`;
  const reasons = [...new Set(plans.filter((p) => p.stale).map((p) => p.staleReason!))];
  const stale =
    reasons.length === 0
      ? ''
      : ` **Stale${reasons.length === 1 && plans.every((p) => p.stale) ? '' : ' (some plans)'}:** ${reasons.join('; ')}.`;
  const gone = line.discontinued
    ? ` **No longer sold**${line.discontinued.since ? ` since ${line.discontinued.since}` : ''}; replaced by ${line.discontinued.successor}.`
    : '';
  return seen + stale + gone;
}

/** The provider's review page as markdown: verdict, facts, ratings, pros and cons, plans, add-ons and tax, locations, links. */
export function providerMarkdown(ctx: PageContext, p: Provider): string {
  const guides = ctx.snapshot.guides;
  const review = guides.find((g) => g.slug === `${p.id}-review`);
  const related = guides.filter(
    (g) => (g.type === 'comparison' || g.type === 'alternatives') && g.slug.split('-').includes(p.id),
  );
  const regions = [...new Set(p.datacenters.map((l) => l.region))];
  return [
    `# ${p.name}`,
    '',
    p.summary,
    '',
    `**Rating: ${p.rating}/5.** ${p.verdict}`,
    '',
    `- **Plans from:** ${money(p.startingPrice, p.currency)} a month`,
    `- **Founded:** ${p.founded}`,
    `- **Headquarters:** ${p.headquarters.city}, ${p.headquarters.country}`,
    `- **Uptime SLA:** ${p.uptime}`,
    `- **Support:** ${p.support}`,
    `- **Best for:** ${p.bestFor.map((slug) => `[${slug}](/use-cases/${slug})`).join(', ')}`,
    '',
    '## Ratings',
    '',
    table(
      ['Area', 'Score (0-5)'],
      [
        ['Performance', p.ratings.performance],
        ['Value', p.ratings.value],
        ['Support', p.ratings.support],
        ['Ease of use', p.ratings.easeOfUse],
        ['Features', p.ratings.features],
      ],
    ),
    '',
    '## Pros',
    '',
    ...p.pros.map((x) => `- ${x}`),
    '',
    '## Cons',
    '',
    ...p.cons.map((x) => `- ${x}`),
    '',
    '## Plans',
    '',
    ...(p.priceAge.stalePrices > 0
      ? [
          `**${p.priceAge.stalePrices} of these ${p.plans.length} prices are stale**, marked "(stale)": seen at ${p.name} more than ${STALE_AFTER_DAYS} days before today (${ctx.snapshot.asOf}), or before a price change ${p.name} reported. Each line below says when and why; check the price at ${p.name} before you buy.`,
          '',
        ]
      : []),
    table(
      ['Price a month', 'Plan', 'vCPU', 'RAM', 'Storage', 'Traffic', 'CPU', 'How it is paid'],
      p.plans.map((plan) => [
        priceCell(plan),
        plan.name,
        plan.cpu,
        plan.ram,
        plan.storage,
        plan.bandwidth,
        plan.cpuType,
        basisCell(plan),
      ]),
    ),
    '',
    p.pricingNotes,
    '',
    `Compare these plans with every other provider's in [the plan table](/plans).`,
    '',
    ...p.planLines.map(
      (line) =>
        `- **${line.name}:** ${line.priceList}. ${line.complete ? 'Every size is listed.' : `Not listed here: ${line.notListed}.`} Source: ${line.source.url} (read ${line.source.retrievedAt}). ${linePriceAge(
          p.name,
          line,
          p.plans.filter((plan) => plan.line === line.id),
        )}`,
    ),
    '',
    addOnsMarkdown(p),
    '## Locations',
    '',
    ...regions.map(
      (r) =>
        `- **${REGION_NAMES[r as keyof typeof REGION_NAMES] ?? r}:** ${p.datacenters
          .filter((l) => l.region === r)
          .map((l) => `${l.city} (${l.country})`)
          .join(', ')}`,
    ),
    '',
    '## Features',
    '',
    table(
      ['Feature', 'Offered'],
      FEATURE_KEYS.map((key) => [FEATURE_NAMES[key].label, featureOffer(p.featureDetails[key])]),
    ),
    '',
    '## Links',
    '',
    `- Website: ${p.website}`,
    `- Sign up: ${p.affiliateUrl}`,
    `- Status page: ${p.statusPageUrl}`,
    ...(review ? [`- [Full review](${guidePath(review.slug)})`] : []),
    ...related.map((g) => `- [${g.title}](${guidePath(g.slug)})`),
    '',
    '## Sources',
    '',
    ...p.sources.map((s) => `- ${s.url} (read ${s.retrievedAt})`),
    '',
  ].join('\n');
}

/** "yes", "paid add-on (price)", or "no", with the detail's note. */
function featureOffer(detail: FeatureDetail): string {
  const offer = {
    included: 'yes, included',
    paid: detail.price ? `paid add-on: ${detail.price}` : 'paid add-on',
    unavailable: 'no',
  }[detail.status];
  return detail.note ? `${offer} (${detail.note})` : offer;
}

/** `/providers/{id}`: the review page a provider's `url` points to, with Product and Review data. */
export function providerPage(ctx: PageContext, p: Provider): PageDocument {
  const prices = p.plans.map((plan) => plan.price);
  return buildPage(ctx, {
    path: `/providers/${p.id}`,
    title: `${p.name} review`,
    description: p.summary,
    markdown: providerMarkdown(ctx, p),
    structuredData: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: `${p.name} VPS`,
      brand: { '@type': 'Brand', name: p.name },
      url: p.url,
      description: p.summary,
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: p.currency,
        lowPrice: Math.min(...prices),
        highPrice: Math.max(...prices),
        offerCount: p.plans.length,
      },
      review: {
        '@type': 'Review',
        reviewBody: p.verdict,
        reviewRating: { '@type': 'Rating', ratingValue: p.rating, bestRating: 5, worstRating: 0 },
        author: { '@type': 'Organization', name: ctx.snapshot.meta.source },
      },
    },
  });
}
