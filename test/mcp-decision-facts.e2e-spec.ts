import { figures, pricedPlanOf, toCurrencyWith } from './support/independent-figures';
import { mcpSuite } from './support/mcp-tool-caller';
import { rawExchangeRates, rawProviders } from './support/raw-data';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const usd = toCurrencyWith(rawExchangeRates);
// Every plan still sold with no commitment, read from the raw files: figures, CPU type, the USD price, and where its line is sold.
const sold = rawProviders.providers.flatMap((p: Json) =>
  p.plans
    .map((plan: Json) => ({
      plan,
      priced: pricedPlanOf(p, plan),
      line: p.planLines.find((l: Json) => l.id === plan.line),
    }))
    .filter(({ priced }: Json) => !priced.discontinued && priced.monthToMonthPrice !== null)
    .map(({ plan, priced, line }: Json) => ({
      providerId: p.id,
      planName: plan.name,
      cpuType: plan.cpuType,
      usd: usd(priced.monthToMonthPrice, plan.currency, 'USD'),
      m2m: priced.monthToMonthPrice,
      currency: plan.currency,
      line: plan.line,
      cities: p.datacenters
        .filter((d: Json) => !line.datacenters || line.datacenters.includes(d.city))
        .map((d: Json) => d.city),
      allCities: !line.datacenters,
      ...figures(plan),
    })),
);
const byPrice = (a: Json, b: Json) =>
  a.usd - b.usd || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName);

// One app and SDK client for the three describes: every test only calls tools, which read.
const { call, data, errorText } = mcpSuite();

describe('MCP answers carry the facts that change the decision', () => {
  describe('CPU type in find_vps_plans', () => {
    it('answers the cheapest 8 GB dedicated-CPU plan in one call, and every plan says its CPU type, concise too', async () => {
      const expected = sold.filter((x: Json) => x.ramGb >= 8 && x.cpuType === 'dedicated').sort(byPrice);
      expect(expected.length).toBeGreaterThan(3);
      const r = data(await call('find_vps_plans', { minRamGb: 8, cpuType: 'Dedicated', limit: 3 }));
      expect(r.filters.cpuType).toBe('dedicated');
      expect(r.totalMatches).toBe(expected.length);
      expect(r.plans.map((p: Json) => [p.providerId, p.planName, p.normalizedPrice, p.cpuType])).toEqual(
        expected.slice(0, 3).map((x: Json) => [x.providerId, x.planName, x.usd, 'dedicated']),
      );
      // Without the filter, each plan's CPU type is the raw file's.
      const all = data(await call('find_vps_plans', { limit: 50 }));
      for (const p of all.plans)
        expect(p.cpuType).toBe(
          sold.find((x: Json) => x.providerId === p.providerId && x.planName === p.planName).cpuType,
        );
      expect(new Set(all.plans.map((p: Json) => p.cpuType))).toEqual(new Set(['shared', 'dedicated']));
    });

    it('says what the closest plans miss when no dedicated plan fits, and refuses a CPU type it does not know', async () => {
      const r = data(await call('find_vps_plans', { cpuType: 'dedicated', maxMonthlyPrice: 1 }));
      expect(r.totalMatches).toBe(0);
      for (const c of r.closestMatches) expect(['shared', 'dedicated']).toContain(c.cpuType);
      expect(errorText(await call('find_vps_plans', { cpuType: 'burstable' }))).toMatch(/cpuType/);
    });
  });
});

describe('find_equivalent_plans never offers a downgrade as an equal, nor a plan not sold where the user is', () => {
  const factorAt = (x: Json, city: string) => {
    const line = rawProviders.providers
      .find((p: Json) => p.id === x.providerId)
      .planLines.find((l: Json) => l.id === x.line);
    const regional = line.regionalPrices?.find((r: Json) => r.datacenters.includes(city));
    return regional ? regional.priceFactor : 1;
  };

  it('answers an equivalent of Linode Dedicated 8 GB sold in New York in one call: dedicated plans sold there, shared ones apart as lower', async () => {
    const ref = sold.find((x: Json) => x.providerId === 'linode' && x.planName === 'Dedicated 8 GB');
    expect(ref.cpuType).toBe('dedicated');
    const meets = (x: Json) =>
      x.providerId !== 'linode' &&
      x.vcpus >= ref.vcpus &&
      x.ramGb >= ref.ramGb &&
      x.storageGb >= ref.storageGb &&
      x.cities.includes('New York');
    // The price in New York: the listed no-commitment price times the line's factor there (null: not in the data, left out).
    const inNewYork = (x: Json) => ({
      ...x,
      usd: usd(Math.round(x.m2m * factorAt(x, 'New York') * 100) / 100, x.currency, 'USD'),
    });
    const there = sold.filter((x: Json) => meets(x) && factorAt(x, 'New York') !== null).map(inNewYork);
    const expected = there.filter((x: Json) => x.cpuType === 'dedicated').sort(byPrice);
    const shared = there.filter((x: Json) => x.cpuType === 'shared').sort(byPrice);
    expect(expected.length).toBeGreaterThan(0);
    expect(shared.length).toBeGreaterThan(0); // the case this test is about: cheaper shared plans exist there
    expect(shared[0].usd).toBeLessThan(expected[0].usd);

    const r = data(
      await call('find_equivalent_plans', { providerId: 'linode', planName: 'Dedicated 8 GB', location: 'new york' }),
    );
    expect(r.reference.cpuType).toBe('dedicated');
    expect(r.location).toEqual({ location: 'New York' });
    expect(r.totalMatches).toBe(expected.length);
    expect(r.equivalents.map((e: Json) => [e.providerId, e.planName, e.cpuType, e.normalizedPrice])).toEqual(
      expected.slice(0, 10).map((x: Json) => [x.providerId, x.planName, 'dedicated', x.usd]),
    );
    for (const e of r.equivalents) expect(e.datacenters).toContain('New York');
    expect(r.sharedCpuAlternatives.map((e: Json) => [e.planName, e.cpuType, e.normalizedPrice])).toEqual(
      shared.slice(0, 3).map((x: Json) => [x.planName, 'shared', x.usd]),
    );
    for (const e of r.sharedCpuAlternatives) {
      expect(e.lowerThanReference).toContain('cpuType');
      expect(e.reason).toMatch(/shared/i);
    }
    expect(r.sharedCpuLeftOut).toBe(shared.length);
  });

  it('lists no plan whose line is not sold in the city asked for, and says why and what to relax when nothing qualifies', async () => {
    const r = data(
      await call('find_equivalent_plans', {
        vcpus: 16,
        ramGb: 64,
        cpuType: 'dedicated',
        location: 'Honolulu',
        limit: 50,
      }),
    );
    const expected = sold.filter(
      (x: Json) =>
        x.vcpus >= 16 &&
        x.ramGb >= 64 &&
        x.cpuType === 'dedicated' &&
        x.cities.includes('Honolulu') &&
        factorAt(x, 'Honolulu') !== null,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(
      sold.some(
        (x: Json) => x.vcpus >= 16 && x.ramGb >= 64 && x.cpuType === 'dedicated' && !x.cities.includes('Honolulu'),
      ),
    ).toBe(true);
    expect(r.totalMatches).toBe(expected.length);
    const empty = data(
      await call('find_equivalent_plans', { vcpus: 64, ramGb: 512, cpuType: 'dedicated', country: 'FI' }),
    );
    expect(empty.totalMatches).toBe(0);
    expect(empty.equivalents).toEqual([]);
    expect(empty.emptyReason).toMatch(/^No plan .* dedicated vCPUs is sold month to month in FI\. To relax: /);
    const dedicatedInFi = sold.filter(
      (x: Json) =>
        x.cpuType === 'dedicated' &&
        rawProviders.providers
          .find((p: Json) => p.id === x.providerId)
          .datacenters.some((d: Json) => d.country === 'FI' && x.cities.includes(d.city)),
    );
    expect(empty.emptyReason).toContain(
      `the largest figures of such plans in FI are ${Math.max(...dedicatedInFi.map((x: Json) => x.vcpus))} vCPUs, ${Math.max(...dedicatedInFi.map((x: Json) => x.ramGb))} GB RAM`,
    );
  });
});

describe('concise answers name where each plan is sold', () => {
  // Where a plan's line is sold, as the data README says: the line's own datacenters, or every data centre of its provider.
  const whereSold = (providerId: string, planName: string) => {
    const p = rawProviders.providers.find((x: Json) => x.id === providerId);
    const line = p.planLines.find((l: Json) => l.id === p.plans.find((x: Json) => x.name === planName).line);
    const all = p.datacenters.map((d: Json) => d.city);
    return { all, cities: line.datacenters ? all.filter((c: string) => line.datacenters.includes(c)) : all };
  };
  /** The cities a `soldIn`/`notSoldIn` pair names. */
  const citiesOf = (x: Json, all: string[]) =>
    x.soldIn === 'all' ? all.filter((c) => !(x.notSoldIn ?? []).includes(c)) : x.soldIn;

  it('says, for the cheapest plans anywhere, the cities their line is sold in, or "all"', async () => {
    // Unorderable plans too: Hetzner's cheapest lines, sold in only some of its cities, are among them.
    const r = data(await call('find_vps_plans', { limit: 50, includeUnorderable: true }));
    expect(r.responseFormat).toBe('concise');
    const kinds = new Set<string>();
    for (const p of r.plans) {
      const { all, cities } = whereSold(p.providerId, p.planName);
      expect([p.planName, citiesOf(p, all).sort()]).toEqual([p.planName, [...cities].sort()]);
      kinds.add(p.soldIn === 'all' ? (p.notSoldIn ? 'all-but' : 'all') : 'list');
    }
    // The case this issue is about: the cheapest plans include lines sold in only some of the provider's cities.
    expect([...kinds].sort()).toEqual(['all', 'all-but', 'list']);
  });

  it('says where each equivalent is sold', async () => {
    const r = data(await call('find_equivalent_plans', { ramGb: 4, limit: 20 }));
    for (const e of r.equivalents) {
      const { all, cities } = whereSold(e.providerId, e.planName);
      expect(citiesOf(e, all).sort()).toEqual([...cities].sort());
    }
  });
});
