import type { GuideEntry } from '../dataset/dataset-snapshot.js';
import { CHECKED_IN_PLACE_OF, checkedSystems } from '../dataset/dto/guide.dto.js';
import { guidePath } from '../guides/guide-documents.js';
import { html } from './html.js';
import { buildPage, markdownPathOf, type PageContext, withHeader } from './page-context.js';
import type { PageDocument } from './page-document.js';

/** `{ debian: "12, 13", nginx: "1.26" }` -> `debian 12, 13; nginx 1.26`. */
const versionsText = (versions: Record<string, string>) =>
  Object.entries(versions)
    .map(([name, version]) => `${name} ${version}`)
    .join('; ');

/** A tutorial's versions as one markdown line: those the checks ran with, then those the steps were only written for. */
function versionsMarkdown(guide: GuideEntry): string {
  const parts = [
    guide.verifiedWith && `Verified with ${versionsText(guide.verifiedWith)}.`,
    guide.writtenFor && `Written for ${versionsText(guide.writtenFor)} (not checked here).`,
  ].filter(Boolean);
  return parts.length ? `*${parts.join(' ')}*\n\n` : '';
}

/** The markdown form of a guide: its title as H1 above a tutorial's versions and the body. */
export const guideMarkdown = (guide: GuideEntry) => `# ${guide.title}\n\n${versionsMarkdown(guide)}${guide.markdown}`;

const systemName = (s: string) => s.replace(/^debian-/, 'Debian ').replace(/^ubuntu-/, 'Ubuntu ');

/**
 * A tutorial's systems, which Debian release was checked in place of each Ubuntu one, the versions the
 * checks ran with and those the steps were only written for ('' for other guides).
 */
function systemsLine(guide: GuideEntry) {
  if (!guide.systems) return html``;
  const instead = guide.systems
    .filter((s) => CHECKED_IN_PLACE_OF[s])
    .map((s) => `${systemName(CHECKED_IN_PLACE_OF[s])} in place of ${systemName(s)}`);
  const checked = `checked with the tools of ${checkedSystems(guide.systems).map(systemName).join(' and ')}${instead.length ? ` (${instead.join(', ')})` : ''}`;
  const verified = guide.verifiedWith && html`<br>Verified with ${versionsText(guide.verifiedWith)}`;
  const written = guide.writtenFor && html`<br>Written for ${versionsText(guide.writtenFor)} (not checked here)`;
  return html`<br>For ${guide.systems.map(systemName).join(', ')}; ${checked}${verified}${written}`;
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
