import { readFileSync } from 'node:fs';
import { toCurrencyWith, transferOf } from './independent-figures';
import { rawProviders } from './raw-data';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A monthly bill computed from the raw files as data/README.md describes the figures, written apart
 * from the service's CostEstimator so that page tests do not check the estimator against itself.
 * Amounts are in `currency`, rounded to the cent item by item; tax is charged on their sum.
 */
const rates = JSON.parse(readFileSync('data/exchange-rates.json', 'utf8'));
const vat = JSON.parse(readFileSync('data/vat-rates.json', 'utf8')).rates;
const toCurrency = toCurrencyWith(rates);
const cents = (n: number) => Math.round(n * 100) / 100;
const EU = Object.keys(vat).filter((code) => code !== 'GB');
const TB_IN: Record<string, number> = { TB: 1, GB: 1000, GiB: 1e12 / 2 ** 30 };

export interface ExpectedItem {
  item: 'base' | 'ipv4' | 'trafficOverage' | 'tax';
  amount: number | null;
}
export interface ExpectedPeriod {
  fromMonth: number;
  toMonth: number;
  items: ExpectedItem[];
  /** Null when an item is unknown. */
  monthly: number | null;
  /** The known items' sum. */
  knownMonthly: number;
}
export interface ExpectedBill {
  periods: ExpectedPeriod[];
  setupFee: number | null;
  total: number | null;
  knownTotal: number;
}

export interface BillCase {
  providerId: string;
  planName: string;
  country: string;
  business: boolean;
  currency: string;
  months: number;
  trafficTb: number;
}

/** The tax rate in percent, or null when the dataset leaves it unknown. */
function taxPercent(provider: Json, country: string, business: boolean): number | null {
  const region = EU.includes(country) ? 'eu' : country === 'GB' ? 'uk' : country === 'US' ? 'us' : null;
  if (!region) return null;
  const key = {
    eu: business ? 'euBusinessWithVatId' : 'euConsumer',
    uk: business ? 'ukBusiness' : 'ukConsumer',
    us: business ? 'usBusiness' : 'usConsumer',
  }[region];
  const treatment = provider.tax[key].treatment;
  if (treatment === 'customer-country-vat') return vat[country]?.standardRate ?? null;
  if (treatment === 'reverse-charge') return country === provider.headquarters.country ? null : 0;
  return null;
}

export function expectedBill(c: BillCase): ExpectedBill {
  const provider = rawProviders.providers.find((p: Json) => p.id === c.providerId);
  const plan = provider.plans.find((p: Json) => p.name === c.planName);
  const line = provider.planLines.find((l: Json) => l.id === plan.line);
  const convert = (amount: number | null) =>
    amount === null ? null : toCurrency(amount, provider.currency, c.currency);

  const bases: { from: number; to: number; price: number | null }[] =
    line.priceBasis === 'prepaid-term' && line.promotional && c.months > line.termMonths
      ? [
          { from: 1, to: line.termMonths, price: plan.price },
          { from: line.termMonths + 1, to: c.months, price: plan.renewalPrice ?? null },
        ]
      : [{ from: 1, to: c.months, price: plan.price }];

  const { ipv4, trafficOverage } = provider.addOns;
  const ipv4Amount =
    ipv4.status === 'included' ? 0 : ipv4.status === 'paid' && ipv4.pricePerMonth !== null ? ipv4.pricePerMonth : null;
  const allowance = transferOf(plan.bandwidth).bandwidthTb;
  let traffic: number | null;
  if (c.trafficTb === 0 || trafficOverage.status === 'unmetered' || trafficOverage.status === 'throttled') traffic = 0;
  else if (trafficOverage.status !== 'charged' || allowance === null) traffic = null;
  else if (c.trafficTb <= allowance) traffic = 0;
  else
    traffic =
      trafficOverage.price === null
        ? null
        : (c.trafficTb - allowance) * trafficOverage.price * TB_IN[trafficOverage.unit];
  const percent = taxPercent(provider, c.country, c.business);

  const periods = bases.map(({ from, to, price }): ExpectedPeriod => {
    const items: ExpectedItem[] = [
      { item: 'base', amount: convert(price) },
      { item: 'ipv4', amount: convert(ipv4Amount) },
      {
        item: 'trafficOverage',
        amount: traffic === null ? null : cents(toCurrency(traffic, provider.currency, c.currency)),
      },
    ];
    const pretaxKnown = items.every((i) => i.amount !== null);
    const pretax = items.reduce((s, i) => s + (i.amount ?? 0), 0);
    const tax = percent === null ? null : percent > 0 && !pretaxKnown ? null : cents((pretax * percent) / 100);
    items.push({ item: 'tax', amount: tax });
    const knownMonthly = cents(items.reduce((s, i) => s + (i.amount ?? 0), 0));
    return {
      fromMonth: from,
      toMonth: to,
      items,
      monthly: items.every((i) => i.amount !== null) ? knownMonthly : null,
      knownMonthly,
    };
  });
  const setupFee = convert(line.setupFee);
  const knownTotal = cents(
    cents(periods.reduce((s, p) => s + p.knownMonthly * (p.toMonth - p.fromMonth + 1), 0)) + (setupFee ?? 0),
  );
  const total = setupFee !== null && periods.every((p) => p.monthly !== null) ? knownTotal : null;
  return { periods, setupFee, total, knownTotal };
}
