import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import type { ErrorPages } from '../common/errors/error-pages.js';
import { CostEstimator } from '../costs/cost-estimator.service.js';
import type { HttpProblem } from '../common/errors/http-problem.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { PlanTableService } from '../plans/plan-table.service.js';
import { PLAN_SORTS, plansPagePath, type PlanSort } from '../plans/plan-sorts.js';
import { ProvidersService } from '../providers/providers.service.js';
import { UseCasesService } from '../use-cases/use-cases.service.js';
import { apiDocsMarkdown } from './api-docs.markdown.js';
import { guidePage } from './guide.page.js';
import { guidesIndexPage } from './guides-index.page.js';
import { homePage } from './home.page.js';
import { html } from './html.js';
import { layout, pageCsp } from './layout.js';
import { llmsFullTxt, llmsTxt } from './llms-txt.js';
import { MarkdownRenderer } from './markdown-renderer.js';
import { notFoundPage } from './not-found.page.js';
import { markdownPathOf, type PageContext } from './page-context.js';
import { HTML_TYPE, MARKDOWN_TYPE, StaticBody, TEXT_TYPE, type PageDocument } from './page-document.js';
import { plansPage } from './plans.page.js';
import { providerPage } from './provider.page.js';
import { SITE_CSS } from './stylesheet.js';
import { useCasePage } from './use-case.page.js';

interface Site {
  /** Pages by path, in both forms. */
  pages: ReadonlyMap<string, PageDocument>;
  /** Markdown-only documents by path: every page's `.md` URL, `/docs.md`, the llms files. */
  files: ReadonlyMap<string, StaticBody>;
  notFound: PageDocument;
}

/** Every page of the site, rendered once per dataset version, in HTML and markdown; and the error pages. */
@Injectable()
export class PagesService implements ErrorPages {
  private readonly site: DatasetView<Site>;
  private readonly renderer: MarkdownRenderer;

  constructor(
    dataset: DatasetService,
    providers: ProvidersService,
    useCases: UseCasesService,
    plans: PlanTableService,
    estimator: CostEstimator,
    private readonly config: AppConfig,
  ) {
    this.renderer = new MarkdownRenderer(config);
    this.site = dataset.view((snapshot) =>
      buildSite({
        config,
        snapshot,
        providers: providers.documentsFor(snapshot),
        recommendations: useCases.recommendationsFor(snapshot),
        useCases: useCases.useCasesFor(snapshot),
        plans: plans.rowsFor(snapshot),
        renderer: this.renderer,
        estimate: (query) => estimator.estimate(query, snapshot),
      }),
    );
  }

  /** The page at `path` (`/`, `/guides/x`, ...), or undefined. */
  page(path: string): PageDocument | undefined {
    return this.site.get().pages.get(path);
  }

  /** A markdown or text file at `path` (`/guides/x.md`, `/llms.txt`, ...), or undefined. */
  file(path: string): StaticBody | undefined {
    return this.site.get().files.get(path);
  }

  get notFound(): PageDocument {
    return this.site.get().notFound;
  }

  pageFor(problem: HttpProblem, form: 'html' | 'markdown'): StaticBody {
    return problem.status === 404 ? this.notFound[form] : this.errorPage(problem, form);
  }

  /** An error page for a problem outside the API (rendered per error; errors are rare and small). */
  errorPage(problem: HttpProblem, form: 'html' | 'markdown'): StaticBody {
    if (form === 'markdown') return new StaticBody(`# ${problem.message}\n\n${problem.resolution}\n`, MARKDOWN_TYPE);
    const main = html`<h1>${problem.message}</h1><p>${problem.resolution}</p><p><a href="${this.config.sitePath('/')}">Home</a></p>`;
    const page = layout(this.config, {
      title: `Error ${problem.status}`,
      description: problem.message,
      url: this.config.url('/'),
      markdownUrl: this.config.url('/index.md'),
      main,
    });
    return new StaticBody(page, HTML_TYPE, undefined, [
      ['Content-Security-Policy', pageCsp(this.config)],
      ['X-Content-Type-Options', 'nosniff'],
    ]);
  }
}

function buildSite(ctx: PageContext): Site {
  const { snapshot } = ctx;
  const pages = new Map<string, PageDocument>();
  const add = (path: string, page: PageDocument) => pages.set(path, page);
  add('/', homePage(ctx));
  add('/guides', guidesIndexPage(ctx));
  for (const sort of Object.keys(PLAN_SORTS) as PlanSort[]) add(plansPagePath(sort), plansPage(ctx, sort));
  for (const guide of snapshot.guides) add(`/guides/${guide.slug}`, guidePage(ctx, guide));
  for (const provider of ctx.providers.list.value.providers)
    add(`/providers/${provider.id}`, providerPage(ctx, provider));
  for (const useCase of ctx.useCases) add(`/use-cases/${useCase.slug}`, useCasePage(ctx, useCase));

  const files = new Map<string, StaticBody>();
  for (const [path, page] of pages) files.set(markdownPathOf(path), page.markdown);
  const canonical = (path: string): [string, string][] => [['Link', `<${ctx.config.url(path)}>; rel="canonical"`]];
  files.set(
    '/docs.md',
    new StaticBody(apiDocsMarkdown(ctx), MARKDOWN_TYPE, snapshot.meta.lastUpdated, canonical('/docs')),
  );
  files.set('/llms.txt', new StaticBody(llmsTxt(ctx), TEXT_TYPE, snapshot.meta.lastUpdated));
  files.set('/llms-full.txt', new StaticBody(llmsFullTxt(ctx), TEXT_TYPE, snapshot.meta.lastUpdated));
  files.set('/assets/site.css', new StaticBody(SITE_CSS, 'text/css; charset=utf-8'));
  return { pages, files, notFound: notFoundPage(ctx) };
}

export type { DatasetSnapshot };
