import type { UseCase } from '../dataset/dto/use-case.dto.js';
import { guidePath } from '../guides/guide-documents.js';
import { priceTermsText } from '../dataset/plan-pricing.js';
import { STALE_AFTER_DAYS } from '../dataset/price-age.js';
import type { MatchingPlan } from '../use-cases/workload-recommendation.js';
import { money, table, text } from './markdown-text.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';
import { exampleBillMarkdown, exampleBillPlan, exampleBillQueries } from './use-case-bill.js';

/** One sentence on a provider's cheapest fitting plan, how its price is paid and when it was seen (stale prices say so, with why). */
function fittingPlanText(providerName: string, plan: MatchingPlan): string {
  const amount = (n: number) => money(n, plan.currency);
  const seen = ` Price seen at ${providerName} on ${plan.observedAt}${plan.stale ? `: **stale**, ${plan.staleReason}; check it at ${providerName} before you buy` : ''}.`;
  return `Cheapest fitting plan: **${text(plan.planName)}** (${plan.cpu}, ${plan.ram} RAM, ${plan.storage}, traffic ${plan.bandwidth}) at ${amount(plan.price)} a month (${priceTermsText(plan, amount)}), meeting the ${plan.meets} spec.${seen}`;
}

/** When the entry price was seen, and, when it is stale, that no fresh price meets the minimum spec. */
function entryPriceAge(useCase: UseCase): string {
  if (!useCase.startingAtStale) return `The price was seen on ${useCase.startingAtObservedAt}.`;
  return `**This entry price is stale:** no plan whose price was seen within ${STALE_AFTER_DAYS} days of this release (with no later price change reported) meets the minimum spec, so it rests on a price seen on ${useCase.startingAtObservedAt}. Check it at the provider before you buy.`;
}

/** The example bill section, when a recommended provider has a fitting plan. */
function exampleBill(ctx: PageContext, slug: string): string[] {
  const plan = exampleBillPlan(ctx.recommendations.get(slug)!);
  if (!plan) return [];
  const record = ctx.snapshot.useCases.find((u) => u.slug === slug)!;
  const queries = exampleBillQueries(plan, record);
  return [
    exampleBillMarkdown(
      plan,
      queries[0].trafficTb ?? 0,
      queries.map((q) => ctx.estimate(q)),
    ),
  ];
}

/** `/use-cases/{slug}`: sizing, entry price, the recommended providers with their cheapest fitting plan, and an example bill. */
export function useCasePage(ctx: PageContext, useCase: UseCase): PageDocument {
  const rec = ctx.recommendations.get(useCase.slug)!;
  const guide = ctx.snapshot.guidesBySlug.get(`best-vps-for-${useCase.slug}`);
  const spec = (s: UseCase['minimumSpec']) => [s.cpu, s.ram, s.storage, s.bandwidth, s.notes ?? ''];
  const markdown = [
    `# ${useCase.title}`,
    '',
    useCase.description,
    '',
    `Entry price: **${useCase.startingAt}** with no commitment, the cheapest plan still sold that meets the minimum spec, fresh prices first (converted to USD at the dataset's exchange rates, excluding VAT). ${entryPriceAge(useCase)}`,
    ...(useCase.recommendedSpecNote ? ['', `Reaching the recommended spec: ${useCase.recommendedSpecNote}`] : []),
    '',
    '## Sizing',
    '',
    table(
      ['', 'vCPU', 'RAM', 'Disk', 'Transfer a month', 'Notes'],
      [
        ['Minimum', ...spec(useCase.minimumSpec)],
        ['Recommended', ...spec(useCase.recommendedSpec)],
      ],
    ),
    '',
    '## Recommended providers',
    '',
    ...rec.providers.flatMap((p) => [
      `### [${p.name}](/providers/${p.id})`,
      '',
      p.reason,
      '',
      p.cheapestMatchingPlan
        ? fittingPlanText(p.name, p.cheapestMatchingPlan)
        : 'None of its plans meets the minimum spec.',
      '',
      ...(p.transferNote ? [p.transferNote, ''] : []),
    ]),
    ...exampleBill(ctx, useCase.slug),
    ...(guide ? [`Read the full guide: [${guide.title}](${guidePath(guide.slug)}).`, ''] : []),
    `Tags: ${useCase.tags.join(', ')}`,
    '',
  ].join('\n');
  return buildPage(ctx, {
    path: `/use-cases/${useCase.slug}`,
    title: useCase.title,
    description: useCase.description,
    markdown,
  });
}
