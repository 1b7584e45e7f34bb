import { priceBasisCell } from '../dataset/plan-pricing.js';
import type { PlanTableRow } from '../plans/dto/plan-table-row.dto.js';
import { PLAN_SORTS, plansPagePath, sortPlanRows, usdPerGbRam, type PlanSort } from '../plans/plan-sorts.js';
import { html, raw } from './html.js';
import { freshnessText, STALE_AFTER_DAYS } from '../dataset/price-age.js';
import { priceAgeSummary } from '../plans/price-age-summary.js';
import { link, money, table } from './markdown-text.js';
import { buildPage, type PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';

const HEAD = [
  'Month to month (USD)',
  'Plan',
  'Provider',
  'vCPU',
  'RAM',
  'Storage',
  'Traffic',
  'USD per GB RAM',
  'As billed',
  'Price seen',
];

/** The cells of one row, price first so a phone shows it before the table scrolls; a stale price says so beside it, in words. */
function cells(row: PlanTableRow): string[] {
  const perGb = usdPerGbRam(row);
  const stale = row.stale ? ' (stale)' : '';
  return [
    row.monthToMonthPriceUsd === null
      ? `needs a ${row.termMonths}-month term${stale}`
      : `$${row.monthToMonthPriceUsd.toFixed(2)}${stale}`,
    row.planName,
    row.providerName,
    row.vcpus === null ? row.cpu : String(row.vcpus),
    row.ram,
    row.storage,
    row.bandwidth,
    perGb === null ? '' : `$${perGb.toFixed(2)}`,
    `${money(row.price, row.currency)}, ${priceBasisCell(row)}${row.discontinued ? ', no longer sold' : row.orderable === false ? ', not orderable' : ''}`,
    `at ${row.providerName} on ${row.observedAt}${row.stale ? ', stale' : ''}`,
  ];
}

/** Why the stale prices are stale, once per provider line (its plans share a source), as markdown list items. */
function staleReasons(rows: readonly PlanTableRow[]): string[] {
  const byLine = new Map<string, string>();
  for (const row of rows) {
    if (!row.stale) continue;
    const key = `${row.providerName} (${row.lineId} line)`;
    const reason = row.staleReason!;
    const known = byLine.get(key);
    if (known === undefined) byLine.set(key, reason);
    else if (!known.includes(reason)) byLine.set(key, `${known}; ${reason}`);
  }
  return [...byLine].map(([line, reason]) => `- ${line}: ${reason}`);
}

/** `/plans` and `/plans/by-…`: every plan of every provider in one table, in one order per page. */
export function plansPage(ctx: PageContext, sort: PlanSort): PageDocument {
  const { snapshot, config } = ctx;
  const path = plansPagePath(sort);
  const rows = sortPlanRows(ctx.plans, sort);
  const sorts = Object.keys(PLAN_SORTS) as PlanSort[];
  const title = `Every VPS plan, ${PLAN_SORTS[sort].title}`;
  const lead = `${rows.length} plans from ${snapshot.providers.length} providers. Prices are monthly, excluding VAT, compared with no commitment in US dollars at the exchange rates of ${snapshot.exchangeRates.dateUsedBy(rows.map((r) => [r.currency, 'USD'] as const))}; plans sold only on a prepaid term come last.`;
  const stale = rows.filter((r) => r.stale).length;
  const ageNote =
    `Each price says when the provider showed it ("Price seen"). ` +
    (stale > 0
      ? `${stale} of the ${rows.length} prices are stale, marked "(stale)": seen more than ${STALE_AFTER_DAYS} days before today (${snapshot.asOf}), or before a price change the provider reported. Check them at the provider before you buy.`
      : `None is stale: every one was seen within ${STALE_AFTER_DAYS} days of today (${snapshot.asOf}), with no later price change reported.`);
  const reasons = staleReasons(rows);
  const reasonsMarkdown = reasons.length > 0 ? ['## Why prices are stale', '', ...reasons, ''].join('\n') : '';
  const downloads = `Download the table as [CSV](/api/plans.csv) or [JSON](/api/plans.json) (each row with its price history), and see [what changed](/changes.atom) in each dataset release.`;
  const sortLinks = sorts
    .map((s) => (s === sort ? `**${PLAN_SORTS[s].label}**` : `[${PLAN_SORTS[s].label}](${plansPagePath(s)})`))
    .join(' · ');
  const markdown = [
    `# ${title}`,
    '',
    lead,
    '',
    ageNote,
    '',
    `Sort by: ${sortLinks}`,
    '',
    downloads,
    '',
    table(
      HEAD,
      rows.map((row) => cells(row).map((c, i) => (i === 2 ? link(String(c), `/providers/${row.providerId}`) : c))),
    ),
    '',
    ...(reasonsMarkdown ? [reasonsMarkdown] : []),
    `Dataset version ${snapshot.version}; ${freshnessText(priceAgeSummary(rows), rows.length, snapshot.asOf)}.`,
    '',
  ].join('\n');

  const u = (p: string) => config.sitePath(p);
  const main = html`<h1>${title}</h1>
<p class="lead">${lead}</p>
<p>${ageNote}</p>
<nav aria-label="Sort the plans" class="sorts">Sort by:
${sorts.map((s) => (s === sort ? html`<a aria-current="page" href="${u(plansPagePath(s))}">${PLAN_SORTS[s].label}</a> ` : html`<a href="${u(plansPagePath(s))}">${PLAN_SORTS[s].label}</a> `))}
</nav>
${raw(ctx.renderer.render(downloads))}
<p class="scroll-hint" id="plans-scroll-hint">The table is wider than the screen: scroll it sideways to see every column.</p>
<div class="table-wrap" role="region" aria-label="Plan table (scrolls sideways)" aria-describedby="plans-scroll-hint" tabindex="0">
<table class="plans">
<thead><tr>${HEAD.map((h, i) => html`<th scope="col"${raw(i === 0 || i === 7 ? ' class="num"' : '')}>${h}</th>`)}</tr></thead>
<tbody>
${rows.map((row) => {
  const c = cells(row);
  return html`<tr><td class="num">${c[0]}</td><td>${c[1]}</td><td><a href="${ctx.config.sameOrigin(row.reviewUrl)}">${c[2]}</a></td><td>${c[3]}</td><td>${c[4]}</td><td>${c[5]}</td><td>${c[6]}</td><td class="num">${c[7]}</td><td>${c[8]}</td><td>${c[9]}</td></tr>
`;
})}</tbody>
</table>
</div>
${reasonsMarkdown ? raw(ctx.renderer.render(reasonsMarkdown)) : ''}
<p class="meta">Dataset version ${snapshot.version}; ${freshnessText(priceAgeSummary(rows), rows.length, snapshot.asOf)}.</p>`;
  return buildPage(ctx, {
    path,
    title,
    description: `Every VPS plan of ${snapshot.providers.length} providers in one table, ${PLAN_SORTS[sort].title}.`,
    markdown,
    main,
  });
}
