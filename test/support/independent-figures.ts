import { rawMeta } from './raw-data';

/**
 * A deliberately separate reading of the embedded dataset's plan figures ("4GB", "512MB",
 * "80GB NVMe", "2 vCPU"), so MCP expectations are not computed by the code under test.
 */
export function figures(plan: { cpu: string; ram: string; storage: string }) {
  const size = (text: string) => {
    const [, n, unit] = /^([\d.]+)(MB|GB|TB)/.exec(text)!;
    return Number(n) * (unit === 'MB' ? 1 / 1024 : unit === 'TB' ? 1024 : 1);
  };
  return {
    vcpus: Number(plan.cpu.split(' ')[0]),
    ramGb: size(plan.ram),
    storageGb: size(plan.storage),
    storageType: /NVMe/.test(plan.storage) ? 'NVMe' : /SSD/.test(plan.storage) ? 'SSD' : 'HDD',
  };
}

/**
 * A plan's monthly traffic read separately, by the rule the data README states: a volume in TB
 * (GB count in thousands), Infinity when the provider does not meter it ("Unmetered ...",
 * "Unlimited ..."), null when the allowance is not stated either way ("Fair-use allowance").
 */
export function transferTbOf(bandwidth: string): number | null {
  if (/unmetered|unlimited/i.test(bandwidth)) return Infinity;
  const m = /^([\d.]+)\s*(GB|TB)$/.exec(bandwidth.trim());
  return m ? Number(m[1]) / (m[2] === 'GB' ? 1000 : 1) : null;
}

/** True when a plan meets a use-case spec on all four parts; an unstated allowance meets no transfer need. */
export function meetsAllFour(
  plan: { cpu: string; ram: string; storage: string; bandwidth: string },
  spec: { vcpus: number; ramGb: number; storageGb: number; bandwidthTb: number },
): boolean {
  const f = figures(plan);
  const tb = transferTbOf(plan.bandwidth);
  return (
    f.vcpus >= spec.vcpus &&
    f.ramGb >= spec.ramGb &&
    f.storageGb >= spec.storageGb &&
    tb !== null &&
    tb >= spec.bandwidthTb
  );
}

/** The stale threshold as the data README states it: prices seen more than 90 days before the release are stale. */
export const STALE_DAYS = 90;

/** Whole days from one calendar date to another. */
const daysFrom = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * A price's age as the data README describes it: days from `observedAt` to the dataset version, stale
 * past 90 days or when the line reports a price change after the price was seen. The reason's wording is
 * the service's; the test asks only that it names the day the price was seen.
 */
export function priceAgeOf(plan: any, line: any, version: string) {
  const priceAgeDays = Math.max(0, daysFrom(plan.observedAt, version));
  const changedAfter = line.laterPriceChange !== undefined && line.laterPriceChange.date > plan.observedAt;
  const stale = priceAgeDays > STALE_DAYS || changedAfter;
  return {
    observedAt: plan.observedAt as string,
    priceAgeDays,
    stale,
    staleReason: stale ? expect.stringContaining(plan.observedAt) : null,
  };
}

/**
 * A separate reading of how a plan's price is paid, written from the data README's rules rather
 * than imported from the service: the line gives the basis, term, promotion and setup fee; a plan
 * billed without commitment costs its price month to month; a prepaid plan carries its own
 * month-to-month and renewal prices, null where they could not be confirmed.
 */
export function pricedPlanOf(provider: any, plan: any, version: string = rawMeta.version) {
  const line = provider.planLines.find((l: any) => l.id === plan.line);
  const prepaid = line.priceBasis === 'prepaid-term';
  const soldMonthly = !prepaid || line.monthToMonthSold !== false;
  const monthToMonthPrice = !prepaid ? plan.price : soldMonthly ? (plan.monthToMonthPrice ?? null) : null;
  const renewalPrice = line.promotional ? (plan.renewalPrice ?? null) : null;
  const unconfirmed = [
    ...(soldMonthly && monthToMonthPrice === null ? ['monthToMonthPrice'] : []),
    ...(line.promotional && renewalPrice === null ? ['renewalPrice'] : []),
    ...(line.setupFee === null ? ['setupFee'] : []),
  ];
  return {
    ...plan,
    priceBasis: line.priceBasis,
    termMonths: line.termMonths,
    promotional: line.promotional,
    renewalPrice,
    monthToMonthPrice,
    setupFee: line.setupFee,
    unconfirmed,
    ...priceAgeOf(plan, line, version),
    source: line.source,
    discontinued: line.discontinued !== undefined,
    successor: plan.availability?.successor ?? line.discontinued?.successor ?? null,
    // Not orderable when the line is discontinued; else as the plan's availability says; else unknown.
    ...(line.discontinued
      ? {
          orderable: false,
          orderableObservedAt: line.discontinued.since ?? line.discontinued.source.retrievedAt,
          orderableSourceUrl: line.discontinued.source.url,
        }
      : plan.availability
        ? {
            orderable: plan.availability.orderable,
            orderableObservedAt: plan.availability.observedAt,
            orderableSourceUrl: plan.availability.source.url,
          }
        : { orderable: 'unknown', orderableObservedAt: null, orderableSourceUrl: null }),
  };
}

/** The age summary of some priced plans: oldest and newest day seen, and how many are stale. */
export function priceAgeSummaryOf(plans: { observedAt: string; stale: boolean }[]) {
  const dates = plans.map((p) => p.observedAt).sort();
  return {
    oldestObservedAt: dates[0],
    newestObservedAt: dates[dates.length - 1],
    stalePrices: plans.filter((p) => p.stale).length,
  };
}

/** Exchange-rate conversion as the data README describes it: through the base currency, to the cent. */
export function toCurrencyWith(rates: { rates: Record<string, number> }) {
  return (amount: number, from: string, to: string) =>
    from === to ? amount : Math.round((amount / rates.rates[from]) * rates.rates[to] * 100) / 100;
}

/**
 * The day of the oldest rate that converting between these currencies uses, read from the raw rate
 * table: the base currency needs no rate; a currency without its own day in `rateDates` has the table's.
 * A conversion within one currency uses no rate.
 */
export function rateDayWith(rates: { base: string; date: string; rateDates?: Record<string, string> }) {
  return (pairs: [string, string][]) => {
    const days = pairs
      .filter(([from, to]) => from !== to)
      .flatMap((pair) => pair)
      .filter((code) => code !== rates.base)
      .map((code) => rates.rateDates?.[code] ?? rates.date);
    return days.sort()[0];
  };
}

/**
 * The provider whose cheapest plan sold without commitment costs least in USD (ties by id), among plans
 * still sold with fresh prices; only when no provider has a fresh one, among the stale ones too.
 */
export function cheapestWithoutCommitment(providers: any[], rates: { rates: Record<string, number> }): string {
  const usd = toCurrencyWith(rates);
  const offers = providers.flatMap((p) =>
    p.plans
      .map((plan: any) => pricedPlanOf(p, plan))
      .filter((plan: any) => plan.monthToMonthPrice !== null && !plan.discontinued)
      .map((plan: any) => ({ id: p.id, stale: plan.stale, price: usd(plan.monthToMonthPrice, plan.currency, 'USD') })),
  );
  const anyFresh = offers.some((o: any) => !o.stale);
  const entries = offers.filter((o: any) => !anyFresh || !o.stale);
  entries.sort((a: any, b: any) => a.price - b.price || a.id.localeCompare(b.id));
  return entries[0].id;
}

/** Monthly transfer as the data README writes it: "20TB", "500GB" (decimal), "Unmetered (...)", or words with no volume. */
export function transferOf(bandwidth: string): { bandwidthTb: number | null; unmetered: boolean } {
  if (/^unmetered/i.test(bandwidth)) return { bandwidthTb: null, unmetered: true };
  const m = /^(\d+)(GB|TB)$/.exec(bandwidth);
  if (!m) return { bandwidthTb: null, unmetered: false };
  return { bandwidthTb: m[2] === 'TB' ? Number(m[1]) : Number(m[1]) / 1000, unmetered: false };
}

/**
 * The rows plans.json should hold, computed from the raw files: every plan of every provider in file
 * order, with its line's pricing, its parsed figures and its prices in USD and EUR.
 */
export function expectedPlanRows(
  providers: any[],
  rates: { base: string; date: string; rates: Record<string, number>; rateDates?: Record<string, string> },
  baseUrl: string,
  changelog: { releases: any[] } = { releases: [] },
  version: string = rawMeta.version,
) {
  const convert = toCurrencyWith(rates);
  return providers.flatMap((provider) =>
    provider.plans.map((raw: any) => {
      const plan = pricedPlanOf(provider, raw, version);
      const line = provider.planLines.find((l: any) => l.id === raw.line);
      const mtm = plan.monthToMonthPrice;
      return {
        providerId: provider.id,
        providerName: provider.name,
        planName: raw.name,
        cpu: raw.cpu,
        ram: raw.ram,
        storage: raw.storage,
        bandwidth: raw.bandwidth,
        ...figures(raw),
        ...transferOf(raw.bandwidth),
        cpuType: raw.cpuType,
        price: raw.price,
        currency: raw.currency,
        priceBasis: plan.priceBasis,
        termMonths: plan.termMonths,
        promotional: plan.promotional,
        renewalPrice: plan.renewalPrice,
        monthToMonthPrice: mtm,
        priceUsd: convert(raw.price, raw.currency, 'USD'),
        priceEur: convert(raw.price, raw.currency, 'EUR'),
        monthToMonthPriceUsd: mtm === null ? null : convert(mtm, raw.currency, 'USD'),
        monthToMonthPriceEur: mtm === null ? null : convert(mtm, raw.currency, 'EUR'),
        exchangeRatesDate: rateDayWith(rates)([
          [raw.currency, 'USD'],
          [raw.currency, 'EUR'],
        ]),
        lineId: raw.line,
        lineComplete: line.complete,
        reviewUrl: `${baseUrl}/providers/${provider.id}`,
        priceHistory: priceHistoryOf(changelog, provider.id, raw.name),
        observedAt: plan.observedAt,
        priceAgeDays: plan.priceAgeDays,
        stale: plan.stale,
        staleReason: plan.staleReason,
        priceSourceMethod: line.source.method,
        priceSourceUrl: line.source.url,
        priceCopyOf: line.source.copyOf ?? null,
        discontinued: plan.discontinued,
        successor: plan.successor,
        orderable: plan.orderable,
        orderableObservedAt: plan.orderableObservedAt,
      };
    }),
  );
}

/** A plan's price at each release that added or repriced it, read from the changelog as the data README describes it. */
export function priceHistoryOf(
  changelog: { releases: any[] },
  providerId: string,
  planName: string,
): { version: string; price: number }[] {
  let history: { version: string; price: number }[] = [];
  const same = (p: any) => p.providerId === providerId && p.planName === planName;
  for (const release of changelog.releases) {
    if (release.changes.plansRemoved.some(same)) history = [];
    const added = release.changes.plansAdded.find(same);
    if (added) history = [{ version: release.version, price: added.price }];
    const repriced = release.changes.plansRepriced.find(same);
    if (repriced) history = [...history, { version: release.version, price: repriced.newPrice }];
  }
  return history;
}

/** Rounded to the cent, as every amount the data README describes. */
export const cents = (n: number) => Math.round(n * 100) / 100;
