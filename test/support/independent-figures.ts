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
 * A separate reading of how a plan's price is paid, written from the data README's rules rather
 * than imported from the service: the line gives the basis, term, promotion and setup fee; a plan
 * billed without commitment costs its price month to month; a prepaid plan carries its own
 * month-to-month and renewal prices, null where they could not be confirmed.
 */
export function pricedPlanOf(provider: any, plan: any) {
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
  };
}

/** Exchange-rate conversion as the data README describes it: through the base currency, to the cent. */
export function toCurrencyWith(rates: { rates: Record<string, number> }) {
  return (amount: number, from: string, to: string) => (from === to ? amount : Math.round((amount / rates.rates[from]) * rates.rates[to] * 100) / 100);
}

/** The provider whose cheapest plan sold without commitment costs least in USD (ties by id). */
export function cheapestWithoutCommitment(providers: any[], rates: { rates: Record<string, number> }): string {
  const usd = toCurrencyWith(rates);
  const entries = providers.flatMap((p) =>
    p.plans
      .map((plan: any) => pricedPlanOf(p, plan))
      .filter((plan: any) => plan.monthToMonthPrice !== null)
      .map((plan: any) => ({ id: p.id, price: usd(plan.monthToMonthPrice, plan.currency, 'USD') })),
  );
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
export function expectedPlanRows(providers: any[], rates: { date: string; rates: Record<string, number> }, baseUrl: string, changelog: { releases: any[] } = { releases: [] }) {
  const convert = toCurrencyWith(rates);
  return providers.flatMap((provider) =>
    provider.plans.map((raw: any) => {
      const plan = pricedPlanOf(provider, raw);
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
        exchangeRatesDate: rates.date,
        lineId: raw.line,
        lineComplete: line.complete,
        reviewUrl: `${baseUrl}/providers/${provider.id}`,
        priceHistory: priceHistoryOf(changelog, provider.id, raw.name),
      };
    }),
  );
}

/** A plan's price at each release that added or repriced it, read from the changelog as the data README describes it. */
export function priceHistoryOf(changelog: { releases: any[] }, providerId: string, planName: string): { version: string; price: number }[] {
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
