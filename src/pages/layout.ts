import type { AppConfig } from '../config/app-config.js';
import { html, jsonLd, raw, type SafeHtml } from './html.js';

/** Content-Security-Policy of the site's pages: only our stylesheet; no script runs (JSON-LD is data). */
export function pageCsp(config: AppConfig): string {
  const origin = new URL(config.publicBaseUrl).origin;
  return `default-src 'none'; style-src 'self' ${origin}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

export interface LayoutInput {
  title: string;
  description: string;
  /** Absolute URL of the page. */
  url: string;
  /** Absolute URL of its markdown form (linked same-origin). */
  markdownUrl: string;
  main: SafeHtml;
  structuredData?: unknown;
}

/**
 * The page shell: head with canonical and alternate links, site header and footer. The canonical link is
 * absolute (PUBLIC_BASE_URL); every other link to this site is same-origin, so the page works on
 * whatever host and port the browser reached.
 */
export function layout(config: AppConfig, page: LayoutInput): string {
  const u = (path: string) => config.sitePath(path);
  const markdown = config.sameOrigin(page.markdownUrl);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · vpsapi</title>
<meta name="description" content="${page.description}">
<link rel="canonical" href="${page.url}">
<link rel="alternate" type="text/markdown" href="${markdown}">
<link rel="alternate" type="application/atom+xml" title="vpsapi dataset releases" href="${u('/changes.atom')}">
<link rel="stylesheet" href="${u('/assets/site.css')}">
<link rel="icon" href="data:,">
${page.structuredData ? html`<script type="application/ld+json">${jsonLd(page.structuredData)}</script>` : ''}
</head>
<body>
<header class="site">
<a class="brand" href="${u('/')}">vpsapi</a>
<nav aria-label="Site">
<a href="${u('/#providers')}">Providers</a>
<a href="${u('/plans')}">Plans</a>
<a href="${u('/guides')}">Guides</a>
<a href="${u('/#use-cases')}">Use cases</a>
<a href="${u('/docs')}">API docs</a>
<a href="${u('/llms.txt')}">llms.txt</a>
</nav>
</header>
<main>
${page.main}
</main>
<footer class="site">
<p>Independent data on VPS hosting. Read this page <a href="${markdown}">as markdown</a>, use the <a href="${u('/docs')}">JSON API</a> or connect an agent to <a href="${u('/.well-known/mcp/server-card.json')}">the MCP server</a>. Follow <a href="${u('/changes.atom')}">what changes</a> with each dataset release.</p>
</footer>
</body>
</html>
`.value;
}

export { raw };
