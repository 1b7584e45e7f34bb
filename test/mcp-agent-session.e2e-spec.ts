import {
  figures,
  priceAgeOf,
  priceAgeSummaryOf,
  pricedPlanOf,
  STALE_DAYS,
  toCurrencyWith,
} from './support/independent-figures';
import { mcpSuite } from './support/mcp-tool-caller';
import { rawExchangeRates, rawMeta, rawProviders } from './support/raw-data';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// A scripted agent session (issue #30, "Done when"): each buyer question answered by exactly one tool
// call, checked against the raw files read here.
const usd = toCurrencyWith(rawExchangeRates);
const offers = rawProviders.providers.flatMap((p: Json) =>
  p.plans
    .map((plan: Json) => ({
      p,
      plan,
      priced: pricedPlanOf(p, plan),
      line: p.planLines.find((l: Json) => l.id === plan.line),
    }))
    .filter(({ priced }: Json) => !priced.discontinued && priced.monthToMonthPrice !== null)
    .map(({ p, plan, priced, line }: Json) => ({
      providerId: p.id,
      // What the provider's availability reading says; the tools leave out plans nobody can order unless asked.
      orderable: priced.orderable,
      planName: plan.name,
      cpuType: plan.cpuType,
      // The architecture only where the line states it with a source; never read from a name.
      architecture: line.architecture?.source ? line.architecture.value : 'unknown',
      currency: plan.currency,
      m2m: priced.monthToMonthPrice,
      cities: p.datacenters
        .filter((d: Json) => !line.datacenters || line.datacenters.includes(d.city))
        .map((d: Json) => d.city),
      factorAt: (city: string) => {
        const r = line.regionalPrices?.find((x: Json) => x.datacenters.includes(city));
        return r ? r.priceFactor : 1;
      },
      ...figures(plan),
    })),
);
const byPrice = (a: Json, b: Json) =>
  a.usd - b.usd || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName);

describe('a scripted agent session: one call per question', () => {
  const { call, data } = mcpSuite();

  it('"What is the cheapest 8 GB dedicated-CPU plan?"', async () => {
    const best = offers
      .filter((x: Json) => x.ramGb >= 8 && x.cpuType === 'dedicated')
      .map((x: Json) => ({ ...x, usd: usd(x.m2m, x.currency, 'USD') }))
      .sort(byPrice)[0];
    const r = data(await call('find_vps_plans', { minRamGb: 8, cpuType: 'dedicated', limit: 1 }));
    expect(r.plans[0]).toMatchObject({
      providerId: best.providerId,
      planName: best.planName,
      normalizedPrice: best.usd,
      cpuType: 'dedicated',
    });
    expect(r.plans[0].soldIn).toBeDefined();
    expect(r.datasetVersion).toBe(rawMeta.version);
  });

  it('"What is the equivalent of my Linode Dedicated 8 GB, sold in New York?"', async () => {
    const ref = offers.find((x: Json) => x.providerId === 'linode' && x.planName === 'Dedicated 8 GB');
    const best = offers
      .filter(
        (x: Json) =>
          x.providerId !== 'linode' &&
          x.cpuType === 'dedicated' &&
          x.vcpus >= ref.vcpus &&
          x.ramGb >= ref.ramGb &&
          x.storageGb >= ref.storageGb &&
          x.cities.includes('New York') &&
          x.factorAt('New York') !== null,
      )
      .map((x: Json) => ({ ...x, usd: usd(Math.round(x.m2m * x.factorAt('New York') * 100) / 100, x.currency, 'USD') }))
      .sort(byPrice)[0];
    const r = data(
      await call('find_equivalent_plans', {
        providerId: 'linode',
        planName: 'Dedicated 8 GB',
        location: 'New York',
        limit: 1,
      }),
    );
    expect(r.equivalents[0]).toMatchObject({
      providerId: best.providerId,
      planName: best.planName,
      normalizedPrice: best.usd,
      cpuType: 'dedicated',
    });
    expect(r.equivalents[0].datacenters).toContain('New York');
  });

  it('"What is the cheapest ARM VPS?"', async () => {
    const arm = offers
      .filter((x: Json) => x.architecture === 'arm64')
      .map((x: Json) => ({ ...x, usd: usd(x.m2m, x.currency, 'USD') }))
      .sort(byPrice);
    expect(arm.length).toBeGreaterThan(0);
    const orderable = arm.filter((x: Json) => x.orderable !== false);
    // One call answers it: the cheapest ARM plan anyone can order, and how many cheaper-or-not ones nobody can.
    const r = data(await call('find_vps_plans', { architecture: 'arm64', limit: 1 }));
    expect(r.totalMatches).toBe(orderable.length);
    expect(r.leftOutUnorderable).toBe(arm.length - orderable.length);
    if (orderable.length > 0)
      expect(r.plans[0]).toMatchObject({
        providerId: orderable[0].providerId,
        planName: orderable[0].planName,
        normalizedPrice: orderable[0].usd,
        architecture: 'arm64',
      });
    else expect(r.plans).toEqual([]);
    // Asked to include them, the cheapest ARM plan of all, flagged when nobody can order it.
    const all = data(await call('find_vps_plans', { architecture: 'arm64', limit: 1, includeUnorderable: true }));
    expect(all.plans[0]).toMatchObject({
      providerId: arm[0].providerId,
      planName: arm[0].planName,
      normalizedPrice: arm[0].usd,
      architecture: 'arm64',
      ...(arm[0].orderable === false ? { orderable: false } : {}),
    });
  });

  it('"Cheapest 4 GB server in Singapore?": a plan whose price there the data lacks is not ranked', async () => {
    // OVHcloud's notes: its Asia-Pacific and Canadian sites sell in their own currencies at prices not in the dataset.
    const ovh = rawProviders.providers.find((p: Json) => p.id === 'ovhcloud');
    expect(ovh.pricingNotes).toMatch(/Asia-Pacific sites in their own currencies, at prices not in the dataset/);
    const sold = offers.filter((x: Json) => x.ramGb >= 4 && x.cities.includes('Singapore'));
    const priced = sold
      .filter((x: Json) => x.factorAt('Singapore') !== null)
      .map((x: Json) => ({
        ...x,
        usd: usd(Math.round(x.m2m * x.factorAt('Singapore') * 100) / 100, x.currency, 'USD'),
      }))
      .sort(byPrice);
    const r = data(await call('find_vps_plans', { location: 'Singapore', minRamGb: 4, limit: 1 }));
    expect(r.plans[0]).toMatchObject({
      providerId: priced[0].providerId,
      planName: priced[0].planName,
      normalizedPrice: priced[0].usd,
    });
    expect(r.totalMatches).toBe(priced.length);
    expect(r.plans[0].providerId).not.toBe('ovhcloud');
    const ovhUnpriced = r.priceUnknownAtLocation.find((u: Json) => u.providerId === 'ovhcloud');
    expect(ovhUnpriced).toMatchObject({
      datacenters: ['Singapore'],
      note: expect.stringMatching(/not in the dataset/),
    });
    expect(ovhUnpriced.plans).toBe(sold.filter((x: Json) => x.providerId === 'ovhcloud').length);
  });

  it('"What does a Hostinger KVM 2 cost with daily backups?": the bill is withheld, not too low', async () => {
    const backups = rawProviders.providers.find((p: Json) => p.id === 'hostinger').addOns.backups;
    // Included backups are weekly; daily ones are a paid upgrade whose price the data does not have.
    expect(backups).toMatchObject({ status: 'included', frequency: 'weekly' });
    expect(backups.otherFrequencies).toEqual([
      expect.objectContaining({ frequency: 'daily', percentOfPlanPrice: null, pricePerMonth: null }),
    ]);
    const r = data(
      await call('estimate_monthly_cost', {
        providerId: 'hostinger',
        planName: 'KVM 2',
        country: 'DE',
        backups: 'daily',
      }),
    );
    expect(r.known).toBe(false);
    expect(r.totalOverHorizon).toBeUndefined();
    expect(r.recurringTotalOverHorizon).toBeUndefined();
    expect(r.lineItems.find((i: Json) => i.item === 'backups')).toEqual({
      item: 'backups',
      known: false,
      reason: backups.otherFrequencies[0].unknownReason,
    });
    expect(r.unknownItems.map((u: Json) => u.item)).toContain('backups');
    // Weekly backups, the included ones, cost nothing extra.
    const weekly = data(
      await call('estimate_monthly_cost', {
        providerId: 'hostinger',
        planName: 'KVM 2',
        country: 'DE',
        backups: 'weekly',
      }),
    );
    expect(weekly.lineItems.find((i: Json) => i.item === 'backups')).toMatchObject({ known: true, amount: 0 });
  });

  it('"What does a CX33 cost my business a month?" (no country given)', async () => {
    const cx33 = offers.find((x: Json) => x.providerId === 'hetzner' && x.planName === 'CX33');
    const r = data(await call('estimate_monthly_cost', { providerId: 'hetzner', planName: 'CX33', business: true }));
    expect(r.taxIncluded).toBe(false);
    expect(r.known).toBe(true);
    expect(r.periods[0].monthlyAmount).toBe(usd(cx33.m2m, cx33.currency, 'USD'));
    expect(r.assumptions.join(' ')).toMatch(/before VAT or sales tax/);
  });

  it('"Which provider has the best SLA?"', async () => {
    // The SLA as a number where the data states a percentage; "unknown" and "no published SLA" rank last.
    const percent = (uptime: string) => (/^\d+(\.\d+)?%$/.test(uptime) ? Number(uptime.slice(0, -1)) : -1);
    const best = Math.max(...rawProviders.providers.map((p: Json) => percent(p.uptime)));
    const r = data(await call('list_vps_providers', { responseFormat: 'concise' }));
    const answered = r.providers.map((p: Json) => ({ id: p.id, uptime: p.uptime }));
    expect(answered).toEqual(
      expect.arrayContaining(rawProviders.providers.map((p: Json) => ({ id: p.id, uptime: p.uptime }))),
    );
    const top = answered.filter((p: Json) => percent(p.uptime) === best).map((p: Json) => p.id);
    expect(top).toEqual(rawProviders.providers.filter((p: Json) => percent(p.uptime) === best).map((p: Json) => p.id));
    expect(top.length).toBeGreaterThan(0);
  });

  it('"How old are the prices?"', async () => {
    const plans = rawProviders.providers.flatMap((p: Json) =>
      p.plans.map((plan: Json) =>
        priceAgeOf(
          plan,
          p.planLines.find((l: Json) => l.id === plan.line),
          rawMeta.version,
        ),
      ),
    );
    const r = data(await call('describe_filters', {}));
    const age = priceAgeSummaryOf(plans);
    // In words: the dates the prices were seen and how many are stale today, never the release date.
    const lastPriceCheck = `prices seen between ${age.oldestObservedAt} and ${age.newestObservedAt}; ${age.stalePrices} of ${plans.length} stale on ${rawMeta.version} (seen more than ${STALE_DAYS} days earlier, or before a reported price change)`;
    expect(r.dataset).toMatchObject({
      version: rawMeta.version,
      lastPriceCheck,
      priceAge: { ...age, staleAfterDays: STALE_DAYS },
    });
    expect(r.dataset.license.name).toBe('CC BY 4.0');
  });
});
