import type { BackupsAddOn, Ipv4AddOn, SnapshotsAddOn, TrafficOverageAddOn } from '../dataset/dto/add-ons.dto.js';
import type { Provider } from '../dataset/dto/provider.dto.js';
import type { Source } from '../dataset/dto/source.dto.js';
import { TAX_CUSTOMERS, type TaxCase, type TaxCustomer, type TaxTreatment } from '../dataset/dto/tax.dto.js';
import { Markup, money, table, text } from './markdown-text.js';

/** A unit price as the provider states it: at least cents, up to four decimals (0.0119 EUR per GB). */
export const unitPrice = (amount: number, currency: string) =>
  `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false })} ${currency}`;

/** A source as a markdown link named by its host, with the day it was read (and the page it copies, if a copy). */
export const sourceLink = (s: Source) =>
  `[${new URL(s.url).host}](${s.url}) (read ${s.retrievedAt}${s.copyOf ? `; a copy of [${new URL(s.copyOf).host}](${s.copyOf})` : ''})`;

const CUSTOMER_LABELS: Record<TaxCustomer, string> = {
  euConsumer: 'Consumer in the EU',
  euBusinessWithVatId: 'Business in the EU with a VAT id',
  ukConsumer: 'Consumer in the UK',
  ukBusiness: 'Business in the UK with a VAT id',
  usConsumer: 'Consumer in the US',
  usBusiness: 'Business in the US',
};

const TREATMENTS: Record<TaxTreatment, string> = {
  'customer-country-vat': "VAT at the standard rate of the customer's country is added",
  'reverse-charge': 'no VAT on the invoice (reverse charge: the business accounts for it)',
  'us-sales-tax': "US sales tax at the state's rate is added (the rates are not in the dataset)",
  unknown: 'unknown',
};

function ipv4Price(a: Ipv4AddOn, currency: string): string {
  if (a.status === 'included') return 'included';
  if (a.status === 'unavailable') return 'not offered';
  return a.status === 'paid' && a.pricePerMonth !== null
    ? `${unitPrice(a.pricePerMonth, currency)} a month`
    : 'unknown';
}

function backupsPrice(a: BackupsAddOn, currency: string): string {
  if (a.status === 'included') return 'included';
  if (a.status === 'unavailable') return 'not offered';
  if (a.status !== 'paid') return 'unknown';
  if (a.percentOfPlanPrice !== null) return `${a.percentOfPlanPrice}% of the plan price`;
  if (a.pricePerMonth !== null) return `${unitPrice(a.pricePerMonth, currency)} a month`;
  const byPlan = Object.values(a.pricesByPlan ?? {});
  if (byPlan.length > 0)
    return `${money(Math.min(...byPlan), currency)} to ${money(Math.max(...byPlan), currency)} a month, by plan`;
  return 'unknown';
}

function snapshotsPrice(a: SnapshotsAddOn, currency: string): string {
  if (a.status === 'included') return 'included';
  if (a.status === 'unavailable') return 'not offered';
  return a.status === 'paid' && a.pricePerGbMonth !== null
    ? `${unitPrice(a.pricePerGbMonth, currency)} per GB a month`
    : 'unknown';
}

function trafficPrice(a: TrafficOverageAddOn, currency: string): string {
  switch (a.status) {
    case 'charged':
      return a.price !== null && a.unit ? `${unitPrice(a.price, currency)} per ${a.unit}` : 'charged, price unknown';
    case 'throttled':
      return 'not charged; slowed beyond the allowance';
    case 'unmetered':
      return 'not charged (unmetered)';
    case 'unknown':
      return 'unknown';
  }
}

/** The note of an add-on and, when a figure is missing, why. */
const notes = (a: { note?: string; unknownReason?: string }) => [a.note, a.unknownReason].filter(Boolean).join(' ');

/** The provider's add-on prices and tax treatment as markdown, each with a link to its source. */
export function addOnsMarkdown(p: Provider): string {
  const { ipv4, backups, snapshots, trafficOverage } = p.addOns;
  const rows: [string, string, { note?: string; unknownReason?: string; source?: Source }][] = [
    ['IPv4 address', ipv4Price(ipv4, p.currency), ipv4],
    ['Automated backups', backupsPrice(backups, p.currency), backups],
    ['Snapshots', snapshotsPrice(snapshots, p.currency), snapshots],
    ['Traffic beyond the allowance', trafficPrice(trafficOverage, p.currency), trafficOverage],
  ];
  const byPlan = Object.entries(backups.pricesByPlan ?? {});
  const taxCase = (c: TaxCustomer, t: TaxCase) =>
    `- **${CUSTOMER_LABELS[c]}:** ${TREATMENTS[t.treatment]}${t.treatment === 'unknown' && t.unknownReason ? `: ${t.unknownReason}` : '.'}${t.note ? ` ${t.note}` : ''}`;
  return [
    '## Add-ons and tax',
    '',
    `What changes a bill beyond the plan price, in ${p.currency} excluding tax, as ${p.name} states it.`,
    '',
    table(
      ['Add-on', 'Price', 'Notes', 'Source'],
      rows.map(([name, price, a]) => [
        name,
        price,
        notes(a),
        a.source ? new Markup(sourceLink(a.source)) : 'none found',
      ]),
    ),
    '',
    ...(byPlan.length > 0
      ? [
          `Backups by plan: ${byPlan.map(([plan, price]) => `${text(plan)} ${money(price, p.currency)}`).join(', ')}.`,
          '',
        ]
      : []),
    '### Tax',
    '',
    ...TAX_CUSTOMERS.map((c) => taxCase(c, p.tax[c])),
    '',
    p.tax.sources.length > 0
      ? `Sources: ${p.tax.sources.map(sourceLink).join('; ')}.`
      : 'No page on how this provider taxes its customers could be found.',
    '',
  ].join('\n');
}
