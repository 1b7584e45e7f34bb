import { GUIDE_TYPES } from '../dataset/dto/guide.dto.js';
import { guideMarkdownPath } from '../guides/guide-documents.js';
import { GUIDE_TYPE_TITLES } from './guides-index.page.js';
import { guideMarkdown } from './guide.page.js';
import type { PageContext } from './page-context.js';
import { MCP_PATH } from '../common/http/mcp-path.js';

/** `/llms.txt` (llmstxt.org): title, summary, notes, and sections of links to markdown forms. */
export function llmsTxt(ctx: PageContext): string {
  const { snapshot, config } = ctx;
  const u = (path: string) => config.url(path);
  const link = (name: string, path: string, note: string) => `- [${name}](${u(path)}): ${note}`;
  const guidesOf = (types: readonly string[]) =>
    snapshot.guides
      .filter((g) => types.includes(g.type))
      .map((g) => link(g.title, guideMarkdownPath(g.slug), g.description));
  const primary = ['review', 'comparison', 'workload'];
  return [
    '# vpsapi',
    '',
    `> Independent data for choosing a VPS: reviews and plan matrices of ${snapshot.providers.length} providers, sizing for ${snapshot.useCases.length} workloads and ${snapshot.guides.length} guides, as a JSON API, an MCP server and markdown pages.`,
    '',
    `Dataset version ${snapshot.version}; prices are monthly, exclude VAT and are in the currency each provider bills in. Every page is available as markdown (append \`.md\` or send \`Accept: text/markdown\`). Agents can call the MCP server at ${u(MCP_PATH)} (Streamable HTTP, no authentication).`,
    '',
    '## API',
    '',
    link('API reference', '/docs.md', 'endpoints, caching, rate limits, errors and MCP tools'),
    link('API index', '/api/index.json', 'every JSON endpoint with its URL'),
    link('OpenAPI 3.1', '/openapi.json', 'the machine-readable contract'),
    link(
      'MCP server card',
      '/.well-known/mcp/server-card.json',
      'tools, prompts and how to connect; find_vps_plans filters by city or country, estimate_monthly_cost gives the real monthly bill, find_equivalent_plans the same for less, describe_filters the valid values; get_dataset_changes says what changed since a dataset version; the choose_a_vps prompt walks from workload, budget, country and traffic to a short list with bills',
    ),
    link(
      'Every plan as JSON',
      '/api/plans.json',
      'one flat row per plan: parsed figures, how the price is paid, USD and EUR prices, price history',
    ),
    link('Every plan as CSV', '/api/plans.csv', 'the same rows for spreadsheets and notebooks'),
    link('Plan table', '/plans.md', 'every plan in one table, cheapest first with no commitment'),
    link(
      'Dataset changes',
      '/api/changes.json',
      'what each dataset release changed, newest first (Atom feed at /changes.atom)',
    ),
    '',
    '## Providers',
    '',
    ...snapshot.providers.map((p) => link(p.name, `/providers/${p.id}.md`, `rated ${p.rating}/5; ${p.summary}`)),
    '',
    '## Use cases',
    '',
    ...ctx.useCases.map((x) =>
      link(
        x.title,
        `/use-cases/${x.slug}.md`,
        `from ${x.startingAt} with no commitment${x.startingAtStale ? ` (a stale price, seen ${x.startingAtObservedAt})` : ''}; ${x.description}`,
      ),
    ),
    '',
    '## Guides',
    '',
    ...guidesOf(primary),
    '',
    '## Optional',
    '',
    link('All guides in one file', '/llms-full.txt', 'every guide as markdown, concatenated'),
    ...guidesOf(GUIDE_TYPES.filter((t) => !primary.includes(t))),
    '',
  ].join('\n');
}

/** `/llms-full.txt`: every guide's markdown under its own heading. */
export function llmsFullTxt(ctx: PageContext): string {
  const { snapshot, config } = ctx;
  const parts = snapshot.guides.map(
    (g) =>
      `${guideMarkdown(g).replace(/\n+$/, '')}\n\nSource: ${config.url(`/guides/${g.slug}`)} (${GUIDE_TYPE_TITLES[g.type]}, ${g.published})\n`,
  );
  return `# vpsapi: all guides\n\n> ${snapshot.guides.length} guides from dataset version ${snapshot.version}.\n\n${parts.join('\n---\n\n')}`;
}
