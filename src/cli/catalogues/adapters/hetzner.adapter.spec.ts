import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueClient } from '../catalogue-client.js';
import { CatalogueFormatError, type CatalogueContext, type CataloguePlan } from '../catalogue.js';
import type { Recording } from '../recording.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { HetznerCatalogue } from './hetzner.adapter.js';

// No recorded Hetzner answer could be found in a public copy (test/fixtures/catalogues/hetzner/README.md
// says where we looked), so this spec replays a catalogue written here in the shape the API documents.
// Every figure below is invented: none of them is a Hetzner price and none may reach the dataset.
const TIB = 1024 ** 4;
const price = (net: string) => ({ net, gross: (Number(net) * 1.19).toFixed(10) });
const entry = (location: string, monthly: string, hourly: string, traffic: number) => ({
  location,
  price_hourly: price(hourly),
  price_monthly: price(monthly),
  included_traffic: traffic,
  price_per_tb_traffic: price('1.1100000000'),
});
const at = (name: string, available = true, deprecation: object | null = null) => ({
  id: 0,
  name,
  deprecation,
  available,
  recommended: false,
});
const type = (
  name: string,
  cores: number,
  memory: number,
  disk: number,
  cpu: string,
  arch: string,
  locations: ReturnType<typeof at>[],
  deprecation: object | null = null,
) => ({
  id: 0,
  name,
  description: name.toUpperCase(),
  cores,
  memory,
  disk,
  deprecated: deprecation !== null,
  deprecation,
  storage_type: 'local',
  cpu_type: cpu,
  architecture: arch,
  category: 'invented',
  locations,
});
const RETIRING = { announced: '2025-10-16T06:00:00Z', unavailable_after: '2025-12-31T23:59:59Z' };
const NOW = new Date('2025-11-01T00:00:00Z');

const LOCATIONS = {
  locations: [
    { id: 1, name: 'fsn1', city: 'Falkenstein', country: 'DE', network_zone: 'eu-central' },
    { id: 2, name: 'nbg1', city: 'Nuremberg', country: 'DE', network_zone: 'eu-central' },
    { id: 3, name: 'hel1', city: 'Helsinki', country: 'FI', network_zone: 'eu-central' },
    { id: 4, name: 'ash', city: 'Ashburn, VA', country: 'US', network_zone: 'us-east' },
    { id: 5, name: 'hil', city: 'Hillsboro, OR', country: 'US', network_zone: 'us-west' },
    { id: 6, name: 'sin', city: 'Singapore', country: 'SG', network_zone: 'ap-southeast' },
    { id: 7, name: 'xyz1', city: 'Elsewhere', country: 'ZZ', network_zone: 'nowhere' },
  ],
  meta: { pagination: { page: 1, per_page: 50, previous_page: null, next_page: null, last_page: 1, total_entries: 7 } },
};
const SERVER_TYPES_PAGE_1 = {
  server_types: [
    type('cx22', 2, 4, 40, 'shared', 'x86', [at('fsn1', true, RETIRING), at('nbg1', true, RETIRING)], RETIRING),
    type('cx23', 2, 4, 40, 'shared', 'x86', [at('fsn1'), at('nbg1'), at('hel1', false)]),
    type('cax11', 2, 4, 40, 'shared', 'arm', [at('fsn1'), at('nbg1'), at('hel1')]),
    type('zz1', 8, 32, 240, 'dedicated', 'x86', [at('fsn1')]),
  ],
  meta: { pagination: { page: 1, per_page: 4, previous_page: null, next_page: 2, last_page: 2, total_entries: 7 } },
};
const SERVER_TYPES_PAGE_2 = {
  server_types: [
    type('cpx22', 2, 4, 80, 'shared', 'x86', [at('fsn1'), at('nbg1'), at('hel1'), at('sin')]),
    type('cpx11', 2, 2, 40, 'shared', 'x86', [at('ash'), at('hil')]),
    type('ccx13', 2, 8, 80, 'dedicated', 'x86', [at('fsn1'), at('nbg1'), at('hel1'), at('ash'), at('hil'), at('sin')]),
  ],
  meta: { pagination: { page: 2, per_page: 4, previous_page: 1, next_page: null, last_page: 2, total_entries: 7 } },
};
const eu = (monthly: string, hourly: string) =>
  ['fsn1', 'nbg1', 'hel1'].map((location) => entry(location, monthly, hourly, 20 * TIB));
const PRICING = {
  pricing: {
    currency: 'EUR',
    vat_rate: '19.00',
    image: { price_per_gb_month: price('0.0123000000') },
    server_backup: { percentage: '21.00' },
    primary_ips: [
      {
        type: 'ipv4',
        prices: ['fsn1', 'nbg1', 'hel1', 'ash', 'hil', 'sin'].map((location) => ({
          location,
          price_hourly: price('0.0010000000'),
          price_monthly: price(location === 'sin' ? '0.7000000000' : '0.6000000000'),
        })),
      },
      {
        type: 'ipv6',
        prices: [{ location: 'fsn1', price_hourly: price('0.0000000000'), price_monthly: price('0.0000000000') }],
      },
    ],
    server_types: [
      {
        id: 0,
        name: 'cx22',
        prices: [
          entry('fsn1', '1.0100000000', '0.0020000000', 20 * TIB),
          entry('nbg1', '1.0100000000', '0.0020000000', 20 * TIB),
        ],
      },
      { id: 0, name: 'cx23', prices: eu('1.2300000000', '0.0021000000') },
      { id: 0, name: 'cax11', prices: eu('1.4500000000', '0.0023000000') },
      { id: 0, name: 'zz1', prices: [entry('fsn1', '99.0000000000', '0.1500000000', 20 * TIB)] },
      {
        id: 0,
        name: 'cpx22',
        prices: [...eu('3.3300000000', '0.0055000000'), entry('sin', '7.7700000000', '0.0125000000', 0.5 * TIB)],
      },
      {
        id: 0,
        name: 'cpx11',
        prices: [entry('ash', '2.2200000000', '0.0036000000', TIB), entry('hil', '2.2200000000', '0.0036000000', TIB)],
      },
      {
        id: 0,
        name: 'ccx13',
        prices: [
          ...eu('9.9900000000', '0.0160000000'),
          entry('ash', '11.1100000000', '0.0180000000', TIB),
          entry('hil', '11.1100000000', '0.0180000000', TIB),
          entry('sin', '13.1300000000', '0.0210000000', 0.5 * TIB),
        ],
      },
    ],
  },
};

const RECORDING: Recording = {
  provider: 'hetzner',
  observedAt: '2025-11-01',
  retrievedAt: '2026-11-26',
  source: { url: 'synthetic:hetzner.adapter.spec.ts', copyOf: 'https://api.hetzner.cloud/v1/pricing' },
  answers: [
    { path: '/v1/locations', file: 'v1-locations.json' },
    { path: '/v1/server_types', query: { page: '1' }, file: 'v1-server_types-page-1.json' },
    { path: '/v1/server_types', query: { page: '2' }, file: 'v1-server_types-page-2.json' },
    { path: '/v1/pricing', file: 'v1-pricing.json' },
  ],
};

type RawType = (typeof SERVER_TYPES_PAGE_1.server_types)[number];
const rawTypes: RawType[] = [...SERVER_TYPES_PAGE_1.server_types, ...SERVER_TYPES_PAGE_2.server_types];
const rawPrices = (name: string) => PRICING.pricing.server_types.find((t) => t.name === name)!.prices;
const rawIpv4 = (location: string) => PRICING.pricing.primary_ips[0].prices.find((p) => p.location === location)!;
/** What the dataset quotes: the server's net price plus the primary IPv4 of the same location. */
const quoted = (name: string, location: string) =>
  Number(rawPrices(name).find((p) => p.location === location)!.price_monthly.net) +
  Number(rawIpv4(location).price_monthly.net);

describe(HetznerCatalogue.name, () => {
  let dir: string;
  let server: ReplayServer;
  let lines: string[];
  const adapter = new HetznerCatalogue({ now: () => NOW });
  const context = (credentials: Record<string, string> = { HCLOUD_TOKEN: 'replay-token' }): CatalogueContext => ({
    client: new CatalogueClient(server.baseUrlOf('hetzner'), { baseDelayMs: 1 }),
    credentials,
    log: (line) => lines.push(line),
  });
  const planOf = (plans: CataloguePlan[], id: string) => plans.find((plan) => plan.id === id)!;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hetzner-catalogue-'));
    await mkdir(join(dir, 'hetzner'));
    const files: Record<string, unknown> = {
      'recording.json': RECORDING,
      'v1-locations.json': LOCATIONS,
      'v1-server_types-page-1.json': SERVER_TYPES_PAGE_1,
      'v1-server_types-page-2.json': SERVER_TYPES_PAGE_2,
      'v1-pricing.json': PRICING,
    };
    for (const [file, body] of Object.entries(files))
      await writeFile(join(dir, 'hetzner', file), JSON.stringify(body, null, 2));
    server = await startReplayServer(dir, ['hetzner']);
  });

  beforeEach(() => {
    lines = [];
  });

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('maps every location to the dataset city, and a location the dataset lacks to null', async () => {
    const regions = await adapter.regions(context());

    expect(regions.map((region) => region.id)).toEqual(LOCATIONS.locations.map((location) => location.name));
    expect(regions.find((region) => region.id === 'ash')?.city).toBe('Ashburn');
    expect(regions.find((region) => region.id === 'hil')?.city).toBe('Hillsboro');
    expect(regions.find((region) => region.id === 'fsn1')?.city).toBe('Falkenstein');
    expect(regions.find((region) => region.id === 'xyz1')?.city).toBeNull();
    expect(lines).toContain(`hetzner: ${LOCATIONS.locations.length} locations read in 1 page`);
  });

  it('follows next_page to the last page and keeps only the CX, CAX, CPX and CCX types', async () => {
    const plans = await adapter.plans(context(), []);

    const inScope = rawTypes.filter((t) => /^(cx|cax|cpx|ccx)\d/.test(t.name));
    expect(plans.map((plan) => plan.id).sort()).toEqual(inScope.map((t) => t.name).sort());
    expect(plans.map((plan) => plan.id)).not.toContain('zz1');
    expect(server.served).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^hetzner \/v1\/server_types\?page=1&/),
        expect.stringMatching(/^hetzner \/v1\/server_types\?page=2&/),
      ]),
    );
    expect(lines[0]).toBe(
      `hetzner: ${rawTypes.length} server types read in 2 pages, ${inScope.length} in the lines cx, cax, cpx, ccx`,
    );
  });

  it('gives a size the specs of /v1/server_types and the Falkenstein price of /v1/pricing with its IPv4 address', async () => {
    const plan = planOf(await adapter.plans(context(), []), 'cx23');
    const raw = rawTypes.find((t) => t.name === 'cx23')!;
    const fsn1 = rawPrices('cx23').find((p) => p.location === 'fsn1')!;

    expect(plan).toMatchObject({
      name: 'CX23',
      line: 'cx',
      vcpus: raw.cores,
      ramGb: raw.memory,
      diskGb: raw.disk,
      diskType: 'NVMe',
      cpuType: 'shared',
      currency: 'EUR',
      billing: 'hourly-capped',
    });
    expect(plan.monthlyPrice).toBeCloseTo(quoted('cx23', 'fsn1'), 6);
    expect(plan.hourlyPrice).toBeCloseTo(Number(fsn1.price_hourly.net) + Number(rawIpv4('fsn1').price_hourly.net), 8);
    expect(plan.transferTb).toBeCloseTo(fsn1.included_traffic / 2 ** 40, 2);
    expect(plan.regionPrices).toEqual([]);
  });

  it("leaves out of a size's regions a location that says it is not available", async () => {
    const plan = planOf(await adapter.plans(context(), []), 'cx23');
    const raw = rawTypes.find((t) => t.name === 'cx23')!;

    expect(plan.regions).toEqual(raw.locations.filter((l) => l.available).map((l) => l.name));
    expect(plan.regions).not.toContain('hel1');
  });

  it('lists a region whose price differs from the headline with that price', async () => {
    const plans = await adapter.plans(context(), []);
    const ccx13 = planOf(plans, 'ccx13');
    const cpx22 = planOf(plans, 'cpx22');

    expect(cpx22.regionPrices).toEqual([
      { region: 'sin', monthlyPrice: expect.closeTo(quoted('cpx22', 'sin'), 6), hourlyPrice: expect.any(Number) },
    ]);
    expect(ccx13.regionPrices.map((p) => p.region).sort()).toEqual(['ash', 'hil', 'sin']);
    expect(ccx13.regionPrices.find((p) => p.region === 'ash')?.monthlyPrice).toBeCloseTo(quoted('ccx13', 'ash'), 6);
  });

  it('headlines a size sold only outside Germany and Finland at its cheapest location', async () => {
    const cpx11 = planOf(await adapter.plans(context(), []), 'cpx11');

    expect(cpx11.monthlyPrice).toBeCloseTo(Math.min(quoted('cpx11', 'ash'), quoted('cpx11', 'hil')), 6);
    expect(cpx11.regions).toEqual(['ash', 'hil']);
    expect(cpx11.transferTb).toBeCloseTo(TIB / 2 ** 40, 2);
  });

  it('marks a size with a deprecation deprecated and keeps it orderable until its unavailable_after date', async () => {
    const cx22 = planOf(await adapter.plans(context(), []), 'cx22');
    const later = await new HetznerCatalogue({
      now: () => new Date(Date.parse(RETIRING.unavailable_after) + 1000),
    }).plans(context(), []);

    expect(cx22.deprecated).toBe(true);
    expect(cx22.regions).toEqual(['fsn1', 'nbg1']);
    expect(planOf(later, 'cx22').regions).toEqual([]);
    expect(planOf(later, 'cx23').deprecated).toBe(false);
  });

  it('sorts plans by the dataset line order, then by price', async () => {
    const plans = await adapter.plans(context(), []);
    const order = ['cx', 'cax', 'cpx', 'ccx'];

    for (let i = 1; i < plans.length; i++) {
      const [a, b] = [plans[i - 1], plans[i]];
      expect(
        order.indexOf(a.line) < order.indexOf(b.line) || (a.line === b.line && a.monthlyPrice <= b.monthlyPrice),
      ).toBe(true);
    }
  });

  it('reads the IPv4, backup, snapshot and traffic prices as add-ons', async () => {
    const addOns = await adapter.addOns(context());

    expect(addOns).toEqual({
      ipv4PerMonth: Number(rawIpv4('fsn1').price_monthly.net),
      backupsPercentOfPlanPrice: Number(PRICING.pricing.server_backup.percentage),
      snapshotPerGbMonth: Number(PRICING.pricing.image.price_per_gb_month.net),
      trafficOverage: { price: Number(rawPrices('cx23')[0].price_per_tb_traffic.net), unit: 'TB' },
    });
  });

  it('throws a CatalogueFormatError for a server type list without server_types', async () => {
    server.inject({ provider: 'hetzner', path: '/v1/server_types', kind: 'body', body: '{}', times: 1 });

    await expect(adapter.plans(context(), [])).rejects.toThrow(CatalogueFormatError);
  });

  it('throws a CatalogueFormatError naming the size when /v1/pricing has no price for it', async () => {
    const withoutCx23 = {
      pricing: { ...PRICING.pricing, server_types: PRICING.pricing.server_types.filter((t) => t.name !== 'cx23') },
    };
    server.inject({
      provider: 'hetzner',
      path: '/v1/pricing',
      kind: 'body',
      body: JSON.stringify(withoutCx23),
      times: 1,
    });

    await expect(adapter.plans(context(), [])).rejects.toThrow(/cx23: no price in \/v1\/pricing/);
  });

  it('throws a CatalogueFormatError for a price list that is not an object with pricing', async () => {
    server.inject({ provider: 'hetzner', path: '/v1/pricing', kind: 'body', body: '{}', times: 1 });

    await expect(adapter.addOns(context())).rejects.toThrow(CatalogueFormatError);
  });

  it('throws a CatalogueFormatError when a page names a next page that goes backwards', async () => {
    server.inject({
      provider: 'hetzner',
      path: '/v1/locations',
      kind: 'body',
      body: JSON.stringify({ ...LOCATIONS, meta: { pagination: { page: 1, next_page: 1 } } }),
      times: 1,
    });

    await expect(adapter.regions(context())).rejects.toThrow(/names 1 as the next page/);
  });

  it('declares HCLOUD_TOKEN and refuses to read without it', async () => {
    expect(adapter.credentials).toEqual(['HCLOUD_TOKEN']);
    await expect(adapter.regions(context({}))).rejects.toThrow(/HCLOUD_TOKEN/);
  });
});
