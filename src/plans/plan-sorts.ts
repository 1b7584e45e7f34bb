import type { PlanTableRow } from './dto/plan-table-row.dto.js';

/**
 * The orders the plans page is published in, each a static page. Prices are compared with no
 * commitment, in USD at the dataset's rates; plans sold only on a prepaid term have no such price
 * and come after every plan that has one (ordered among themselves by their effective price).
 */
export const PLAN_SORTS = {
  price: { slug: null, label: 'price', title: 'cheapest first' },
  ram: { slug: 'by-ram', label: 'RAM', title: 'by RAM, cheapest first within each size' },
  vcpus: { slug: 'by-vcpu', label: 'vCPU', title: 'by vCPU count, cheapest first within each count' },
  storage: { slug: 'by-storage', label: 'storage', title: 'by disk size, cheapest first within each size' },
  pricePerGbRam: {
    slug: 'by-price-per-gb-ram',
    label: 'price per GB RAM',
    title: 'by price per GB of RAM, lowest first',
  },
} as const;
export type PlanSort = keyof typeof PLAN_SORTS;

/** USD a month with no commitment per GB of RAM, to the cent; null without such a price or a RAM figure. */
export function usdPerGbRam(row: PlanTableRow): number | null {
  if (row.monthToMonthPriceUsd === null || !row.ramGb) return null;
  return Math.round((row.monthToMonthPriceUsd / row.ramGb) * 100) / 100;
}

/** Ascending, with null after every number. */
const nullsLast = (a: number | null, b: number | null) =>
  a === null || b === null ? (a === null ? 1 : 0) - (b === null ? 1 : 0) : a - b;

/** By no-commitment price, then effective price, then provider id and plan name: a total order. */
const byPrice = (a: PlanTableRow, b: PlanTableRow) =>
  nullsLast(a.monthToMonthPriceUsd, b.monthToMonthPriceUsd) ||
  a.priceUsd - b.priceUsd ||
  a.providerId.localeCompare(b.providerId) ||
  a.planName.localeCompare(b.planName);

const COMPARE: Record<PlanSort, (a: PlanTableRow, b: PlanTableRow) => number> = {
  price: byPrice,
  ram: (a, b) => nullsLast(a.ramGb, b.ramGb) || byPrice(a, b),
  vcpus: (a, b) => nullsLast(a.vcpus, b.vcpus) || byPrice(a, b),
  storage: (a, b) => nullsLast(a.storageGb, b.storageGb) || byPrice(a, b),
  pricePerGbRam: (a, b) => nullsLast(usdPerGbRam(a), usdPerGbRam(b)) || byPrice(a, b),
};

/** The rows in one of the published orders (a new array). */
export function sortPlanRows(rows: readonly PlanTableRow[], sort: PlanSort): PlanTableRow[] {
  return [...rows].sort(COMPARE[sort]);
}

/** Path of the plans page in an order: `/plans` for the default, `/plans/by-ram` and so on. */
export const plansPagePath = (sort: PlanSort) => {
  const slug = PLAN_SORTS[sort].slug;
  return slug ? `/plans/${slug}` : '/plans';
};
