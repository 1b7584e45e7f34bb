import { planServices } from '../../test/support/dataset-services.js';
import { cents, figures, pricedPlanOf, toCurrencyWith } from '../../test/support/independent-figures.js';
import {
  rawExchangeRates,
  rawLine as line,
  rawPlan as plan,
  rawProvider as provider,
  rawProviders,
  rawVatRates as vat,
} from '../../test/support/raw-data.js';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import type { CostEstimator } from './cost-estimator.service.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// Expected bills are computed from the raw files as data/README.md describes them, not by the estimator.
const toCurrency = toCurrencyWith(rawExchangeRates);
const amounts = (items: { item: string; known: boolean; amount?: number }[]) =>
  items.map((i) => [i.item, i.known, i.amount]);

describe('CostEstimator', () => {
  let costs: CostEstimator;
  beforeAll(async () => {
    ({ costs } = await planServices());
  });

  it('bills a French consumer on Hetzner with backups and traffic beyond the allowance, item by item', () => {
    const cx = plan('hetzner', 'CX23');
    const { addOns } = provider('hetzner');
    const allowanceTb = Number(cx.bandwidth.replace('TB', ''));
    expect([addOns.trafficOverage.unit, addOns.backups.status]).toEqual(['TB', 'paid']); // the case this test is about
    const base = cx.price;
    const backups = cents((base * addOns.backups.percentOfPlanPrice) / 100);
    const traffic = cents(5 * addOns.trafficOverage.price);
    const tax = cents(((base + backups + traffic) * vat.FR.standardRate) / 100);
    const r = costs.estimate({
      providerId: 'hetzner',
      planName: 'CX23',
      country: 'fr',
      backups: true,
      trafficTb: allowanceTb + 5,
      currency: 'EUR',
      horizonMonths: 6,
    });
    expect(amounts(r.lineItems)).toEqual([
      ['base', true, base],
      ['ipv4', true, 0],
      ['backups', true, backups],
      ['trafficOverage', true, traffic],
      ['tax', true, tax],
    ]);
    const monthly = cents(base + backups + traffic + tax);
    expect(r.periods).toEqual([
      expect.objectContaining({ fromMonth: 1, toMonth: 6, months: 6, known: true, monthlyAmount: monthly }),
    ]);
    expect(r.recurringTotalOverHorizon).toBe(cents(monthly * 6));
    expect(r.customer).toEqual({ country: 'FR', business: false });
  });

  it('applies a regional price factor to the base price and to backups priced as a share of it', () => {
    const regular = plan('vultr', 'Regular Performance 1 GB');
    const factor = line('vultr', 'Regular Performance 1 GB').regionalPrices.find((r: Json) =>
      r.datacenters.includes('São Paulo'),
    ).priceFactor;
    const percent = provider('vultr').addOns.backups.percentOfPlanPrice;
    const r = costs.estimate({
      providerId: 'vultr',
      planName: regular.name,
      country: 'IT',
      business: true,
      ipv4: false,
      backups: true,
      datacenter: 'São Paulo',
    });
    expect(amounts(r.lineItems)).toEqual([
      ['base', true, cents(regular.price * factor)],
      ['ipv4', true, 0],
      ['backups', true, cents((regular.price * factor * percent) / 100)],
      ['trafficOverage', true, 0],
      ['tax', true, 0], // an Italian business buying from the US: reverse charge
    ]);
    expect(r.plan.datacenter).toBe('São Paulo');
  });

  it('converts a regional price to the answer currency and adds the customer country VAT', () => {
    const nanode = plan('linode', 'Nanode 1 GB');
    const factor = line('linode', 'Nanode 1 GB').regionalPrices.find((r: Json) =>
      r.datacenters.includes('Jakarta'),
    ).priceFactor;
    const r = costs.estimate({
      providerId: 'linode',
      planName: 'Nanode 1 GB',
      country: 'ES',
      datacenter: 'Jakarta',
      currency: 'EUR',
    });
    const base = toCurrency(nanode.price * factor, 'USD', 'EUR');
    expect(amounts(r.lineItems)).toEqual([
      ['base', true, base],
      ['ipv4', true, 0],
      ['backups', true, 0],
      ['trafficOverage', true, 0],
      ['tax', true, cents((base * vat.ES.standardRate) / 100)],
    ]);
  });

  it('keeps a promotional price for its whole term when the horizon ends inside it', () => {
    const kvm = plan('hostinger', 'KVM 1');
    const term = line('hostinger', 'KVM 1').termMonths;
    const r = costs.estimate({
      providerId: 'hostinger',
      planName: 'KVM 1',
      country: 'IT',
      horizonMonths: term,
      currency: 'USD',
      backups: true,
      trafficTb: 1000,
    });
    const tax = cents((kvm.price * vat.IT.standardRate) / 100);
    expect(r.periods).toHaveLength(1);
    expect(amounts(r.lineItems)).toEqual([
      ['base', true, kvm.price],
      ['ipv4', true, 0],
      ['backups', true, 0], // included in the line
      ['trafficOverage', true, 0], // throttled, never charged
      ['tax', true, tax],
    ]);
    expect(r.lineItems.find((i) => i.item === 'trafficOverage')!.note).toMatch(/slowed/);
    expect(r.recurringTotalOverHorizon).toBe(cents(cents(kvm.price + tax) * term));
  });

  it('splits a promotional price from its unknown renewal at the end of the term', () => {
    const term = line('hostinger', 'KVM 1').termMonths;
    const r = costs.estimate({ providerId: 'hostinger', planName: 'KVM 1', country: 'IT', horizonMonths: term + 1 });
    expect(r.periods.map((p) => [p.fromMonth, p.toMonth, p.known])).toEqual([
      [1, term, true],
      [term + 1, term + 1, pricedPlanOf(provider('hostinger'), plan('hostinger', 'KVM 1')).renewalPrice !== null],
    ]);
  });

  it('leaves the tax of a business in the provider home country unknown, and says why', () => {
    const r = costs.estimate({ providerId: 'hetzner', planName: 'CX23', country: 'DE', business: true });
    expect(r.lineItems.find((i) => i.item === 'tax')).toEqual({
      item: 'tax',
      known: false,
      reason: expect.stringMatching(/home country/),
    });
    expect([r.known, r.totalOverHorizon, r.recurringTotalOverHorizon]).toEqual([false, undefined, undefined]);
  });

  it('leaves tax unknown outside the EU, the UK and the US', () => {
    expect(
      costs
        .estimate({ providerId: 'hetzner', planName: 'CX23', country: 'JP' })
        .lineItems.find((i) => i.item === 'tax'),
    ).toMatchObject({ known: false, reason: expect.stringMatching(/not JP/) });
  });

  it('picks the cheapest plan sold with no commitment that meets the figures', () => {
    const candidates = rawProviders.providers
      .flatMap((p: Json) =>
        p.plans.map((x: Json) => ({
          id: p.id,
          name: x.name,
          ...figures(x),
          m2m: pricedPlanOf(p, x).monthToMonthPrice,
          sold: !pricedPlanOf(p, x).discontinued && pricedPlanOf(p, x).orderable !== false,
          currency: x.currency,
        })),
      )
      .filter((x: Json) => x.sold && x.m2m !== null && x.vcpus >= 4 && x.ramGb >= 16)
      .map((x: Json) => ({ ...x, usd: toCurrency(x.m2m, x.currency, 'USD') }))
      .sort((a: Json, b: Json) => a.usd - b.usd || a.id.localeCompare(b.id) || a.name.localeCompare(b.name));
    const r = costs.estimate({ minVcpus: 4, minRamGb: 16, country: 'NL' });
    expect([r.chosenBy, r.plan.providerId, r.plan.planName]).toEqual([
      'cheapest-meeting-figures',
      candidates[0].id,
      candidates[0].name,
    ]);
  });

  it.each([
    [{ providerId: 'hetzner', planName: 'CX23', country: 'DE', horizonMonths: 0 }, 'horizonMonths'],
    [{ providerId: 'hetzner', planName: 'CX23', country: 'DE', currency: 'XYZ' }, 'currency'],
    [{ providerId: 'hetzner', planName: 'CX23', country: 'DE', trafficTb: -1 }, 'trafficTb'],
    [{ providerId: 'hetzner', planName: 'CX23', country: 'Atlantis' }, 'country'],
    [{ providerId: 'hetzner', planName: 'Basic 2 GB', country: 'DE' }, 'planName'],
    [{ providerId: 'hetzner', country: 'DE' }, 'providerId'],
    [{ providerId: 'hetzner', planName: 'CX23', country: 'DE', datacenter: 'Ashburn' }, 'datacenter'],
  ])('refuses %j, naming the argument', (query, argument) => {
    expect(() => costs.estimate(query)).toThrow(
      expect.objectContaining({ argument, constructor: InvalidArgumentError }),
    );
  });
  it.each([
    // DigitalOcean: weekly backups 20% of the plan price, daily ones 30% (the add-on's other frequency).
    ['digitalocean', 'Basic 4 GB', 'weekly', { known: true, share: 0.2 }],
    ['digitalocean', 'Basic 4 GB', 'daily', { known: true, share: 0.3 }],
    ['digitalocean', 'Basic 4 GB', true, { known: true, share: 0.2 }],
    // Hetzner's backups are daily: they cover a weekly need too.
    ['hetzner', 'CX23', 'weekly', { known: true, share: 0.2 }],
    ['hetzner', 'CX23', 'daily', { known: true, share: 0.2 }],
    // Hostinger includes weekly backups; daily ones cost a price the data does not have.
    ['hostinger', 'KVM 2', 'weekly', { known: true, share: 0 }],
    ['hostinger', 'KVM 2', 'daily', { known: false }],
    // Vultr's data does not say how often its backups run: a frequency asked for has no price.
    ['vultr', 'Regular Performance 1 GB', 'daily', { known: false }],
  ] as const)(
    'prices %s %s with backups %j by the frequency the data gives',
    (providerId, planName, backups, expected) => {
      const bill = costs.estimate({ providerId, planName, backups });
      const item = bill.lineItems.find((i) => i.item === 'backups')!;
      const base = bill.lineItems.find((i) => i.item === 'base')!;
      expect(item.known).toBe(expected.known);
      if (expected.known) expect(item.amount).toBeCloseTo(base.amount! * ('share' in expected ? expected.share : 0), 2);
      else expect(bill.recurringTotalOverHorizon).toBeUndefined();
    },
  );

  it.each([
    ['Germany', 'DE'],
    ['united kingdom', 'GB'],
    ['UK', 'GB'],
    ['de', 'DE'],
  ])('reads the customer country %j as %s', (country, code) => {
    const bill = costs.estimate({ providerId: 'hetzner', planName: 'CX23', country });
    expect(bill.customer.country).toBe(code);
  });

  it.each([
    [{ providerId: 'hetzner', planName: 'CX23', minRamGb: 16 }, 'minRamGb'],
    [{ providerId: 'hetzner', planName: 'CX23', cpuType: 'dedicated' }, 'cpuType'],
  ])('refuses a plan named with figures %j, naming both', (query, argument) => {
    expect(() => costs.estimate(query)).toThrow(
      expect.objectContaining({
        argument,
        message: expect.stringMatching(/cannot be used with providerId and planName/),
      }),
    );
  });

  it('refuses an unknown provider with every valid id', () => {
    expect(() => costs.estimate({ providerId: 'aws', planName: 'x', country: 'DE' })).toThrow(
      expect.objectContaining({ constructor: NotFoundError, validIds: rawProviders.providers.map((p: Json) => p.id) }),
    );
  });
});
