import markdownIt, { type MarkdownIt, type RendererRule, type Token } from 'markdown-it';
import type { AppConfig } from '../config/app-config.js';
import { escapeHtml } from './html.js';

/** Tables with at least this many columns may be wider than a phone: they scroll in a labelled region with a hint. */
const WIDE_TABLE_COLUMNS = 3;

/** What one render call shares between its rules (here: how many tables it has numbered, so hint ids stay unique). */
type RenderEnv = NonNullable<Parameters<RendererRule>[3]>;

/**
 * Markdown to HTML with markdown-it, configured safe for dataset text: raw HTML in markdown is
 * escaped rather than passed through, and its link validator drops javascript:, vbscript:, file:
 * and data: URLs. URLs written as text (`https://…`) become links; host names without a scheme and
 * e-mail addresses stay text (guides are full of example hosts). Links to this site stay on the origin
 * the browser reached: site-relative links (/guides/...) get PUBLIC_BASE_URL's path prefix, absolute
 * ones on PUBLIC_BASE_URL lose its origin; links to other sites get rel="noopener".
 */
export class MarkdownRenderer {
  private readonly md: MarkdownIt;

  constructor(site: Pick<AppConfig, 'publicBaseUrl' | 'sitePath' | 'sameOrigin'>) {
    this.md = markdownIt({ html: false, linkify: true, typographer: false });
    this.md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
    const ownOrigin = new URL(site.publicBaseUrl).origin;
    const defaultLink: RendererRule =
      this.md.renderer.rules.link_open ??
      ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
    this.md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
      const token = tokens[idx];
      const href = String(token.attrGet('href') ?? '');
      if (href.startsWith('/') && !href.startsWith('//')) token.attrSet('href', site.sitePath(href));
      else if (site.sameOrigin(href) !== href) token.attrSet('href', site.sameOrigin(href));
      else if (isOtherSite(href, ownOrigin)) token.attrSet('rel', 'noopener');
      return defaultLink(tokens, idx, options, env, self);
    };
    this.md.renderer.rules.table_open = (tokens, idx, _options, env) => tableOpen(tokens, idx, env ?? {});
    this.md.renderer.rules.table_close = () => '</table></div>\n';
  }

  /** HTML for a markdown text. */
  render(markdown: string): string {
    return this.md.render(markdown, {});
  }
}

/**
 * Every table scrolls inside its own box instead of widening the page. One that may be wider than a
 * phone is a focusable region (so the keyboard can scroll it) labelled by the heading above it, with
 * a hint on narrow screens that says it scrolls.
 */
function tableOpen(tokens: Token[], idx: number, env: RenderEnv): string {
  if (columnCount(tokens, idx) < WIDE_TABLE_COLUMNS) return '<div class="table-wrap"><table>\n';
  const number = (typeof env.tables === 'number' ? env.tables : 0) + 1;
  env.tables = number;
  const hintId = `table-hint-${number}`;
  const label = `${headingBefore(tokens, idx) ?? 'Table'} (table, scrolls sideways)`;
  return (
    `<p class="scroll-hint compact" id="${hintId}">If the table is cut off, scroll it sideways.</p>\n` +
    `<div class="table-wrap" role="region" tabindex="0" aria-label="${escapeHtml(label)}" aria-describedby="${hintId}"><table>\n`
  );
}

/** The number of header cells in the table starting at `idx`. */
function columnCount(tokens: Token[], idx: number): number {
  let count = 0;
  for (let i = idx; i < tokens.length && tokens[i].type !== 'tr_close'; i++) if (tokens[i].type === 'th_open') count++;
  return count;
}

/** The plain text of the nearest heading before `idx` (link and emphasis markup dropped), if any. */
function headingBefore(tokens: Token[], idx: number): string | undefined {
  for (let i = idx - 1; i >= 0; i--) {
    if (tokens[i].type !== 'heading_open') continue;
    const parts = tokens[i + 1]?.children ?? [];
    return parts
      .filter((t) => t.type === 'text' || t.type === 'code_inline')
      .map((t) => t.content)
      .join('');
  }
  return undefined;
}

/** An http(s) URL on another origin than the site's. */
function isOtherSite(href: string, ownOrigin: string): boolean {
  if (!/^https?:\/\//i.test(href)) return false;
  try {
    return new URL(href).origin !== ownOrigin;
  } catch {
    return true;
  }
}
