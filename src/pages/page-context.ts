import type { AppConfig } from '../config/app-config.js';
import type { CostEstimate } from '../costs/cost-estimate.js';
import type { CostQuery } from '../costs/cost-estimator.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { PlanTableRow } from '../plans/dto/plan-table-row.dto.js';
import type { ProviderDocuments } from '../providers/provider-documents.js';
import type { UseCase } from '../dataset/dto/use-case.dto.js';
import type { Recommendation } from '../use-cases/use-cases.service.js';
import { html, raw, type SafeHtml } from './html.js';
import { layout, pageCsp } from './layout.js';
import type { MarkdownRenderer } from './markdown-renderer.js';
import { HTML_TYPE, MARKDOWN_TYPE, StaticBody, type PageDocument } from './page-document.js';

/** What page builders read: one snapshot and the views derived from it. */
export interface PageContext {
  config: AppConfig;
  snapshot: DatasetSnapshot;
  providers: ProviderDocuments;
  recommendations: ReadonlyMap<string, Recommendation>;
  /** The use cases as the API serves them, with their derived entry prices. */
  useCases: readonly UseCase[];
  /** Every plan as a flat row (the plan table). */
  plans: readonly PlanTableRow[];
  renderer: MarkdownRenderer;
  /** A bill from the cost estimator (the MCP tool's), priced against this snapshot. */
  estimate(query: CostQuery): CostEstimate;
}

export interface PageSpec {
  path: string;
  title: string;
  description: string;
  /** The page as markdown: served for `Accept: text/markdown` and at `<path>.md`. */
  markdown: string;
  /** HTML for <main>; by default the markdown rendered. */
  main?: SafeHtml;
  structuredData?: unknown;
  lastModified?: string;
}

/** `/` → `/index.md`; `/guides/x` → `/guides/x.md`. */
export const markdownPathOf = (path: string) => (path === '/' ? '/index.md' : `${path}.md`);

/** Both forms of a page with their headers: canonical and alternate links, Vary: Accept, CSP. */
export function buildPage(ctx: PageContext, spec: PageSpec): PageDocument {
  const { config } = ctx;
  const url = config.url(spec.path);
  const markdownUrl = config.url(markdownPathOf(spec.path));
  const lastModified = spec.lastModified ?? ctx.snapshot.meta.lastUpdated;
  const main = spec.main ?? raw(ctx.renderer.render(spec.markdown));
  const page = layout(config, {
    title: spec.title,
    description: spec.description,
    url,
    markdownUrl,
    main,
    structuredData: spec.structuredData,
  });
  return {
    html: new StaticBody(page, HTML_TYPE, lastModified, [
      ['Link', `<${markdownUrl}>; rel="alternate"; type="text/markdown"`],
      ['Vary', 'Accept'],
      ['Content-Security-Policy', pageCsp(config)],
      ['X-Content-Type-Options', 'nosniff'],
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ]),
    markdown: new StaticBody(spec.markdown, MARKDOWN_TYPE, lastModified, [
      ['Link', `<${url}>; rel="canonical"; type="text/html"`],
      ['Vary', 'Accept'],
      ['X-Content-Type-Options', 'nosniff'],
    ]),
  };
}

/** A heading and lead paragraph above rendered markdown. */
export function withHeader(title: string, lead: string, body: string, meta?: SafeHtml): SafeHtml {
  return html`<h1>${title}</h1>
${meta ? html`<p class="meta">${meta}</p>` : ''}
<p class="lead">${lead}</p>
${raw(body)}`;
}
