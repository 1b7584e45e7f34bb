import type { FeatureDetail } from '../../dataset/dto/provider.dto.js';
import { cell, money, table } from '../../pages/markdown-text.js';

export { cell, money, table };
export { REGION_NAMES } from '../../dataset/dto/provider.dto.js';

/** The front matter block of a generated guide; strings JSON-quoted (valid YAML), deterministic order. */
export function frontMatter(fm: { slug: string; title: string; description: string; type: string; keywords: string[]; published: string; author: string }): string {
  return [
    '---',
    `slug: ${fm.slug}`,
    `title: ${JSON.stringify(fm.title)}`,
    `description: ${JSON.stringify(fm.description)}`,
    `type: ${fm.type}`,
    `keywords: ${JSON.stringify(fm.keywords)}`,
    `published: ${JSON.stringify(fm.published)}`,
    `author: ${fm.author}`,
    '---',
    '',
  ].join('\n');
}

/** "3.49 EUR (4.12 USD)", or just the USD price for USD plans. */
export function priceWithUsd(amount: number, currency: string, usd: number): string {
  return currency === 'USD' ? money(amount, 'USD') : `${money(amount, currency)} (${money(usd, 'USD')})`;
}

/** "a, b and c". */
export function listing(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A feature in a comparison table: "yes" when included, "paid add-on", or "no". */
export const featureCell = (detail: FeatureDetail) => ({ included: 'yes', paid: 'paid add-on', unavailable: 'no' })[detail.status];

