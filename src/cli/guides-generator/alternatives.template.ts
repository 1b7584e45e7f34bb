import type { ProviderRecord } from '../../dataset/dto/provider.dto.js';
import { ALTERNATIVES_FACTS } from '../../dataset/provider-rules.js';
import { quoting, type GeneratorContext } from './generator-context.js';
import { absentPlan, featureCell, frontMatter, link, listing, planPrice, REGION_NAMES, table } from './markdown.js';

/** `<id>-alternatives`: why look elsewhere (editorial), and each pick against the provider in figures. */
export function alternativesGuide(ctx: GeneratorContext, p: ProviderRecord): { slug: string; content: string } {
  const ed = ctx.editorial.alternatives[p.id];
  if (!ed) throw new Error(`data/editorial/alternatives.json has no entry for ${p.id}`);
  const slug = `${p.id}-alternatives`;
  const picks = ed.picks.map((pick) => {
    const other = ctx.byId.get(pick.id);
    if (!other) throw new Error(`alternatives of ${p.id} name an unknown provider ${pick.id}`);
    return { other, why: pick.why };
  });
  const everyone = [p, ...picks.map((x) => x.other)];
  const entry = (x: ProviderRecord) => ctx.plansOf(x.id)[0];
  const regions = (x: ProviderRecord) =>
    listing([...new Set(x.datacenters.map((l) => REGION_NAMES[l.region] ?? l.region))]);
  const fourGb = (x: ProviderRecord) => ctx.plansOf(x.id).find((y) => (y.ramGb ?? 0) >= 4);

  const body = [
    ed.whyLook,
    '',
    '## At a glance',
    '',
    table(
      ['Provider', 'Rating', 'Entry price a month', 'Cheapest 4 GB+', 'Locations', 'Hourly billing'],
      everyone.map((x) => {
        const four = fourGb(x);
        return [
          x.id === p.id ? `${x.name} (for reference)` : link(x.name, `/providers/${x.id}`),
          `${x.rating}/5`,
          planPrice(entry(x)),
          four ? `${four.plan.name}, ${planPrice(four)}` : absentPlan(x),
          x.datacenters.length,
          featureCell(x.featureDetails.hourlyBilling),
        ];
      }),
    ),
    '',
    '## The alternatives',
    '',
    ...picks.flatMap(({ other, why }) => {
      const comparison = ctx.comparisonOf(p.id, other.id);
      return [
        `### ${other.name}`,
        '',
        why,
        '',
        `${other.name} has data centers in ${regions(other)}; rated ${other.rating}/5.` +
          (comparison ? ` Compare them in detail: [${comparison.title}](/guides/${comparison.slug}).` : ''),
        '',
      ];
    }),
    '## Staying with ' + p.name,
    '',
    `${p.name} remains our pick for ${p.bestFor
      .slice(0, 3)
      .map((s) => `[${s}](/use-cases/${s})`)
      .join(', ')}. Read the [${p.name} review](/guides/${p.id}-review) before you move.`,
    '',
  ].join('\n');
  return {
    slug,
    content:
      frontMatter({
        slug,
        title: `${p.name} alternatives: where to go instead`,
        description: `The providers to consider instead of ${p.name}, when each is the better choice, and how their prices and locations compare.`,
        type: 'alternatives',
        keywords: ed.keywords,
        published: ed.published,
        updated: ctx.updated(ed.published, quoting(everyone, ALTERNATIVES_FACTS, true)),
        author: ed.author,
      }) + body,
  };
}
