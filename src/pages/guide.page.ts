import type { GuideEntry } from '../dataset/dataset-snapshot.js';
import { CHECKED_IN_PLACE_OF, checkedSystems } from '../dataset/dto/guide.dto.js';
import { guidePath } from '../guides/guide-documents.js';
import { html } from './html.js';
import { buildPage, markdownPathOf, type PageContext, withHeader } from './page-context.js';
import type { PageDocument } from './page-document.js';

/** The markdown form of a guide: its title as H1 above the body (the same text MCP serves). */
export const guideMarkdown = (guide: GuideEntry) => `# ${guide.title}\n\n${guide.markdown}`;

const systemName = (s: string) => s.replace(/^debian-/, 'Debian ').replace(/^ubuntu-/, 'Ubuntu ');

/** A tutorial's systems, and which Debian release was checked in place of each Ubuntu one ('' for other guides). */
function systemsLine(guide: GuideEntry) {
  if (!guide.systems) return html``;
  const instead = guide.systems
    .filter((s) => CHECKED_IN_PLACE_OF[s])
    .map((s) => `${systemName(CHECKED_IN_PLACE_OF[s])} in place of ${systemName(s)}`);
  const checked = `checked with the tools of ${checkedSystems(guide.systems).map(systemName).join(' and ')}${instead.length ? ` (${instead.join(', ')})` : ''}`;
  return html`<br>For ${guide.systems.map(systemName).join(', ')}; ${checked}`;
}

/** `/guides/{slug}`: the rendered guide with Article structured data. */
export function guidePage(ctx: PageContext, guide: GuideEntry): PageDocument {
  const author = ctx.snapshot.authorsById.get(guide.author)?.name ?? guide.author;
  const path = guidePath(guide.slug);
  const meta = html`By ${author} · <time datetime="${guide.published}">${guide.published}</time> · ${guide.readTimeMinutes} min read · <span class="pill">${guide.type}</span>${systemsLine(guide)}`;
  return buildPage(ctx, {
    path,
    title: guide.title,
    description: guide.description,
    markdown: guideMarkdown(guide),
    main: withHeader(guide.title, guide.description, ctx.renderer.render(guide.markdown), meta),
    structuredData: {
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: guide.title,
      description: guide.description,
      datePublished: guide.published,
      author: { '@type': 'Person', name: author },
      publisher: { '@type': 'Organization', name: 'vpsapi' },
      keywords: guide.keywords.join(', '),
      wordCount: guide.wordCount,
      mainEntityOfPage: ctx.config.url(path),
      encoding: {
        '@type': 'MediaObject',
        encodingFormat: 'text/markdown',
        contentUrl: ctx.config.url(markdownPathOf(path)),
      },
    },
  });
}
