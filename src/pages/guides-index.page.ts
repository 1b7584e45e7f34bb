import { GUIDE_TYPES, type GuideType } from '../dataset/dto/guide.dto.js';
import { guidePath } from '../guides/guide-documents.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';

export const GUIDE_TYPE_TITLES: Record<GuideType, string> = {
  review: 'Provider reviews',
  comparison: 'Comparisons',
  workload: 'Workload guides',
  'best-of': 'Best-of lists',
  alternatives: 'Alternatives',
  tutorial: 'Tutorials',
};

/** `/guides`: every guide, grouped by type, newest first within each group. */
export function guidesIndexPage(ctx: PageContext): PageDocument {
  const { guides } = ctx.snapshot;
  const sections = GUIDE_TYPES.map((type) => {
    const ofType = guides.filter((g) => g.type === type);
    if (ofType.length === 0) return '';
    const items = ofType.map(
      (g) => `- [${g.title}](${guidePath(g.slug)}) (${g.published}, ${g.readTimeMinutes} min): ${g.description}`,
    );
    return `## ${GUIDE_TYPE_TITLES[type]}\n\n${items.join('\n')}\n`;
  });
  const markdown = `# Guides\n\n${guides.length} guides on choosing and running a VPS, newest first in each section.\n\n${sections.join('\n')}`;
  return buildPage(ctx, {
    path: '/guides',
    title: 'Guides',
    description: `${guides.length} guides on choosing and running a VPS.`,
    markdown,
  });
}
