import { html } from './html.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';

/** The 404 page for unknown paths outside /api/ (answered with status 404). */
export function notFoundPage(ctx: PageContext): PageDocument {
  const u = (path: string) => ctx.config.sitePath(path);
  const markdown = `# Page not found\n\nNothing is published at this address. Try the [home page](/), the [guide index](/guides) or the [API index](/api/index.json).\n`;
  return buildPage(ctx, {
    path: '/404',
    title: 'Page not found',
    description: 'Nothing is published at this address.',
    markdown,
    main: html`<h1>Page not found</h1>
<p>Nothing is published at this address.</p>
<ul>
<li><a href="${u('/')}">Home</a>: providers, use cases and the latest guides</li>
<li><a href="${u('/guides')}">All guides</a></li>
<li><a href="${u('/api/index.json')}">API index</a> and <a href="${u('/docs')}">API docs</a></li>
</ul>`,
  });
}
