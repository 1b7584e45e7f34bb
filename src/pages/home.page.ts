import { guidePath } from '../guides/guide-documents.js';
import { link, money, table } from './markdown-text.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';
import { MCP_PATH } from '../common/http/mcp-path.js';

/** `/`: what the service offers, with links to providers, guides, use cases, the API and the MCP server. */
export function homePage(ctx: PageContext): PageDocument {
  const { snapshot, config } = ctx;
  const providers = [...ctx.providers.summaries.rating];
  const latest = snapshot.guides.slice(0, 8);
  const markdown = [
    '# Compare VPS hosting providers',
    '',
    `Independent reviews of ${providers.length} VPS providers with their published plans and prices, ${snapshot.guides.length} guides, and sizing for ${snapshot.useCases.length} workloads. Dataset version ${snapshot.version}; ${ctx.providers.freshness}. Prices are monthly, excluding VAT.`,
    '',
    '## Providers',
    '',
    table(
      ['Provider', 'Rating', 'Plans from', 'Best for'],
      providers.map((p) => [
        link(p.name, `/providers/${p.id}`),
        `${p.rating}/5`,
        money(p.startingPrice, p.currency),
        p.bestFor.slice(0, 3).join(', '),
      ]),
    ),
    '',
    `[Every plan of every provider in one table](/plans), sortable by price, RAM, vCPU, storage and price per GB of RAM; download it as [CSV](/api/plans.csv) or [JSON](/api/plans.json), and follow [what changes](/changes.atom) with each dataset release.`,
    '',
    '## Use cases',
    '',
    ...ctx.useCases.map(
      (u) =>
        `- [${u.title}](/use-cases/${u.slug}): from ${u.startingAt} with no commitment${u.startingAtStale ? ` (a stale price, seen ${u.startingAtObservedAt})` : ''}`,
    ),
    '',
    '## Latest guides',
    '',
    ...latest.map((g) => `- [${g.title}](${guidePath(g.slug)}) (${g.published})`),
    '',
    `[All ${snapshot.guides.length} guides](/guides)`,
    '',
    '## For developers',
    '',
    `- JSON API, no key needed: start at [${config.url('/api/index.json')}](/api/index.json); browse it in [Swagger UI](/docs) or read the [OpenAPI 3.1 contract](/openapi.json).`,
    `- The API in markdown: [/docs.md](/docs.md).`,
    `- What changed in each dataset release: [/api/changes.json](/api/changes.json), or subscribe to the [Atom feed](/changes.atom).`,
    '',
    '## For AI agents',
    '',
    `- MCP server (Streamable HTTP, no authentication): [\`${config.url(MCP_PATH)}\`](${MCP_PATH}); its [server card](/.well-known/mcp/server-card.json) lists the tools.`,
    '- [llms.txt](/llms.txt) and [llms-full.txt](/llms-full.txt); every page is also available as markdown (`Accept: text/markdown`, or add `.md`).',
    '',
    `Data licensed ${snapshot.meta.license.name}: ${snapshot.meta.license.credit}.`,
    '',
  ].join('\n');
  return buildPage(ctx, {
    path: '/',
    title: 'Compare VPS hosting providers',
    description:
      'Reviews, plans and prices of eight VPS providers, guides, workload sizing, a JSON API and an MCP server.',
    markdown,
  });
}
