import { cents, toCurrencyWith } from './support/independent-figures';
import { mcpSuite } from './support/mcp-tool-caller';
import {
  rawExchangeRates as rates,
  rawLine as lineOf,
  rawPlan as planOf,
  rawProvider as provider,
  rawProviders,
  rawVatRates as vat,
} from './support/raw-data';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// Expected bills are computed here from the raw files, as data/README.md describes them.
const toCurrency = toCurrencyWith(rates);
const itemOf = (items: Json[], kind: string) => items.find((i) => i.item === kind);

// One app and MCP client for every describe of this file (read-only calls).
const { call, data, errorText, tools: toolList } = mcpSuite();

describe('estimate_monthly_cost', () => {
  it('is listed read-only with an object output schema', () => {
    const tool = toolList().find((x) => x.name === 'estimate_monthly_cost')!;
    expect(tool.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tool.outputSchema?.type).toBe('object');
  });

  it('bills an EU consumer on a Hostinger promotion over 36 months and says the renewal price is unknown', async () => {
    const plan = planOf('hostinger', 'KVM 2');
    const line = lineOf('hostinger', 'KVM 2');
    expect([line.promotional, line.termMonths, plan.renewalPrice]).toEqual([true, 24, null]); // the case this test is about
    const r = data(
      await call('estimate_monthly_cost', {
        providerId: 'hostinger',
        planName: 'KVM 2',
        country: 'DE',
        horizonMonths: 36,
        currency: 'EUR',
      }),
    );
    const base = toCurrency(plan.price, 'USD', 'EUR');
    const tax = cents((base * vat.DE.standardRate) / 100);
    const [promo, renewal] = r.periods;
    expect(promo).toMatchObject({
      fromMonth: 1,
      toMonth: 24,
      months: 24,
      known: true,
      monthlyAmount: cents(base + tax),
    });
    expect(itemOf(promo.items, 'base').amount).toBe(base);
    expect(itemOf(promo.items, 'tax').amount).toBe(tax);
    expect(renewal).toMatchObject({ fromMonth: 25, toMonth: 36, months: 12, known: false });
    expect(renewal.monthlyAmount).toBeUndefined();
    expect(itemOf(renewal.items, 'base')).toEqual({
      item: 'base',
      known: false,
      reason: expect.stringMatching(/renewal price could not be confirmed/),
    });
    expect(r.known).toBe(false);
    expect(r.totalOverHorizon).toBeUndefined();
    expect(r.recurringTotalOverHorizon).toBeUndefined();
    const setupFee = line.setupFee === null ? 0 : toCurrency(line.setupFee, 'USD', 'EUR'); // an unknown fee is left out of the floor
    expect(r.knownTotalOverHorizon).toBe(cents(cents(base + tax) * 24 + setupFee));
    expect(r.sources.map((s: Json) => s.url)).toEqual(
      expect.arrayContaining([line.source.url, vat.DE.source.url, provider('hostinger').tax.sources[0].url]),
    );
  });

  it('tells a US business in Ashburn that Hetzner prices, traffic and tax there are not in the dataset', async () => {
    const r = data(
      await call('estimate_monthly_cost', {
        providerId: 'hetzner',
        planName: 'CCX13',
        country: 'US',
        business: true,
        trafficTb: 3,
        datacenter: 'Ashburn',
        currency: 'USD',
      }),
    );
    expect(r.plan.datacenter).toBe('Ashburn');
    expect(itemOf(r.lineItems, 'base')).toEqual({
      item: 'base',
      known: false,
      reason: expect.stringMatching(/Ashburn/),
    });
    expect(itemOf(r.lineItems, 'trafficOverage')).toMatchObject({
      known: false,
      reason: expect.stringMatching(/not in the dataset/),
    });
    expect(itemOf(r.lineItems, 'tax')).toEqual({
      item: 'tax',
      known: false,
      reason: provider('hetzner').tax.usBusiness.unknownReason,
    });
    expect(itemOf(r.lineItems, 'ipv4')).toMatchObject({ known: true, amount: 0 });
    expect([r.known, r.totalOverHorizon, r.knownTotalOverHorizon]).toEqual([false, undefined, 0]);
  });

  it('refuses a Hetzner line that is not sold in Ashburn, naming where it is sold', async () => {
    const text = errorText(
      await call('estimate_monthly_cost', {
        providerId: 'hetzner',
        planName: 'CX23',
        country: 'US',
        datacenter: 'Ashburn',
      }),
    );
    expect(text).toContain(lineOf('hetzner', 'CX23').datacenters.join(', '));
  });

  it('bills a UK consumer with backups on DigitalOcean in GBP', async () => {
    const plan = planOf('digitalocean', 'Basic 2 GB');
    const backupsPercent = provider('digitalocean').addOns.backups.percentOfPlanPrice;
    const r = data(
      await call('estimate_monthly_cost', {
        providerId: 'digitalocean',
        planName: 'Basic 2 GB',
        country: 'GB',
        backups: true,
        trafficTb: 1,
        currency: 'GBP',
      }),
    );
    const base = toCurrency(plan.price, 'USD', 'GBP');
    const backups = toCurrency((plan.price * backupsPercent) / 100, 'USD', 'GBP');
    const tax = cents(((base + backups) * vat.GB.standardRate) / 100);
    const monthly = cents(base + backups + tax);
    expect(r.periods).toHaveLength(1);
    expect(r.lineItems.map((i: Json) => [i.item, i.known, i.amount])).toEqual([
      ['base', true, base],
      ['ipv4', true, 0],
      ['backups', true, backups],
      ['trafficOverage', true, 0],
      ['tax', true, tax],
    ]);
    expect(r.recurringTotalOverHorizon).toBe(cents(monthly * 12));
    const setupFee = lineOf('digitalocean', 'Basic 2 GB').setupFee;
    if (setupFee === null) {
      // Every line item is known, so known is true; the unconfirmed setup fee is named and keeps the total out.
      expect([r.setupFee.known, r.known, r.totalOverHorizon]).toEqual([false, true, undefined]);
      expect(r.unknownItems).toEqual([{ item: 'setupFee', reason: r.setupFee.reason }]);
    } else {
      expect(r.totalOverHorizon).toBe(cents(monthly * 12 + toCurrency(setupFee, 'USD', 'GBP')));
    }
  });

  it('charges DigitalOcean traffic beyond the allowance per GiB, converted exactly to TB', async () => {
    const overage = provider('digitalocean').addOns.trafficOverage;
    expect(overage.unit).toBe('GiB');
    const r = data(
      await call('estimate_monthly_cost', {
        providerId: 'digitalocean',
        planName: 'Basic 2 GB',
        country: 'US',
        trafficTb: 5,
      }),
    );
    const excessBytes = (5 - 2) * 1e12; // the plan includes 2 TB
    expect(itemOf(r.lineItems, 'trafficOverage').amount).toBe(cents((excessBytes / 1024 ** 3) * overage.price));
    expect(itemOf(r.lineItems, 'tax')).toMatchObject({ known: false, reason: expect.stringMatching(/sales tax/) });
  });

  it('applies the reverse charge for an EU business buying from abroad', async () => {
    const r = data(
      await call('estimate_monthly_cost', {
        providerId: 'vultr',
        planName: 'Regular Performance 1 GB',
        country: 'FR',
        business: true,
      }),
    );
    expect(itemOf(r.lineItems, 'tax')).toMatchObject({
      known: true,
      amount: 0,
      note: expect.stringMatching(/reverse charge/),
    });
  });

  it('picks the cheapest no-commitment plan meeting the figures', async () => {
    const r = data(await call('estimate_monthly_cost', { minVcpus: 2, minRamGb: 4, country: 'DE' }));
    const candidates = rawProviders.providers.flatMap((p: Json) =>
      p.plans
        .filter(
          (plan: Json) => Number(plan.cpu.split(' ')[0]) >= 2 && parseFloat(plan.ram) >= 4 && !plan.ram.endsWith('MB'),
        )
        .filter((plan: Json) => p.planLines.find((l: Json) => l.id === plan.line).priceBasis !== 'prepaid-term')
        .map((plan: Json) => ({ id: p.id, name: plan.name, usd: toCurrency(plan.price, p.currency, 'USD') })),
    );
    candidates.sort((a: Json, b: Json) => a.usd - b.usd || a.id.localeCompare(b.id) || a.name.localeCompare(b.name));
    expect([r.chosenBy, r.plan.providerId, r.plan.planName]).toEqual([
      'cheapest-meeting-figures',
      candidates[0].id,
      candidates[0].name,
    ]);
  });

  it('answers an unknown country with an isError that says what is valid', async () => {
    expect(
      errorText(await call('estimate_monthly_cost', { providerId: 'hetzner', planName: 'CX23', country: 'XX' })),
    ).toMatch(/ISO 3166-1 alpha-2.*DE.*AT, BE/);
  });

  it('answers negative traffic with an isError', async () => {
    expect(
      errorText(
        await call('estimate_monthly_cost', { providerId: 'hetzner', planName: 'CX23', country: 'DE', trafficTb: -1 }),
      ),
    ).toMatch(/trafficTb must be 0 or more/);
  });

  it('answers a plan name of another provider with an isError naming its provider and the valid plans', async () => {
    const text = errorText(
      await call('estimate_monthly_cost', { providerId: 'digitalocean', planName: 'CX23', country: 'DE' }),
    );
    expect(text).toContain('"CX23" is a plan of hetzner');
    expect(text).toContain(
      provider('digitalocean')
        .plans.map((p: Json) => p.name)
        .join(', '),
    );
  });

  it('answers an unknown provider with an isError listing the valid ids', async () => {
    expect(
      errorText(await call('estimate_monthly_cost', { providerId: 'aws', planName: 't3.micro', country: 'DE' })),
    ).toContain(rawProviders.providers.map((p: Json) => p.id).join(', '));
  });
});

describe('estimate_monthly_cost without a country, and what known means', () => {
  it('bills a CX33 for a business with no country given, before tax, in one call, and says so', async () => {
    const plan = planOf('hetzner', 'CX33');
    const hetzner = provider('hetzner');
    const line = lineOf('hetzner', 'CX33');
    expect([line.setupFee, hetzner.addOns.ipv4.status]).toEqual([null, 'included']); // the case this test is about: every monthly item known, the setup fee not
    const r = data(await call('estimate_monthly_cost', { providerId: 'hetzner', planName: 'CX33', business: true }));
    const base = toCurrency(plan.price, plan.currency, 'USD');
    expect(r.taxIncluded).toBe(false);
    expect(r.customer).toEqual({ business: true });
    expect(r.lineItems.map((i: Json) => i.item)).toEqual(['base', 'ipv4', 'backups', 'trafficOverage']);
    expect(itemOf(r.lineItems, 'base').amount).toBe(base);
    expect(r.periods).toEqual([
      expect.objectContaining({ fromMonth: 1, toMonth: 12, known: true, monthlyAmount: base }),
    ]);
    expect(r.assumptions[0]).toMatch(/No customer country given: every amount is before VAT or sales tax/);
    // known: every line item is known; the setup fee the data does not confirm is named, and keeps the total out.
    expect(r.known).toBe(true);
    expect(r.unknownItems).toEqual([{ item: 'setupFee', reason: expect.any(String) }]);
    expect(r.recurringTotalOverHorizon).toBe(cents(base * 12));
    expect(r.totalOverHorizon).toBeUndefined();
  });

  it('names every unknown line item with its months, and then says known: false', async () => {
    const r = data(
      await call('estimate_monthly_cost', {
        providerId: 'hostinger',
        planName: 'KVM 2',
        country: 'DE',
        horizonMonths: 36,
      }),
    );
    expect(r.known).toBe(false);
    const unknownInPeriods = r.periods.flatMap((p: Json) =>
      p.items
        .filter((i: Json) => !i.known)
        .map((i: Json) => ({ item: i.item, fromMonth: p.fromMonth, toMonth: p.toMonth, reason: i.reason })),
    );
    expect(unknownInPeriods.length).toBeGreaterThan(0);
    expect(r.unknownItems).toEqual([...unknownInPeriods, { item: 'setupFee', reason: r.setupFee.reason }]);
  });

  it.each(['Sydney', 'Singapore', 'Beauharnois'])(
    "withholds OVHcloud's base price in %s, where the data says its site sells at a price not in the dataset",
    async (datacenter) => {
      const line = rawProviders.providers
        .find((p: any) => p.id === 'ovhcloud')
        .planLines.find((l: any) => l.id === 'vps');
      const regional = line.regionalPrices.find((r: any) => r.datacenters.includes(datacenter));
      expect(regional.priceFactor).toBeNull();
      const r = data(
        await call('estimate_monthly_cost', { providerId: 'ovhcloud', planName: 'VPS-1 2027', datacenter }),
      );
      expect(r.lineItems[0]).toEqual({ item: 'base', known: false, reason: regional.note });
      expect([r.known, r.recurringTotalOverHorizon]).toEqual([false, undefined]);
    },
  );
});
