import { isOffered } from '../../dataset/features.js';
import { priceBasisCell } from '../../dataset/plan-pricing.js';
import type { ProviderRecord } from '../../dataset/dto/provider.dto.js';
import { REVIEW_FACTS } from '../../dataset/provider-rules.js';
import { quoting, type GeneratorContext } from './generator-context.js';
import { frontMatter, listing, money, planPrice, REGION_NAMES, table } from './markdown.js';

/** `<id>-review`: the verdict and ratings from the data, the editorial sections, the plan table. */
export function reviewGuide(ctx: GeneratorContext, p: ProviderRecord): { slug: string; content: string } {
  const ed = ctx.editorial.reviews[p.id];
  if (!ed) throw new Error(`data/editorial/reviews.json has no entry for ${p.id}`);
  const slug = `${p.id}-review`;
  const plans = ctx.plansOf(p.id);
  const listed = ctx.listedPlansOf(p.id);
  const entry = plans[0];
  const regions = [...new Set(p.datacenters.map((l) => l.region))];
  const dedicated = plans.filter((x) => x.plan.cpuType === 'dedicated');
  const atLeast = (gb: number) => plans.find((x) => (x.ramGb ?? 0) >= gb);
  const tiers = [2, 4, 8, 16].map((gb) => [gb, atLeast(gb)] as const).filter(([, x]) => x);
  const others = ctx.providers.filter((o) => o.id !== p.id);
  const comparisons = others.map((o) => ctx.comparisonOf(p.id, o.id)).filter((c) => c !== undefined);

  const body = [
    '## Verdict',
    '',
    `${p.verdict} Our rating: **${p.rating} out of 5**.`,
    '',
    '## At a glance',
    '',
    table(
      ['', p.name],
      [
        [
          'Entry plan',
          `${entry.plan.name}: ${entry.plan.cpu}, ${entry.plan.ram} RAM, ${entry.plan.storage}, ${planPrice(entry)} a month`,
        ],
        [
          'Plans listed',
          listed.length === plans.length
            ? plans.length
            : `${plans.length} sold, ${listed.length - plans.length} discontinued`,
        ],
        [
          'Locations',
          `${p.datacenters.length} in ${listing(regions.map((r) => REGION_NAMES[r as keyof typeof REGION_NAMES] ?? r))}`,
        ],
        [
          'Billing',
          isOffered(p.featureDetails.hourlyBilling) ? 'hourly, capped at the monthly price' : 'monthly or longer terms',
        ],
        ['Support', p.support],
        ['Founded', `${p.founded}, ${p.headquarters.city} (${p.headquarters.country})`],
      ],
    ),
    '',
    '## Who it suits',
    '',
    ed.whoItSuits,
    '',
    '## Performance and network',
    '',
    ed.performance,
    '',
    table(
      ['Area', 'Score'],
      [
        ['Performance', p.ratings.performance],
        ['Value', p.ratings.value],
        ['Support', p.ratings.support],
        ['Ease of use', p.ratings.easeOfUse],
        ['Features', p.ratings.features],
      ],
    ),
    '',
    '## Plans and prices',
    '',
    table(
      ['Plan', 'vCPU', 'RAM', 'Storage', 'Traffic', 'CPU', 'Per month', 'How it is paid', 'Seen on'],
      listed.map((x) => [
        x.plan.discontinued ? `${x.plan.name} (discontinued)` : x.plan.name,
        x.plan.cpu,
        x.plan.ram,
        x.plan.storage,
        x.plan.bandwidth,
        x.plan.cpuType,
        money(x.plan.price, x.plan.currency),
        priceBasisCell(x.plan),
        x.plan.stale ? `${x.plan.observedAt} (stale)` : x.plan.observedAt,
      ]),
    ),
    '',
    p.pricingNotes,
    '',
    ...tiers.map(([gb, x]) => `- Cheapest with at least ${gb} GB of RAM: ${x!.plan.name} at ${planPrice(x!)}.`),
    dedicated.length > 0
      ? `- Dedicated vCPUs start with ${dedicated[0].plan.name} at ${planPrice(dedicated[0])}.`
      : `- ${p.name} lists no dedicated-vCPU plan in this lineup.`,
    '',
    '## Data centers',
    '',
    ed.dataCenters,
    '',
    ...regions.map(
      (r) =>
        `- ${REGION_NAMES[r as keyof typeof REGION_NAMES] ?? r}: ${p.datacenters
          .filter((l) => l.region === r)
          .map((l) => l.city)
          .join(', ')}`,
    ),
    '',
    '## Support',
    '',
    ed.support,
    '',
    '## Pros and cons',
    '',
    ...p.pros.map((x) => `- Pro: ${x}`),
    ...p.cons.map((x) => `- Con: ${x}`),
    '',
    '## What we would change',
    '',
    ed.wouldChange,
    '',
    '## Further reading',
    '',
    `- [${p.name}: plans, locations and links](/providers/${p.id})`,
    `- [Alternatives to ${p.name}](/guides/${p.id}-alternatives)`,
    ...comparisons.map((c) => `- [${c.title}](/guides/${c.slug})`),
    '',
  ].join('\n');

  return {
    slug,
    content:
      frontMatter({
        slug,
        title: `${p.name} review: plans, prices and verdict`,
        description: `Our ${p.name} review: who it suits, performance, every plan with its price, data centers, support, and a rating of ${p.rating}/5.`,
        type: 'review',
        keywords: ed.keywords,
        published: ed.published,
        updated: ctx.updated(ed.published, quoting([p], REVIEW_FACTS, true)),
        author: 'lena-brandt',
      }) + body,
  };
}
