import type { Plan } from '../../dataset/dto/plan.dto.js';
import type { FeatureDetail } from '../../dataset/dto/provider.dto.js';
import { cell, link, money, table } from '../../pages/markdown-text.js';

export { cell, link, money, table };
export { REGION_NAMES } from '../../dataset/dto/provider.dto.js';

/** The front matter block of a generated guide; strings JSON-quoted (valid YAML), deterministic order. */
export function frontMatter(fm: {
  slug: string;
  title: string;
  description: string;
  type: string;
  keywords: string[];
  published: string;
  updated: string;
  author: string;
}): string {
  return [
    '---',
    `slug: ${fm.slug}`,
    `title: ${JSON.stringify(fm.title)}`,
    `description: ${JSON.stringify(fm.description)}`,
    `type: ${fm.type}`,
    `keywords: ${JSON.stringify(fm.keywords)}`,
    `published: ${JSON.stringify(fm.published)}`,
    `updated: ${JSON.stringify(fm.updated)}`,
    `author: ${fm.author}`,
    '---',
    '',
  ].join('\n');
}

/** "3.49 EUR (4.12 USD)", or just the USD price for USD plans. */
export function priceWithUsd(amount: number, currency: string, usd: number): string {
  return currency === 'USD' ? money(amount, 'USD') : `${money(amount, currency)} (${money(usd, 'USD')})`;
}

/**
 * A plan's price on the basis comparisons use: the no-commitment monthly price where there is one
 * ("6 USD"), else the headline price with the commitment it needs ("4.99 USD on a 24-month prepaid term").
 */
export function planPrice(x: { plan: Plan; usd: number; noCommitmentUsd: number | null }): string {
  const age = priceAgeNote(x.plan);
  if (x.noCommitmentUsd !== null && x.plan.monthToMonthPrice !== null)
    return priceWithUsd(x.plan.monthToMonthPrice, x.plan.currency, x.noCommitmentUsd) + age;
  return `${priceWithUsd(x.plan.price, x.plan.currency, x.usd)} on a ${x.plan.termMonths}-month prepaid term${age}`;
}

/** " (stale: seen 2026-02-03)" after a stale price, so a reader never takes it for a current one; nothing after a fresh one. */
export function priceAgeNote(plan: Pick<Plan, 'stale' | 'observedAt'>): string {
  return plan.stale ? ` (stale: seen ${plan.observedAt})` : '';
}

/** What a comparison says where a provider has no plan of a size: "none" only when its plan list is complete. */
export const absentPlan = (p: { planLines: { complete: boolean }[] }) =>
  p.planLines.every((l) => l.complete) ? 'none' : 'not in the dataset';

/** "a, b and c". */
export function listing(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A feature in a comparison table: "yes" when included, "paid add-on", or "no". */
export const featureCell = (detail: FeatureDetail) =>
  ({ included: 'yes', paid: 'paid add-on', unavailable: 'no' })[detail.status];
