import { readFileSync } from 'node:fs';
import { figures, pricedPlanOf, toCurrencyWith, transferTbOf } from './support/independent-figures.js';
import { mcpSuite } from './support/mcp-tool-caller.js';
import { rawProviders } from './support/raw-data.js';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// Where each plan is sold and what it costs there, read from the raw files as data/README.md
// describes them: a line without its own `datacenters` is sold in every data centre of its provider;
// a city in one of the line's `regionalPrices` costs the listed price times its factor (null: unknown).
const rates = JSON.parse(readFileSync('data/exchange-rates.json', 'utf8'));
const toCurrency = toCurrencyWith(rates);
const cents = (n: number) => Math.round(n * 100) / 100;
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const plans = rawProviders.providers.flatMap((p: Json) =>
  p.plans.map((plan: Json) => {
    const line = p.planLines.find((l: Json) => l.id === plan.line);
    const sold = p.datacenters.filter((d: Json) => !line.datacenters || line.datacenters.includes(d.city));
    const factorAt = (city: string) =>
      line.regionalPrices?.find((r: Json) => r.datacenters.includes(city))?.priceFactor ??
      (line.regionalPrices?.some((r: Json) => r.datacenters.includes(city)) ? null : 1);
    const { monthToMonthPrice: m2m, discontinued, observedAt, stale } = pricedPlanOf(p, plan);
    // Listed by the provider but read as not orderable: never a match unless asked for, like a discontinued plan.
    const unorderable = !discontinued && plan.availability?.orderable === false;
    return {
      providerId: p.id,
      planName: plan.name,
      currency: plan.currency,
      line: line.id,
      sold,
      factorAt,
      m2m,
      discontinued,
      unorderable,
      observedAt,
      stale,
      ...figures(plan),
    };
  }),
);
const byPrice = (a: Json, b: Json) =>
  a.price - b.price || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName);
const CITIES = [...new Set(rawProviders.providers.flatMap((p: Json) => p.datacenters.map((d: Json) => d.city)))];
const COUNTRIES = [
  ...new Set(rawProviders.providers.flatMap((p: Json) => p.datacenters.map((d: Json) => d.country))),
].sort();

/** Plans sold at `where` (a city or a country) with no commitment, priced there: the known ones, and those whose price there is unknown. */
function soldAt(where: { city?: string; country?: string }, currency: string) {
  const known: Json[] = [];
  const unknown: Json[] = [];
  // Plans of a discontinued line, or not orderable, are never matches (nor counted as unpriced) unless asked for.
  for (const plan of plans.filter((x: Json) => x.m2m !== null && !x.discontinued && !x.unorderable)) {
    const places = plan.sold.filter(
      (d: Json) => (!where.city || d.city === where.city) && (!where.country || d.country === where.country),
    );
    if (places.length === 0) continue;
    const factors = places.map((d: Json) => plan.factorAt(d.city)).filter((f: number | null) => f !== null);
    if (factors.length === 0) unknown.push(plan);
    else {
      const factor = Math.min(...factors);
      known.push({ ...plan, factor, price: toCurrency(cents(plan.m2m * factor), plan.currency, currency) });
    }
  }
  return { known: known.sort(byPrice), unknown };
}

// One app and MCP client for every describe of this file (read-only calls).
const { call, data, errorText } = mcpSuite();

describe('find_vps_plans by location', () => {
  it('finds the plans sold in a city at the price there, whatever the case and accents, and echoes the city as the data spells it', async () => {
    const { known, unknown } = soldAt({ city: 'São Paulo' }, 'USD');
    expect(known.some((x: Json) => x.factor !== 1)).toBe(true); // the case this test is about: regional prices
    const r = data(await call('find_vps_plans', { location: 'sao PAULO', limit: 50, responseFormat: 'detailed' }));
    expect(r.filters).toEqual({
      location: 'São Paulo',
      currency: 'USD',
      includeCommitments: false,
      includeDiscontinued: false,
      includeUnorderable: false,
      limit: 50,
    });
    expect(r.totalMatches).toBe(known.length);
    expect(r.plans.map((p: Json) => [p.providerId, p.planName, p.normalizedPrice, p.regionalPriceFactor ?? 1])).toEqual(
      known.slice(0, 50).map((x: Json) => [x.providerId, x.planName, x.price, x.factor]),
    );
    for (const p of r.plans) expect(p.datacenters).toEqual(['São Paulo']);
    expect(r.priceUnknownAtLocation.reduce((n: number, u: Json) => n + u.plans, 0)).toBe(unknown.length);
  });

  it('finds the plans sold in a country, leaves out a line not sold there, and lists those whose price there is not in the dataset', async () => {
    const { known, unknown } = soldAt({ country: 'US' }, 'EUR');
    const r = data(
      await call('find_vps_plans', {
        country: 'us',
        minRamGb: 2,
        currency: 'eur',
        limit: 50,
        responseFormat: 'detailed',
      }),
    );
    const expected = known.filter((x: Json) => x.ramGb >= 2);
    expect(r.filters).toEqual({
      minRamGb: 2,
      country: 'US',
      currency: 'EUR',
      includeCommitments: false,
      includeDiscontinued: false,
      includeUnorderable: false,
      limit: 50,
    });
    expect(r.totalMatches).toBe(expected.length);
    expect(r.plans.map((p: Json) => [p.providerId, p.planName, p.normalizedPrice])).toEqual(
      expected.slice(0, 50).map((x: Json) => [x.providerId, x.planName, x.price]),
    );
    // Hetzner's CX line is sold only in Germany and Finland; its CCX line in Ashburn and Hillsboro at prices not in the dataset.
    expect(r.plans.some((p: Json) => p.providerId === 'hetzner')).toBe(false);
    const unpriced = unknown.filter((x: Json) => x.ramGb >= 2);
    expect(r.priceUnknownAtLocation.map((u: Json) => [u.providerId, u.line, u.plans])).toEqual(
      [...new Set(unpriced.map((x: Json) => `${x.providerId} ${x.line}`))].map((key) => [
        ...(key as string).split(' '),
        unpriced.filter((x: Json) => `${x.providerId} ${x.line}` === key).length,
      ]),
    );
    expect(r.priceUnknownAtLocation.find((u: Json) => u.providerId === 'hetzner')).toMatchObject({
      line: 'ccx',
      datacenters: ['Ashburn', 'Hillsboro'],
      note: expect.stringMatching(/not in the dataset/),
    });
  });

  /**
   * Every plan still sold with its misses for a RAM minimum, a disk type and a USD budget, read from the
   * raw figures, ranked by how many it misses, then by the share missing, then by price.
   */
  function rankedMisses(args: { minRamGb: number; maxMonthlyPrice: number; storageType?: string }) {
    const { minRamGb: ram, maxMonthlyPrice: budget, storageType } = args;
    return plans
      .map((x: Json) => {
        const price = toCurrency(x.m2m ?? 0, x.currency, 'USD');
        const misses = [
          ...(x.ramGb < ram
            ? [
                {
                  constraint: 'minRamGb',
                  required: ram,
                  actual: x.ramGb,
                  by: cents(ram - x.ramGb),
                  byPercent: Math.round(((ram - x.ramGb) / ram) * 1000) / 10,
                },
              ]
            : []),
          ...(storageType && x.storageType !== storageType
            ? [{ constraint: 'storageType', required: storageType, actual: x.storageType }]
            : []),
          ...(x.m2m === null ? [{ constraint: 'noCommitment' }] : []),
          ...(x.m2m !== null && price > budget
            ? [
                {
                  constraint: 'maxMonthlyPrice',
                  required: budget,
                  actual: price,
                  by: cents(price - budget),
                  byPercent: Math.round(((price - budget) / budget) * 1000) / 10,
                },
              ]
            : []),
        ];
        const distance = misses.reduce(
          (s: number, m: Json) => s + (m.byPercent === undefined ? 1 : m.byPercent / 100),
          0,
        );
        return { ...x, price, misses, distance };
      })
      .filter((x: Json) => x.m2m !== null && !x.discontinued && !x.unorderable)
      .sort((a: Json, b: Json) => a.misses.length - b.misses.length || a.distance - b.distance || byPrice(a, b));
  }
  const onlyOverBudget = (x: Json) => x.misses.length === 1 && x.misses[0].constraint === 'maxMonthlyPrice';
  const withinBudget = (x: Json) => !x.misses.some((m: Json) => m.constraint === 'maxMonthlyPrice');
  const shown = (c: Json) => [c.providerId, c.planName, c.normalizedPrice, c.observedAt, c.stale];

  it('answers an empty search with the closest plans and each constraint they miss, by how much: above the budget first, then within it', async () => {
    const args = { minRamGb: 64, maxMonthlyPrice: 20, storageType: 'SSD' };
    const r = data(await call('find_vps_plans', { ...args, storageType: 'ssd' }));
    expect([r.plans, r.totalMatches]).toEqual([[], 0]);
    const ranked = rankedMisses(args);
    // Three places (half of five, rounded up) for the cheapest plans that miss only the budget, two for the closest within it.
    const expected = [...ranked.filter(onlyOverBudget).slice(0, 3), ...ranked.filter(withinBudget).slice(0, 2)];
    expect(expected).toHaveLength(5);
    expect(r.closestMatches.map(shown)).toEqual(
      expected.map((x: Json) => [x.providerId, x.planName, x.price, x.observedAt, x.stale]),
    );
    for (const [i, c] of r.closestMatches.entries()) expect(c.misses).toEqual(expected[i].misses);
    expect(r.beyondDataset).toBeUndefined();
  });

  it('offers both ways out of "16 GB under $5": the cheapest 16 GB plans above the budget, with how much more, and the plans within it with what they lack', async () => {
    const args = { minRamGb: 16, maxMonthlyPrice: 5 };
    const r = data(await call('find_vps_plans', args));
    expect(r.totalMatches).toBe(0);
    const ranked = rankedMisses(args);
    const over = ranked.filter(onlyOverBudget);
    const within = ranked.filter(withinBudget);
    // The case this test is about: every RAM shortfall within the budget is a smaller share than the cheapest 16 GB plan's overshoot.
    expect(within[0].distance).toBeLessThan(over[0].distance);
    expect(r.closestMatches.map(shown)).toEqual(
      [...over.slice(0, 3), ...within.slice(0, 2)].map((x: Json) => [
        x.providerId,
        x.planName,
        x.price,
        x.observedAt,
        x.stale,
      ]),
    );
    const cheapest16 = r.closestMatches[0];
    expect(cheapest16.ramGb).toBeGreaterThanOrEqual(16);
    expect(cheapest16.misses).toEqual([
      {
        constraint: 'maxMonthlyPrice',
        required: 5,
        actual: over[0].price,
        by: cents(over[0].price - 5),
        byPercent: expect.any(Number),
      },
    ]);
    for (const c of r.closestMatches.slice(3)) {
      expect(c.normalizedPrice).toBeLessThanOrEqual(5);
      expect(c.misses.map((m: Json) => m.constraint)).toContain('minRamGb');
    }
  });

  it('with limit 1 shows the cheapest plan meeting everything above the budget', async () => {
    const args = { minRamGb: 16, maxMonthlyPrice: 5 };
    const r = data(await call('find_vps_plans', { ...args, limit: 1 }));
    expect(r.closestMatches.map(shown)).toEqual(
      rankedMisses(args)
        .filter(onlyOverBudget)
        .slice(0, 1)
        .map((x: Json) => [x.providerId, x.planName, x.price, x.observedAt, x.stale]),
    );
  });

  it('says the largest figures the dataset has when a minimum is beyond every plan still sold', async () => {
    const sold = plans.filter((x: Json) => !x.discontinued);
    const raw = rawProviders.providers.flatMap((p: Json) =>
      p.plans.filter((plan: Json) => !pricedPlanOf(p, plan).discontinued),
    );
    const largest = {
      vcpus: Math.max(...sold.map((x: Json) => x.vcpus)),
      ramGb: Math.max(...sold.map((x: Json) => x.ramGb)),
      storageGb: Math.max(...sold.map((x: Json) => x.storageGb)),
      transferTb: Math.max(
        ...raw
          .map((plan: Json) => transferTbOf(plan.bandwidth))
          .filter((tb: number | null) => tb !== null && tb !== Infinity),
      ),
      unmeteredTransfer: raw.some((plan: Json) => transferTbOf(plan.bandwidth) === Infinity),
    };
    const r = data(await call('find_vps_plans', { minRamGb: 4096, minVcpus: 2, maxMonthlyPrice: 5 }));
    expect(r.totalMatches).toBe(0);
    expect(r.beyondDataset).toEqual({
      misses: [{ constraint: 'minRamGb', required: 4096, largest: largest.ramGb }],
      largest,
    });
    const both = data(await call('find_vps_plans', { minRamGb: 4096, minStorageGb: largest.storageGb + 1 }));
    expect(both.beyondDataset.misses).toEqual([
      { constraint: 'minRamGb', required: 4096, largest: largest.ramGb },
      { constraint: 'minStorageGb', required: largest.storageGb + 1, largest: largest.storageGb },
    ]);
    // Within the dataset's figures, an empty answer has no such field.
    expect(
      data(await call('find_vps_plans', { minRamGb: largest.ramGb, maxMonthlyPrice: 1 })).beyondDataset,
    ).toBeUndefined();
  });

  it('names a location a plan line is not sold in as the constraint it misses, with where it is sold', async () => {
    // A budget CPX22 meets, so that the location is the one constraint it misses.
    const cpx22 = rawProviders.providers
      .find((p: Json) => p.id === 'hetzner')
      .plans.find((p: Json) => p.name === 'CPX22');
    const r = data(
      await call('find_vps_plans', {
        location: 'Ashburn',
        providers: ['hetzner'],
        maxMonthlyPrice: cpx22.price,
        currency: 'EUR',
      }),
    );
    expect(r.plans).toEqual([]);
    const cpx = r.closestMatches.find((c: Json) => c.planName === 'CPX22');
    const cpxLine = rawProviders.providers
      .find((p: Json) => p.id === 'hetzner')
      .planLines.find((l: Json) => l.id === cpx22.line);
    expect(cpx.misses).toEqual([{ constraint: 'location', required: 'Ashburn', actual: cpxLine.datacenters }]);
  });

  it('counts a plan sold there with a commitment only, as without a location', async () => {
    const r = data(await call('find_vps_plans', { country: 'LT', providers: ['hostinger'] }));
    const hostinger = plans.filter(
      (x: Json) => x.providerId === 'hostinger' && x.sold.some((d: Json) => d.country === 'LT'),
    );
    expect(hostinger.length).toBeGreaterThan(0);
    expect(r.leftOutNeedingCommitment).toBe(hostinger.filter((x: Json) => x.m2m === null).length);
    expect(r.closestMatches[0].misses).toEqual([
      { constraint: 'noCommitment', required: 'sold month to month', actual: 'prepaid-term (24 months)' },
    ]);
  });

  it('echoes the filters it applied, normalized', async () => {
    const r = data(
      await call('find_vps_plans', {
        minRamGb: 4,
        storageType: 'nvme',
        providers: ['hetzner', 'hetzner'],
        country: 'de',
        currency: 'eur',
        includeCommitments: true,
        limit: 3,
      }),
    );
    expect(r.filters).toEqual({
      minRamGb: 4,
      storageType: 'NVMe',
      providers: ['hetzner'],
      country: 'DE',
      currency: 'EUR',
      includeCommitments: true,
      includeDiscontinued: false,
      includeUnorderable: false,
      limit: 3,
    });
  });

  it('answers an unknown country with an isError listing the countries with a data centre', async () => {
    expect(errorText(await call('find_vps_plans', { country: 'XX' }))).toContain(COUNTRIES.join(', '));
  });

  it('answers an unknown city with an isError listing every city', async () => {
    const text = errorText(await call('find_vps_plans', { location: 'Atlantis' }));
    for (const city of CITIES) expect(text).toContain(city as string);
    expect(text).toContain('describe_filters');
  });

  it('answers a city outside the country given with an isError', async () => {
    expect(errorText(await call('find_vps_plans', { location: 'London', country: 'DE' }))).toMatch(
      /London is in GB, not DE/,
    );
  });

  it('matches cities by folding case and accents only', async () => {
    expect(CITIES.find((c) => fold(c as string) === fold('dusseldorf'))).toBe('Düsseldorf');
    expect(data(await call('find_vps_plans', { location: 'DUSSELDORF' })).filters.location).toBe('Düsseldorf');
    expect(errorText(await call('find_vps_plans', { location: 'Dusseldorff' }))).toMatch(/Dusseldorff/);
  });
});

describe('find_vps_plans by monthly transfer', () => {
  const withTransfer = plans.map((x: Json) => {
    const raw = rawProviders.providers
      .find((p: Json) => p.id === x.providerId)
      .plans.find((p: Json) => p.name === x.planName);
    return { ...x, tb: transferTbOf(raw.bandwidth) };
  });

  it('matches a plan that includes at least the volume, or whose traffic is unmetered, and shows the allowance in a concise answer', async () => {
    for (const minTransferTb of [0.5, 3, 12]) {
      const expected = withTransfer.filter(
        (x: Json) => x.m2m !== null && !x.discontinued && !x.unorderable && x.tb !== null && x.tb >= minTransferTb,
      );
      const result = data(await call('find_vps_plans', { minTransferTb, limit: 50 }));
      expect(result.filters.minTransferTb).toBe(minTransferTb);
      expect(result.totalMatches).toBe(expected.length);
      for (const p of result.plans) {
        const x = withTransfer.find((y: Json) => y.providerId === p.providerId && y.planName === p.planName);
        expect(x.tb).toBeGreaterThanOrEqual(minTransferTb);
        expect(p.unmetered).toBe(x.tb === Infinity);
        expect(p.bandwidthTb).toBe(x.tb === Infinity ? null : x.tb);
      }
      expect(result.leftOutTransferUnknown).toBe(0);
    }
  });

  it('does not count an allowance the provider does not state as meeting a need, and says so', async () => {
    const unstated = withTransfer.filter((x: Json) => x.m2m !== null && x.tb === null);
    expect(unstated.length).toBeGreaterThan(0); // UpCloud's discontinued lines: "Fair-use allowance"
    const result = data(await call('find_vps_plans', { minTransferTb: 0.001, includeDiscontinued: true, limit: 50 }));
    const listed = new Set(result.plans.map((p: Json) => `${p.providerId}/${p.planName}`));
    for (const x of unstated) expect(listed).not.toContain(`${x.providerId}/${x.planName}`);
    expect(result.leftOutTransferUnknown).toBe(unstated.length);
    expect(result.transferNote).toContain(`${unstated.length} plans`);
    expect(result.transferNote).toContain('not counted');
  });

  it('names transfer as the constraint a plan misses, by how much, when nothing matches', async () => {
    const most = Math.max(
      ...withTransfer.filter((x: Json) => x.tb !== Infinity && x.tb !== null && !x.discontinued).map((x: Json) => x.tb),
    );
    const result = data(await call('find_vps_plans', { minTransferTb: 1, maxMonthlyPrice: 0.01 }));
    expect(result.totalMatches).toBe(0);
    const tooMuch = data(await call('find_vps_plans', { minTransferTb: most + 1, providers: ['vultr'] }));
    expect(tooMuch.totalMatches).toBe(0);
    expect(tooMuch.closestMatches[0].misses).toEqual([
      expect.objectContaining({ constraint: 'minTransferTb', required: most + 1 }),
    ]);
  });

  it.each([[0], [-1], ['3']])('refuses minTransferTb %j with a clear error', async (minTransferTb) => {
    expect(errorText(await call('find_vps_plans', { minTransferTb }))).toMatch(/minTransferTb/);
  });
});
