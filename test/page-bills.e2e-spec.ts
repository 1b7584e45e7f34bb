import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expectedBill, type ExpectedBill } from './support/independent-bill';
import { copyData, datasetEdits } from './support/operations';
import { figures } from './support/independent-figures';
import { rawProviders, rawUseCases } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A figure as the provider states it: at least cents, as many decimals as the data has. */
const stated = (n: number) => n.toFixed(Math.max(2, (String(n).split('.')[1] ?? '').length));
const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;
/** The cells of every row of the first markdown table after `heading`. */
function tableAfter(markdown: string, heading: string): string[][] {
  const section = markdown.slice(markdown.indexOf(heading));
  const lines = section.split('\n').filter((l: string) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > 0 && !section.includes(`${lines[i - 1]}\n${l}`));
  return (end === -1 ? lines : lines.slice(0, end)).slice(2).map((l) => l.slice(2, -2).split(' | '));
}
/** The text of every cell of the first HTML table after `heading`, tags dropped. */
function htmlCellsAfter(html: string, heading: string): string[] {
  const section = html.slice(html.indexOf(heading));
  const body = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>'));
  return [...body.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, ''));
}

// One app serves the provider and use-case pages and the reload below, on a copy of the embedded
// dataset that the reload test edits.
let dir: string;
let embedded: TestApp;
beforeAll(async () => {
  dir = await copyData();
  embedded = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '100000' });
});
afterAll(async () => {
  await embedded?.close();
  await rm(dir, { recursive: true, force: true });
});
const edits = datasetEdits();

describe('add-on prices and tax on provider pages', () => {
  let t: TestApp;
  beforeAll(() => {
    t = embedded;
  });

  it.each(rawProviders.providers.map((p: Json) => [p.id, p]) as [string, Json][])(
    '%s: every add-on with its price, unit and a link to its source, and the tax of each kind of customer',
    async (id, p: Json) => {
      const markdown = (await t.http.get(`/providers/${id}.md`).expect(200)).text;
      const html = (await t.http.get(`/providers/${id}`).expect(200)).text;
      const rows = Object.fromEntries(
        tableAfter(markdown, '## Add-ons and tax').map(([name, ...rest]) => [name, rest]),
      );
      const { ipv4, backups, snapshots, trafficOverage } = p.addOns;
      const priceOf = (status: string, figure: number | null, unit: string) =>
        status === 'included'
          ? 'included'
          : status === 'paid' && figure !== null
            ? `${stated(figure)} ${p.currency}${unit}`
            : 'unknown';
      expect(rows['IPv4 address'][0]).toBe(priceOf(ipv4.status, ipv4.pricePerMonth, ' a month'));
      expect(rows['Snapshots'][0]).toBe(priceOf(snapshots.status, snapshots.pricePerGbMonth, ' per GB a month'));
      const byPlan: number[] = Object.values(backups.pricesByPlan ?? {});
      expect(rows['Automated backups'][0]).toBe(
        backups.status === 'included'
          ? 'included'
          : backups.percentOfPlanPrice !== null
            ? `${backups.percentOfPlanPrice}% of the plan price`
            : backups.pricePerMonth !== null
              ? `${stated(backups.pricePerMonth)} ${p.currency} a month`
              : byPlan.length > 0
                ? `${money(Math.min(...byPlan), p.currency)} to ${money(Math.max(...byPlan), p.currency)} a month, by plan`
                : 'unknown',
      );
      const traffic = rows['Traffic beyond the allowance'][0];
      if (trafficOverage.status === 'charged')
        expect(traffic).toBe(`${stated(trafficOverage.price)} ${p.currency} per ${trafficOverage.unit}`);
      else
        expect(traffic).toMatch(
          { unmetered: /unmetered/, throttled: /slowed/, unknown: /^unknown$/ }[trafficOverage.status as string]!,
        );
      for (const [name, addOn] of [
        ['IPv4 address', ipv4],
        ['Automated backups', backups],
        ['Snapshots', snapshots],
        ['Traffic beyond the allowance', trafficOverage],
      ] as [string, Json][]) {
        // Where a figure is missing, the page says why.
        if (addOn.unknownReason) expect([name, rows[name][1].includes(addOn.unknownReason)]).toEqual([name, true]);
        if (addOn.source) {
          expect(rows[name][2]).toBe(
            `[${new URL(addOn.source.url).host}](${addOn.source.url}) (read ${addOn.source.retrievedAt}${addOn.source.copyOf ? `; a copy of [${new URL(addOn.source.copyOf).host}](${addOn.source.copyOf})` : ''})`,
          );
          expect(html).toContain(
            `<a href="${addOn.source.url.replace(/&/g, '&amp;')}" rel="noopener">${new URL(addOn.source.url).host}</a>`,
          );
        }
      }
      for (const [plan, price] of Object.entries(backups.pricesByPlan ?? {}))
        expect(markdown).toContain(`${plan} ${money(price as number, p.currency)}`);

      const tax = markdown.slice(markdown.indexOf('### Tax'), markdown.indexOf('## Locations'));
      for (const key of ['euConsumer', 'euBusinessWithVatId', 'ukConsumer', 'ukBusiness', 'usConsumer', 'usBusiness']) {
        const c = p.tax[key];
        const line = tax
          .split('\n')
          .find((l: string) =>
            l.startsWith(
              `- **${{ euConsumer: 'Consumer in the EU', euBusinessWithVatId: 'Business in the EU with a VAT id', ukConsumer: 'Consumer in the UK', ukBusiness: 'Business in the UK with a VAT id', usConsumer: 'Consumer in the US', usBusiness: 'Business in the US' }[key]}:**`,
            ),
          )!;
        expect([
          key,
          line.includes(
            {
              'customer-country-vat': 'VAT at the standard rate',
              'reverse-charge': 'reverse charge',
              'us-sales-tax': 'US sales tax',
              unknown: 'unknown',
            }[c.treatment as string]!,
          ),
        ]).toEqual([key, true]);
        for (const text of [c.note, c.unknownReason].filter(Boolean))
          expect([key, line.includes(text)]).toEqual([key, true]);
      }
      for (const s of p.tax.sources) {
        // A page read from a copy says so and links the provider's own address.
        const copy = s.copyOf ? `; a copy of [${new URL(s.copyOf).host}](${s.copyOf})` : '';
        expect(tax).toContain(`(${s.url}) (read ${s.retrievedAt}${copy})`);
      }
      if (p.tax.sources.length === 0) expect(tax).toContain('could be found');
    },
  );
});

describe('example bills on use-case pages', () => {
  let t: TestApp;
  beforeAll(() => {
    t = embedded;
  });

  const CUSTOMERS = [
    { country: 'US', business: true, currency: 'USD' },
    { country: 'DE', business: false, currency: 'EUR' },
  ];
  const NAMES = {
    base: 'plan',
    ipv4: 'IPv4 address',
    trafficOverage: 'traffic beyond the allowance',
    tax: 'VAT or sales tax',
  };

  /** The table rows the page should show, from bills computed out of the raw files. */
  function expectedRows(bills: ExpectedBill[]): string[][] {
    const several = bills[0].periods.length > 1;
    const cell = (amount: number | null, floor: number, currency: string) =>
      amount !== null
        ? money(amount, currency)
        : floor > 0
          ? `unknown (at least ${money(floor, currency)})`
          : 'unknown';
    const rows: string[][] = [];
    bills[0].periods.forEach((p, i) => {
      const when = several ? `Months ${p.fromMonth}-${p.toMonth}: ` : '';
      for (const [kind, name] of Object.entries(NAMES)) {
        rows.push([
          `${when}${name}`,
          ...bills.map((b, c) =>
            cell(b.periods[i].items.find((x) => x.item === kind)!.amount, 0, CUSTOMERS[c].currency),
          ),
        ]);
      }
      rows.push([
        `**${several ? `Months ${p.fromMonth}-${p.toMonth}` : 'Every month'}: a month**`,
        ...bills.map((b, c) => cell(b.periods[i].monthly, b.periods[i].knownMonthly, CUSTOMERS[c].currency)),
      ]);
    });
    rows.push(['Setup fee, once', ...bills.map((b, c) => cell(b.setupFee, 0, CUSTOMERS[c].currency))]);
    rows.push(['**Total over 36 months**', ...bills.map((b, c) => cell(b.total, b.knownTotal, CUSTOMERS[c].currency))]);
    return rows;
  }

  it.each(rawUseCases.useCases.map((u: Json) => [u.slug, u]) as [string, Json][])(
    "%s: the first pick's fitting plan billed for a US business in USD and a consumer in Germany in EUR",
    async (slug, u: Json) => {
      const markdown = (await t.http.get(`/use-cases/${slug}.md`).expect(200)).text;
      const html = (await t.http.get(`/use-cases/${slug}`).expect(200)).text;
      // The plan: the first recommended provider with a plan still sold meeting at least the minimum spec.
      const meets = (plan: Json, spec: Json) => {
        const f = figures(plan);
        const sold = !rawProviders.providers.some(
          (p: Json) => p.plans.includes(plan) && p.planLines.find((l: Json) => l.id === plan.line).discontinued,
        );
        return sold && f.vcpus >= spec.vcpus && f.ramGb >= spec.ramGb && f.storageGb >= spec.storageGb;
      };
      const pick = u.recommendedProviders
        .map((r: Json) => rawProviders.providers.find((p: Json) => p.id === r.id))
        .find((p: Json) => p.plans.some((plan: Json) => meets(plan, u.minimumSpec)));
      const [, providerId, planName] =
        /What \[[^\]]+\]\(\/providers\/([a-z]+)\)'s (.+?), the first pick's cheapest fitting plan/.exec(markdown)!;
      expect(providerId).toBe(pick.id);
      expect(
        meets(
          pick.plans.find((plan: Json) => plan.name === planName),
          u.minimumSpec,
        ),
      ).toBe(true);
      expect(markdown).toContain(`${u.recommendedSpec.bandwidthTb} TB of outbound traffic a month`);

      const bills = CUSTOMERS.map((c) =>
        expectedBill({ providerId, planName, ...c, months: 36, trafficTb: u.recommendedSpec.bandwidthTb }),
      );
      const rows = expectedRows(bills);
      expect(tableAfter(markdown, '## Example bill')).toEqual(rows);
      expect(htmlCellsAfter(html, '<h2>Example bill</h2>')).toEqual(rows.flat().map((c) => c.replace(/\*\*/g, '')));
      // Every unknown figure is explained, never left blank or guessed.
      if (rows.flat().some((c) => c.startsWith('unknown')))
        expect(markdown).toContain('Unknown figures, never guessed:');
    },
  );

  it("computes a known bill end to end: VAT on a German consumer's Hetzner plan (the independent figures are not all unknown)", () => {
    const plan = rawProviders.providers.find((p: Json) => p.id === 'hetzner').plans[0];
    const bill = expectedBill({
      providerId: 'hetzner',
      planName: plan.name,
      country: 'DE',
      business: false,
      currency: 'EUR',
      months: 12,
      trafficTb: 0,
    });
    expect(bill.periods[0].monthly).toBeCloseTo(plan.price * 1.19, 1);
  });
});

describe('example bills after a dataset reload', () => {
  let t: TestApp;
  beforeAll(() => {
    t = embedded;
  });

  it('prices the bill against the new version: pages are built before it is served, and must not read the old one', async () => {
    const before = (await t.http.get('/use-cases/wordpress.md').expect(200)).text;
    const [, providerId, planName] = /What \[[^\]]+\]\(\/providers\/([a-z]+)\)'s (.+?), the first pick's/.exec(before)!;
    let price = 0;
    await edits.edit(t, join(dir, 'providers.json'), (data) => {
      const plan = data.providers.find((p: Json) => p.id === providerId).plans.find((p: Json) => p.name === planName);
      price = Math.round(plan.price * 0.8 * 100) / 100;
      plan.price = price;
    });
    const after = (await t.http.get('/use-cases/wordpress.md').expect(200)).text;
    const firstPlanRow = tableAfter(after, '## Example bill')[0];
    const currency = rawProviders.providers.find((p: Json) => p.id === providerId).currency;
    expect(firstPlanRow[1 + ['USD', 'EUR'].indexOf(currency)]).toBe(money(price, currency));
  });
});
