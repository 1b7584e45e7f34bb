import markdownIt, { type MarkdownIt, type RendererRule } from 'markdown-it';

/**
 * Markdown to HTML with markdown-it, configured safe for dataset text: raw HTML in markdown is
 * escaped rather than passed through, and its link validator drops javascript:, vbscript:, file:
 * and data: URLs. Site-relative links (/guides/...) are made absolute with the public base URL, so
 * pages work under a path prefix.
 */
export class MarkdownRenderer {
  private readonly md: MarkdownIt;

  constructor(publicBaseUrl: string) {
    this.md = markdownIt({ html: false, linkify: false, typographer: false });
    const defaultLink: RendererRule = this.md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
    this.md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
      const token = tokens[idx];
      const href = String(token.attrGet('href') ?? '');
      if (href.startsWith('/') && !href.startsWith('//')) token.attrSet('href', publicBaseUrl + href);
      else if (/^https?:\/\//i.test(href)) token.attrSet('rel', 'noopener');
      return defaultLink(tokens, idx, options, env, self);
    };
    // Tables scroll on narrow screens instead of overflowing the page.
    this.md.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n';
    this.md.renderer.rules.table_close = () => '</table></div>\n';
  }

  /** HTML for a markdown text. */
  render(markdown: string): string {
    return this.md.render(markdown);
  }
}
