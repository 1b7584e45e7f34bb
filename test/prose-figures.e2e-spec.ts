import { allProse, providers, reasons } from './support/prose-corpus';

/*
 * Hand-written prose must not drift from the data it quotes. This reads the prose of providers.json,
 * use-cases.json, the editorial files behind the generated guides and the hand-written guides,
 * straight from the files, and checks three things a reader would be misled by: a plan named with a
 * price it does not have, a count of providers that is not the dataset's, and a use-case reason that
 * names a product line the dataset does not hold.
 */

/** "€3.49", "$24", "3.49 EUR", "24 USD" → the number, with its currency. */
const AMOUNT = /(?:([€$£])\s?(\d+(?:\.\d{1,2})?))|(?:(\d+(?:\.\d{1,2})?)\s?(EUR|USD|GBP)\b)/;
const SYMBOL: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP' };

/** The first amount within `span` characters after `index` in the same sentence, if any. */
function amountAfter(text: string, index: number, span = 60): { value: number; currency: string } | undefined {
  const tail = text.slice(index, index + span).split(/[.;!?](?:\s|$)|\n/)[0];
  const m = AMOUNT.exec(tail);
  if (!m) return undefined;
  return m[1] ? { value: Number(m[2]), currency: SYMBOL[m[1]] } : { value: Number(m[3]), currency: m[4] };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every plan of every provider, longest names first so "Basic 2 GB / 2 vCPU" wins over "Basic 2 GB". */
const plans = providers
  .flatMap((p) => p.plans.map((plan: any) => ({ provider: p, plan })))
  .sort((a, b) => b.plan.name.length - a.plan.name.length);

/** The plan names quoted with a price in `text`, with the price quoted. */
function quotedPlanPrices(text: string): { provider: any; plan: any; quoted: { value: number; currency: string } }[] {
  const found: { provider: any; plan: any; quoted: { value: number; currency: string } }[] = [];
  const taken: [number, number][] = [];
  for (const entry of plans) {
    const pattern = new RegExp(`(?<![\\w-])${escape(entry.plan.name)}(?![\\w-]| /)`, 'g');
    for (const m of text.matchAll(pattern)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      taken.push([start, end]);
      const quoted = amountAfter(text, end);
      if (quoted) found.push({ ...entry, quoted });
    }
  }
  return found;
}

/** The prices a plan can honestly be quoted at: headline, month to month, renewal. */
const pricesOf = (plan: any) =>
  [plan.price, plan.monthToMonthPrice, plan.renewalPrice].filter((x) => typeof x === 'number');

/** Product lines and plan families the market knows per provider (matched case-sensitively, as proper names); naming one requires the data to hold it. */
const PRODUCT_NAMES: Record<string, string[]> = {
  hetzner: ['server auction', 'Storage Box', 'dedicated server', 'CX', 'CAX', 'CPX', 'CCX'],
  digitalocean: [
    'Premium Intel',
    'Premium AMD',
    'Memory-Optimized',
    'Storage-Optimized',
    'CPU-Optimized',
    'General Purpose',
    'App Platform',
  ],
  vultr: [
    'High Frequency',
    'Bare Metal',
    'High Performance',
    'Regular Performance',
    'CPU Optimized',
    'General Purpose',
    'Memory Optimized',
    'Storage Optimized',
  ],
  linode: ['High Memory', 'Premium', 'GPU', 'Nanode', 'Dedicated'],
  ovhcloud: ['Kimsufi', 'Eco', 'Game', 'Local Zone', 'dedicated server', 'Public Cloud'],
  contabo: ['Storage VPS', 'Cloud VDS', 'Cloud VPS', 'dedicated server'],
  hostinger: ['KVM', 'Cloud Startup', 'Game Panel'],
  upcloud: ['Cloud Native', 'High CPU', 'High Memory', 'Developer', 'General Purpose'],
};

/** True when the data holds a product of that name for the provider: a plan, a plan line or a feature. */
function holds(provider: any, product: string): boolean {
  const names = [...provider.plans.map((p: any) => p.name), ...provider.planLines.map((l: any) => l.name)].map(
    (n: string) => n.toLowerCase(),
  );
  return names.some((n: string) => n.includes(product.toLowerCase()));
}

describe('prose that quotes the data', () => {
  it('finds the plan prices the prose quotes (the check below is not vacuous)', () => {
    const quoted = allProse.flatMap((p) => quotedPlanPrices(p.text).map((q) => `${q.plan.name} ${q.quoted.value}`));
    const cx23 = providers.find((p) => p.id === 'hetzner').plans.find((p: any) => p.name === 'CX23');
    expect(quoted).toContain(`CX23 ${cx23.price}`);
  });

  it('quotes every named plan at a price the plan has', () => {
    const wrong = allProse.flatMap((p) =>
      quotedPlanPrices(p.text)
        .filter(({ plan, quoted }) => quoted.currency === plan.currency && !pricesOf(plan).includes(quoted.value))
        .map(
          ({ plan, quoted }) =>
            `${p.where}: ${plan.name} quoted at ${quoted.value} ${quoted.currency}, the data says ${pricesOf(plan).join(' or ')}`,
        ),
    );
    expect(wrong).toEqual([]);
  });

  it('counts the providers as many as the dataset holds', () => {
    const words: Record<string, number> = {
      two: 2,
      three: 3,
      four: 4,
      five: 5,
      six: 6,
      seven: 7,
      eight: 8,
      nine: 9,
      ten: 10,
    };
    const count =
      /\b(?:of|all|the)\s+(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:providers|hosts|clouds)\b(?!\s+(?:in|with|that|who|whose)\b)/gi;
    const wrong = allProse.flatMap((p) =>
      [...p.text.matchAll(count)]
        .map((m) => ({ m, n: words[m[1].toLowerCase()] ?? Number(m[1]) }))
        .filter(({ n }) => n !== providers.length && n > 2)
        .map(({ m }) => `${p.where}: "${m[0]}" but the dataset reviews ${providers.length}`),
    );
    expect(wrong).toEqual([]);
  });

  it('names in use-case reasons only products the data holds for that provider', () => {
    const wrong = reasons.flatMap((r) => {
      const provider = providers.find((p) => p.id === r.providerId);
      return (PRODUCT_NAMES[r.providerId!] ?? [])
        .filter(
          (product) => new RegExp(`(?<![\\w-])${escape(product)}(?![\\w-])`).test(r.text) && !holds(provider, product),
        )
        .map((product) => `${r.where}: names "${product}", which the dataset does not hold for ${provider.name}`);
    });
    expect(wrong).toEqual([]);
  });

  it('catches a drifted price, a wrong count and an unknown product (the checks can fail)', () => {
    const cx23 = providers.find((p) => p.id === 'hetzner').plans.find((p: any) => p.name === 'CX23');
    const [drift] = quotedPlanPrices(`The CX23 costs €${(cx23.price + 1).toFixed(2)} a month.`);
    expect(pricesOf(drift.plan)).not.toContain(drift.quoted.value);
    expect(
      holds(
        providers.find((p) => p.id === 'vultr'),
        'High Frequency',
      ),
    ).toBe(false);
    expect(
      holds(
        providers.find((p) => p.id === 'vultr'),
        'High Performance',
      ),
    ).toBe(true);
  });
});
