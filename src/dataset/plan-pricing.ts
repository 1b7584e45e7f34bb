import { isNoCommitment, type PlanLine } from './dto/plan-line.dto.js';
import type { Plan, PlanRecord } from './dto/plan.dto.js';
import { priceAge } from './price-age.js';

/**
 * A plan with how its price is paid, from its line. The rules, in one place:
 * - no-commitment lines (hourly, per second, monthly): `monthToMonthPrice` is the price itself;
 * - a prepaid term: `monthToMonthPrice` is the plan's own figure, null when the line is not sold month
 *   to month, or null and "unconfirmed" when it is sold but the price could not be confirmed;
 * - a promotional line: `renewalPrice` is the plan's own figure, null and "unconfirmed" when unknown;
 *   a price that is not promotional has no renewal price (null);
 * - the line's `setupFee`, null and "unconfirmed" when unknown;
 * - the price's age on `day` (the day of the answer, or a release's date), its source (the line's) and whether the line is discontinued.
 */
export function pricedPlan(record: PlanRecord, line: PlanLine, day: string): Plan {
  const unconfirmed: string[] = [];
  let monthToMonthPrice: number | null = record.price;
  if (!isNoCommitment(line.priceBasis)) {
    monthToMonthPrice = line.monthToMonthSold === false ? null : (record.monthToMonthPrice ?? null);
    if (line.monthToMonthSold !== false && monthToMonthPrice === null) unconfirmed.push('monthToMonthPrice');
  }
  const renewalPrice = line.promotional ? (record.renewalPrice ?? null) : null;
  if (line.promotional && renewalPrice === null) unconfirmed.push('renewalPrice');
  if (line.setupFee === null) unconfirmed.push('setupFee');
  return {
    ...record,
    priceBasis: line.priceBasis,
    termMonths: line.termMonths,
    promotional: line.promotional,
    renewalPrice,
    monthToMonthPrice,
    setupFee: line.setupFee,
    unconfirmed,
    ...priceAge(record.observedAt, line, day),
    source: line.source,
    discontinued: line.discontinued !== undefined,
    successor: record.availability?.successor ?? line.discontinued?.successor ?? null,
    ...orderabilityOf(record, line),
  };
}

/** Whether a plan can be ordered: not when its line is discontinued, else as its availability says, else unknown. */
function orderabilityOf(
  record: PlanRecord,
  line: PlanLine,
): Pick<Plan, 'orderable' | 'orderableObservedAt' | 'orderableSourceUrl'> {
  if (line.discontinued)
    return {
      orderable: false,
      orderableObservedAt: line.discontinued.since ?? line.discontinued.source.retrievedAt,
      orderableSourceUrl: line.discontinued.source.url,
    };
  const a = record.availability;
  return a
    ? { orderable: a.orderable, orderableObservedAt: a.observedAt, orderableSourceUrl: a.source.url }
    : { orderable: 'unknown', orderableObservedAt: null, orderableSourceUrl: null };
}

/** False only when the plan is known not to be orderable: such a plan is never a starting price, a pick or a ranked offer. */
export const mayBeOrdered = (plan: Pick<PlanRecord, 'availability'>) => plan.availability?.orderable !== false;

/** Every plan of a provider record, priced by its line (the validator guarantees each line exists), aged on `day`. */
export function pricedPlans(provider: { plans: PlanRecord[]; planLines: PlanLine[] }, day: string): Plan[] {
  const lines = new Map(provider.planLines.map((l) => [l.id, l]));
  return provider.plans.map((plan) => pricedPlan(plan, lines.get(plan.line)!, day));
}

/** True when a plan may be picked or ranked as an offer today: its line is still sold, it can be ordered, and its price is not stale. */
export const isFreshOffer = (plan: Pick<Plan, 'stale' | 'discontinued' | 'orderable'>) =>
  !plan.stale && !plan.discontinued && plan.orderable !== false;

/** How a plan's headline price is paid, in words, for pages and guides ("billed by the hour up to this a month"). */
export function priceTermsText(
  plan: Pick<Plan, 'priceBasis' | 'termMonths' | 'promotional' | 'renewalPrice' | 'monthToMonthPrice'>,
  money: (amount: number) => string,
): string {
  switch (plan.priceBasis) {
    case 'hourly-capped':
      return 'billed by the hour, never more than this a month, no commitment';
    case 'per-second-capped':
      return 'billed by the second, never more than this a month, no commitment';
    case 'monthly':
      return 'a monthly subscription, no commitment';
    case 'prepaid-term': {
      const term = `the monthly equivalent of ${plan.termMonths} months paid up front`;
      const renewal = !plan.promotional
        ? ''
        : plan.renewalPrice === null
          ? '; an introductory rate whose renewal price we could not confirm'
          : `; an introductory rate that renews at ${money(plan.renewalPrice)} a month`;
      const monthly = plan.monthToMonthPrice === null ? '' : `; ${money(plan.monthToMonthPrice)} month to month`;
      return term + renewal + monthly;
    }
  }
}

/** How a plan's price is paid, in a few words for a table cell ("hourly, capped", "24-month prepaid, promotional"). */
export function priceBasisCell(plan: Pick<Plan, 'priceBasis' | 'termMonths' | 'promotional'>): string {
  const basis = {
    'hourly-capped': 'hourly, capped',
    'per-second-capped': 'per second, capped',
    monthly: 'monthly',
    'prepaid-term': `${plan.termMonths}-month prepaid`,
  }[plan.priceBasis];
  return plan.promotional ? `${basis}, promotional` : basis;
}
