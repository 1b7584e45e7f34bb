import { REGION_NAMES, type FeatureDetail, type Provider } from '../dataset/dto/provider.dto.js';
import { FEATURE_KEYS, FEATURE_NAMES } from '../dataset/features.js';
import { priceBasisCell } from '../dataset/plan-pricing.js';
import { guidePath } from '../guides/guide-documents.js';
import { money, table } from './markdown-text.js';
import { addOnsMarkdown } from './provider-add-ons.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';


/** The provider's review page as markdown: verdict, facts, ratings, pros and cons, plans, add-ons and tax, locations, links. */
export function providerMarkdown(ctx: PageContext, p: Provider): string {
  const guides = ctx.snapshot.guides;
  const review = guides.find((g) => g.slug === `${p.id}-review`);
  const related = guides.filter((g) => (g.type === 'comparison' || g.type === 'alternatives') && g.slug.split('-').includes(p.id));
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
    table(['Area', 'Score (0-5)'], [['Performance', p.ratings.performance], ['Value', p.ratings.value], ['Support', p.ratings.support], ['Ease of use', p.ratings.easeOfUse], ['Features', p.ratings.features]]),
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
    table(
      ['Price a month', 'Plan', 'vCPU', 'RAM', 'Storage', 'Traffic', 'CPU', 'How it is paid'],
      p.plans.map((plan) => [money(plan.price, plan.currency), plan.name, plan.cpu, plan.ram, plan.storage, plan.bandwidth, plan.cpuType, priceBasisCell(plan)]),
    ),
    '',
    p.pricingNotes,
    '',
    `Compare these plans with every other provider's in [the plan table](/plans).`,
    '',
    ...p.planLines.map((line) => `- **${line.name}:** ${line.priceList}. ${line.complete ? 'Every size is listed.' : `Not listed here: ${line.notListed}.`} Source: ${line.source.url} (read ${line.source.retrievedAt}).`),
    '',
    addOnsMarkdown(p),
    '## Locations',
    '',
    ...regions.map((r) => `- **${REGION_NAMES[r as keyof typeof REGION_NAMES] ?? r}:** ${p.datacenters.filter((l) => l.region === r).map((l) => `${l.city} (${l.country})`).join(', ')}`),
    '',
    '## Features',
    '',
    table(['Feature', 'Offered'], FEATURE_KEYS.map((key) => [FEATURE_NAMES[key].label, featureOffer(p.featureDetails[key])])),
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
  const offer = { included: 'yes, included', paid: detail.price ? `paid add-on: ${detail.price}` : 'paid add-on', unavailable: 'no' }[detail.status];
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
