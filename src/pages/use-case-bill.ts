import type { BillItemKind, CostEstimate } from '../costs/cost-estimate.js';
import type { CostQuery } from '../costs/cost-estimator.service.js';
import type { UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import type { Recommendation } from '../use-cases/use-cases.service.js';
import { Markup, money, table, text } from './markdown-text.js';
import { sourceLink } from './provider-add-ons.js';

/** Months the example bill runs over: long enough for a 12- or 24-month promotion to reach its renewal price. */
export const EXAMPLE_BILL_MONTHS = 36;

/** The two customers an example bill is shown for, with what each assumes. */
export const EXAMPLE_CUSTOMERS = [
  {
    column: 'US business (USD)',
    label: 'US business',
    country: 'US',
    business: true,
    currency: 'USD',
    who: 'a business in the United States, billed in US dollars',
  },
  {
    column: 'Consumer in Germany (EUR)',
    label: 'Consumer in Germany',
    country: 'DE',
    business: false,
    currency: 'EUR',
    who: 'a private customer in Germany, billed in euros with German VAT where the provider adds it',
  },
] as const;

/** What the page lists of a bill: backups are not requested, so their line (always 0) is left out. */
const SHOWN_ITEMS: [BillItemKind, string][] = [
  ['base', 'plan'],
  ['ipv4', 'IPv4 address'],
  ['trafficOverage', 'traffic beyond the allowance'],
  ['tax', 'VAT or sales tax'],
];

/** The plan the example bill is for: the cheapest fitting plan of the first pick that has one. */
export function exampleBillPlan(
  rec: Recommendation,
): { providerId: string; providerName: string; planName: string } | undefined {
  const pick = rec.providers.find((p) => p.cheapestMatchingPlan);
  return pick && { providerId: pick.id, providerName: pick.name, planName: pick.cheapestMatchingPlan!.planName };
}

/** The query behind each customer's bill: one IPv4 address, the recommended monthly transfer, no backups. */
export function exampleBillQueries(
  plan: { providerId: string; planName: string },
  useCase: UseCaseRecord,
): CostQuery[] {
  const trafficTb = useCase.recommendedSpec.bandwidthTb ?? 0;
  return EXAMPLE_CUSTOMERS.map((c) => ({
    providerId: plan.providerId,
    planName: plan.planName,
    country: c.country,
    business: c.business,
    currency: c.currency,
    horizonMonths: EXAMPLE_BILL_MONTHS,
    trafficTb,
    ipv4: true,
    backups: false,
  }));
}

const amountOr = (known: boolean, amount: number | undefined, floor: number, currency: string) =>
  known ? money(amount!, currency) : floor > 0 ? `unknown (at least ${money(floor, currency)})` : 'unknown';

/**
 * "Example bill": what the recommended plan costs two example customers, item by item and period by
 * period, from the same estimator as the MCP tool `estimate_monthly_cost`. Unknown figures say so.
 */
export function exampleBillMarkdown(
  plan: { providerId: string; providerName: string; planName: string },
  trafficTb: number,
  bills: CostEstimate[],
): string {
  const periods = bills[0].periods;
  if (bills.some((b) => b.periods.length !== periods.length))
    throw new Error('The example bills must have the same periods.');
  const several = periods.length > 1;
  const rows: (string | Markup)[][] = [];
  periods.forEach((p, i) => {
    const when = several ? `Months ${p.fromMonth}-${p.toMonth}: ` : '';
    for (const [kind, name] of SHOWN_ITEMS) {
      rows.push([
        `${when}${name}`,
        ...bills.map((b) => {
          const item = b.periods[i].items.find((x) => x.item === kind)!;
          return item.known ? money(item.amount!, b.currency) : 'unknown';
        }),
      ]);
    }
    rows.push([
      new Markup(`**${several ? `Months ${p.fromMonth}-${p.toMonth}` : 'Every month'}: a month**`),
      ...bills.map((b) =>
        amountOr(b.periods[i].known, b.periods[i].monthlyAmount, b.periods[i].knownMonthlyAmount, b.currency),
      ),
    ]);
  });
  rows.push([
    'Setup fee, once',
    ...bills.map((b) => (b.setupFee.known ? money(b.setupFee.amount!, b.currency) : 'unknown')),
  ]);
  rows.push([
    new Markup(`**Total over ${EXAMPLE_BILL_MONTHS} months**`),
    ...bills.map((b) => amountOr(b.known, b.totalOverHorizon, b.knownTotalOverHorizon, b.currency)),
  ]);

  const unknowns = new Set<string>();
  bills.forEach((b, c) => {
    for (const p of b.periods)
      for (const item of p.items)
        if (!item.known)
          unknowns.add(
            `- ${EXAMPLE_CUSTOMERS[c].label}, ${SHOWN_ITEMS.find(([k]) => k === item.item)?.[1] ?? item.item}: ${item.reason}`,
          );
    if (!b.setupFee.known) unknowns.add(`- ${EXAMPLE_CUSTOMERS[c].label}, setup fee: ${b.setupFee.reason}`);
  });
  const assumptions = [...new Set(bills.flatMap((b) => b.assumptions))];
  const sources = [...new Map(bills.flatMap((b) => b.sources).map((s) => [s.url, s])).values()];
  return [
    '## Example bill',
    '',
    `What [${plan.providerName}](/providers/${plan.providerId})'s ${text(plan.planName)}, the first pick's cheapest fitting plan, costs over ${EXAMPLE_BILL_MONTHS} months with one IPv4 address, ${trafficTb} TB of outbound traffic a month (the recommended transfer) and no backups, for ${EXAMPLE_CUSTOMERS.map((c) => c.who).join(', and for ')}. The same estimate as the MCP tool \`estimate_monthly_cost\`.`,
    '',
    table(['', ...EXAMPLE_CUSTOMERS.map((c) => c.column)], rows),
    '',
    ...(unknowns.size > 0 ? ['Unknown figures, never guessed:', '', ...unknowns, ''] : []),
    'Assumptions:',
    '',
    ...assumptions.map((a) => `- ${a}`),
    '',
    `Sources: ${sources.map((s) => `${s.about}: ${sourceLink(s)}`).join('; ')}.`,
    '',
  ].join('\n');
}
