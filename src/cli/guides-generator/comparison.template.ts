import { FEATURE_KEYS, FEATURE_NAMES } from '../../dataset/features.js';
import type { ProviderRecord } from '../../dataset/dto/provider.dto.js';
import type { ComparisonEditorial } from './editorial.js';
import { COMPARISON_FACTS } from '../../dataset/provider-rules.js';
import { quoting, type GeneratorContext } from './generator-context.js';
import { absentPlan, featureCell, frontMatter, listing, planPrice, REGION_NAMES, table } from './markdown.js';

const RAM_TIERS = [1, 2, 4, 8, 16];

/** `<a>-vs-<b>` (or a group): editorial framing around side-by-side figures from the data. */
export function comparisonGuide(ctx: GeneratorContext, ed: ComparisonEditorial): { slug: string; content: string } {
  const ps = ed.providers.map((id) => {
    const p = ctx.byId.get(id);
    if (!p) throw new Error(`comparison ${ed.slug} names an unknown provider ${id}`);
    return p;
  });
  const names = ps.map((p) => p.name);
  const entry = (p: ProviderRecord) => ctx.plansOf(p.id)[0];
  const cheapestWith = (p: ProviderRecord, gb: number) => ctx.plansOf(p.id).find((x) => (x.ramGb ?? 0) >= gb);

  const tierRows = RAM_TIERS.map((gb) => [
    `${gb} GB+`,
    ...ps.map((p) => {
      const x = cheapestWith(p, gb);
      return x ? `${x.plan.name}, ${planPrice(x)}` : absentPlan(p);
    }),
  ]);
  const cheaperAt = RAM_TIERS.flatMap((gb) => {
    // Only no-commitment prices are set against each other: a prepaid term is not the same purchase.
    const offers = ps.map((p) => ({ p, x: cheapestWith(p, gb) })).filter((o) => o.x && o.x.noCommitmentUsd !== null);
    if (offers.length < 2) return [];
    offers.sort((a, b) => a.x!.noCommitmentUsd! - b.x!.noCommitmentUsd!);
    const [best, next] = offers;
    const gap = Math.round((1 - best.x!.noCommitmentUsd! / next.x!.noCommitmentUsd!) * 100);
    return gap > 0
      ? [
          `- With at least ${gb} GB of RAM, ${best.p.name} is ${gap}% cheaper than ${next.p.name} (${best.x!.plan.name} against ${next.x!.plan.name}).`,
        ]
      : [];
  });
  const countries = ps.map((p) => new Set(p.datacenters.map((l) => l.country)));
  const shared = [...countries[0]].filter((c) => countries.every((s) => s.has(c))).sort();
  const quoted = quoting(ps, COMPARISON_FACTS, true);
  const featureRows = FEATURE_KEYS.map((f) => [
    FEATURE_NAMES[f].label,
    ...ps.map((p) => featureCell(p.featureDetails[f])),
  ]);

  const body = [
    ed.intro,
    '',
    '## Side by side',
    '',
    table(
      ['', ...names],
      [
        ['Our rating', ...ps.map((p) => `${p.rating}/5`)],
        [
          'Entry plan',
          ...ps.map(
            (p) => `${entry(p).plan.name}: ${entry(p).plan.cpu}, ${entry(p).plan.ram}, ${entry(p).plan.storage}`,
          ),
        ],
        ['Entry price a month', ...ps.map((p) => planPrice(entry(p)))],
        ['Billed in', ...ps.map((p) => p.currency)],
        ['Locations', ...ps.map((p) => String(p.datacenters.length))],
        ['Support', ...ps.map((p) => p.support)],
      ],
    ),
    '',
    '## Price for the same memory',
    '',
    quoted.convertsPrices
      ? `The cheapest plan of each with at least this much RAM (USD at the ECB rate of ${ctx.usdRatesDate}):`
      : 'The cheapest plan of each with at least this much RAM:',
    '',
    table(['RAM', ...names], tierRows),
    '',
    ...cheaperAt,
    '',
    '## Key differences',
    '',
    ed.keyDifferences,
    '',
    '## Platform features',
    '',
    table(['Feature', ...names], featureRows),
    '',
    '## Where the servers are',
    '',
    ...ps.map(
      (p) =>
        `- ${p.name}: ${listing([...new Set(p.datacenters.map((l) => REGION_NAMES[l.region] ?? l.region))])}; ${p.datacenters.map((l) => l.city).join(', ')}.`,
    ),
    shared.length > 0
      ? `- Countries where all of them have a data center: ${shared.join(', ')}.`
      : '- They share no country.',
    '',
    '## Ratings',
    '',
    table(
      ['Area', ...names],
      (['performance', 'value', 'support', 'easeOfUse', 'features'] as const).map((k) => [
        {
          performance: 'Performance',
          value: 'Value',
          support: 'Support',
          easeOfUse: 'Ease of use',
          features: 'Features',
        }[k],
        ...ps.map((p) => p.ratings[k]),
      ]),
    ),
    '',
    '## Which to pick',
    '',
    ed.verdict,
    '',
    '## Further reading',
    '',
    ...ps.map((p) => `- [${p.name} review](/guides/${p.id}-review) and [provider page](/providers/${p.id})`),
    '',
  ].join('\n');

  return {
    slug: ed.slug,
    content:
      frontMatter({
        slug: ed.slug,
        title: ed.title,
        description: ed.description,
        type: 'comparison',
        keywords: ed.keywords,
        published: ed.published,
        updated: ctx.updated(ed.published, quoted),
        author: ed.author,
      }) + body,
  };
}
