import type { UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import { specText } from '../dataset/plan-figures.js';
import { guidePath } from '../guides/guide-documents.js';
import { money, table } from './markdown-text.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';

/** `/use-cases/{slug}`: sizing, entry price and the recommended providers with their cheapest fitting plan. */
export function useCasePage(ctx: PageContext, useCase: UseCaseRecord): PageDocument {
  const rec = ctx.recommendations.get(useCase.slug)!;
  const guide = ctx.snapshot.guidesBySlug.get(`best-vps-for-${useCase.slug}`);
  const spec = (s: UseCaseRecord['minimumSpec']) => {
    const text = specText(s);
    return [text.cpu, text.ram, text.storage, text.bandwidth, s.notes ?? ''];
  };
  const markdown = [
    `# ${useCase.title}`,
    '',
    useCase.description,
    '',
    `Typical entry price: **${useCase.startingAt}**.`,
    '',
    '## Sizing',
    '',
    table(['', 'vCPU', 'RAM', 'Disk', 'Transfer a month', 'Notes'], [['Minimum', ...spec(useCase.minimumSpec)], ['Recommended', ...spec(useCase.recommendedSpec)]]),
    '',
    '## Recommended providers',
    '',
    ...rec.providers.flatMap((p) => [
      `### [${p.name}](/providers/${p.id})`,
      '',
      p.reason,
      '',
      p.cheapestMatchingPlan
        ? `Cheapest fitting plan: **${p.cheapestMatchingPlan.planName}** (${p.cheapestMatchingPlan.cpu}, ${p.cheapestMatchingPlan.ram} RAM, ${p.cheapestMatchingPlan.storage}) at ${money(p.cheapestMatchingPlan.price, p.cheapestMatchingPlan.currency)} a month, meeting the ${p.cheapestMatchingPlan.meets} spec.`
        : 'None of its plans meets the minimum spec.',
      '',
    ]),
    ...(guide ? [`Read the full guide: [${guide.title}](${guidePath(guide.slug)}).`, ''] : []),
    `Tags: ${useCase.tags.join(', ')}`,
    '',
  ].join('\n');
  return buildPage(ctx, { path: `/use-cases/${useCase.slug}`, title: useCase.title, description: useCase.description, markdown });
}
