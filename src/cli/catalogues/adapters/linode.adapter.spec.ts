import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueClient } from '../catalogue-client.js';
import { CatalogueFormatError, type CatalogueContext, type CataloguePlan } from '../catalogue.js';
import type { Recording } from '../recording.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { LinodeCatalogue } from './linode.adapter.js';

// The expectations are read from the recorded answers themselves, so the spec follows the fixture
// when a newer recording replaces it.
const FIXTURES = 'test/fixtures/catalogues';
const readFixture = <T>(file: string): T => JSON.parse(readFileSync(join(FIXTURES, 'linode', file), 'utf8')) as T;

interface RawPrice {
  hourly: number | null;
  monthly: number | null;
}
interface RawType {
  id: string;
  label: string;
  class: string;
  vcpus: number;
  memory: number;
  disk: number;
  transfer: number;
  price: RawPrice;
  region_prices: (RawPrice & { id: string })[];
  successor: string | null;
}
interface RawRegion {
  id: string;
  label: string;
  capabilities: string[];
  site_type: string;
}

const TYPES = readFixture<{ data: RawType[]; page: number; pages: number; results: number }>('v4-linode-types.json');
const REGIONS = readFixture<{ data: RawRegion[] }>('v4-regions.json');
const TRANSFER = readFixture<{ data: { id: string; price: RawPrice }[] }>('v4-network-transfer-prices.json');

const isShared = (t: RawType) => t.class === 'nanode' || t.class === 'standard';
const isDedicated = (t: RawType) => t.class === 'dedicated' && /^g[678]-dedicated-/.test(t.id);
const inLines = TYPES.data.filter((t) => isShared(t) || isDedicated(t));
const hourlyOnly = inLines.filter((t) => t.price.monthly === null);
const priced = inLines.filter((t) => t.price.monthly !== null);
const coreLinodeRegions = REGIONS.data
  .filter((r) => r.site_type === 'core' && r.capabilities.includes('Linodes'))
  .map((r) => r.id);
const raw = (id: string) => TYPES.data.find((t) => t.id === id)!;

describe(LinodeCatalogue.name, () => {
  let server: ReplayServer;
  let lines: string[];
  const adapter = new LinodeCatalogue();
  const context = (target: ReplayServer = server): CatalogueContext => ({
    client: new CatalogueClient(target.baseUrlOf('linode'), { baseDelayMs: 1 }),
    credentials: {},
    log: (line) => lines.push(line),
  });
  const planOf = (plans: CataloguePlan[], id: string) => plans.find((plan) => plan.id === id)!;

  beforeAll(async () => {
    server = await startReplayServer(FIXTURES, ['linode']);
  });

  beforeEach(() => {
    lines = [];
  });

  afterAll(async () => {
    await server?.close();
  });

  it('reads the public catalogue without any credential', async () => {
    expect(adapter.credentials).toEqual([]);

    await expect(adapter.plans(context())).resolves.not.toHaveLength(0);
  });

  it('maps every region to the dataset city, a second site to its city, and a city the dataset lacks to null', async () => {
    const regions = await adapter.regions(context());

    expect(regions.map((region) => region.id)).toEqual(REGIONS.data.map((region) => region.id));
    expect(regions.find((region) => region.id === 'us-east')?.city).toBe('Newark');
    expect(regions.find((region) => region.id === 'br-gru')?.city).toBe('São Paulo');
    expect(regions.find((region) => region.id === 'us-iad-2')?.city).toBe('Washington');
    expect(regions.find((region) => region.id === 'no-osl-1')?.city).toBeNull();
    expect(lines).toContain(`linode: ${REGIONS.data.length} regions read in 1 page`);
  });

  it('keeps every Nanode, Linode, G6 and G7 Dedicated size and leaves GPU, Premium, High Memory and accelerated types out', async () => {
    const plans = await adapter.plans(context());

    expect(plans.map((plan) => plan.id).sort()).toEqual(priced.map((t) => t.id).sort());
    const outOfScope = TYPES.data.filter((t) => !inLines.includes(t));
    expect(outOfScope.length).toBeGreaterThan(0);
    for (const type of outOfScope) expect(plans.map((plan) => plan.id)).not.toContain(type.id);
    expect(lines).toContain(
      `linode: ${TYPES.data.length} types read in 1 page, ${inLines.length} in the lines shared, dedicated`,
    );
  });

  it('names the sizes priced by the hour only instead of inventing a monthly price for them', async () => {
    const plans = await adapter.plans(context());

    expect(hourlyOnly.length).toBeGreaterThan(0);
    for (const type of hourlyOnly) expect(plans.map((plan) => plan.id)).not.toContain(type.id);
    expect(lines.find((line) => line.includes('priced by the hour only'))).toContain(
      hourlyOnly.map((t) => t.id).join(', '),
    );
  });

  it('gives a shared size the specs and core-region price the catalogue states, under the dataset name', async () => {
    const plan = planOf(await adapter.plans(context()), 'g6-standard-2');
    const type = raw('g6-standard-2');

    expect(plan).toMatchObject({
      name: `Linode ${type.memory / 1024} GB`,
      line: 'shared',
      vcpus: type.vcpus,
      ramGb: type.memory / 1024,
      diskGb: type.disk / 1024,
      diskType: 'SSD',
      transferTb: type.transfer / 1000,
      cpuType: 'shared',
      monthlyPrice: type.price.monthly,
      hourlyPrice: type.price.hourly,
      currency: 'USD',
      billing: 'hourly-capped',
      deprecated: false,
    });
    expect(plan.regions.sort()).toEqual([...coreLinodeRegions].sort());
  });

  it('names the Nanode and a G7 Dedicated size in the dataset style', async () => {
    const plans = await adapter.plans(context());
    const g7 = TYPES.data.find((t) => t.id.startsWith('g7-dedicated-') && t.price.monthly !== null)!;

    expect(planOf(plans, 'g6-nanode-1').name).toBe(`Nanode ${raw('g6-nanode-1').memory / 1024} GB`);
    expect(planOf(plans, 'g6-dedicated-2').name).toBe(`Dedicated ${raw('g6-dedicated-2').memory / 1024} GB`);
    expect(planOf(plans, g7.id)).toMatchObject({
      name: `G7 Dedicated ${g7.memory / 1024} GB`,
      line: 'dedicated',
      cpuType: 'dedicated',
      monthlyPrice: g7.price.monthly,
    });
  });

  it('lists Jakarta and São Paulo with the prices region_prices gives', async () => {
    const plan = planOf(await adapter.plans(context()), 'g6-nanode-1');
    const type = raw('g6-nanode-1');

    expect(plan.regionPrices).toHaveLength(type.region_prices.length);
    for (const entry of type.region_prices) {
      expect(plan.regionPrices).toContainEqual({
        region: entry.id,
        monthlyPrice: entry.monthly,
        hourlyPrice: entry.hourly,
      });
    }
  });

  it('sorts the plans by line, shared before dedicated, then by price', async () => {
    const plans = await adapter.plans(context());

    const order = plans.map((plan) => [plan.line === 'shared' ? 0 : 1, plan.monthlyPrice] as const);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(order).toEqual(sorted);
    expect(plans[0].id).toBe(priced.filter(isShared).sort((a, b) => a.price.monthly! - b.price.monthly!)[0].id);
  });

  it('reports the per-GB transfer overage of /v4/network-transfer/prices', async () => {
    const addOns = await adapter.addOns(context());

    expect(addOns).toEqual({
      trafficOverage: {
        price: TRANSFER.data.find((entry) => entry.id === 'network_transfer')!.price.hourly,
        unit: 'GB',
      },
    });
  });

  it('throws a CatalogueFormatError when the types answer has no data list', async () => {
    server.inject({ provider: 'linode', path: '/v4/linode/types', kind: 'body', body: '{}', times: 1 });

    await expect(adapter.plans(context())).rejects.toThrow(CatalogueFormatError);
  });

  it('throws a CatalogueFormatError naming a managed size that has no price', async () => {
    const { price: _dropped, ...unpriced } = raw('g6-standard-2');
    server.inject({
      provider: 'linode',
      path: '/v4/linode/types',
      kind: 'body',
      body: JSON.stringify({ data: [unpriced], page: 1, pages: 1, results: 1 }),
      times: 1,
    });

    await expect(adapter.plans(context())).rejects.toThrow(/g6-standard-2 has no monthly price/);
  });

  it('throws a CatalogueFormatError when no type is in the managed lines', async () => {
    const gpuOnly = TYPES.data.filter((t) => t.class === 'gpu');
    server.inject({
      provider: 'linode',
      path: '/v4/linode/types',
      kind: 'body',
      body: JSON.stringify({ data: gpuOnly, page: 1, pages: 1, results: gpuOnly.length }),
      times: 1,
    });

    await expect(adapter.plans(context())).rejects.toThrow(CatalogueFormatError);
  });

  describe('over a catalogue split into two pages', () => {
    let dir: string;
    let split: ReplayServer;
    const successorOf = { id: 'g6-dedicated-2', successor: 'g7-dedicated-4-2' };

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'linode-catalogue-'));
      await mkdir(join(dir, 'linode'));
      const half = Math.ceil(TYPES.data.length / 2);
      const data = TYPES.data.map((t) => (t.id === successorOf.id ? { ...t, successor: successorOf.successor } : t));
      const recording: Recording = {
        provider: 'linode',
        observedAt: '2026-09-17',
        retrievedAt: '2026-11-26',
        source: {
          url: 'derived:test/fixtures/catalogues/linode/v4-linode-types.json',
          copyOf: 'https://api.linode.com/v4/linode/types',
        },
        answers: [
          { path: '/v4/linode/types', query: { page: '1' }, file: 'types-1.json' },
          { path: '/v4/linode/types', query: { page: '2' }, file: 'types-2.json' },
          { path: '/v4/regions', query: { page: '1' }, file: 'regions.json' },
        ],
      };
      const files: Record<string, unknown> = {
        'recording.json': recording,
        'types-1.json': { data: data.slice(0, half), page: 1, pages: 2, results: data.length },
        'types-2.json': { data: data.slice(half), page: 2, pages: 2, results: data.length },
        'regions.json': REGIONS,
      };
      for (const [file, body] of Object.entries(files))
        await writeFile(join(dir, 'linode', file), JSON.stringify(body));
      split = await startReplayServer(dir, ['linode']);
    });

    afterAll(async () => {
      await split?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('reads every page up to the last one and keeps the entries of both', async () => {
      const plans = await adapter.plans(context(split));

      expect(split.served.filter((request) => request.startsWith('linode /v4/linode/types'))).toEqual([
        expect.stringMatching(/[?&]page=1(&|$)/),
        expect.stringMatching(/[?&]page=2(&|$)/),
      ]);
      expect(plans.map((plan) => plan.id).sort()).toEqual(priced.map((t) => t.id).sort());
      expect(lines).toContain(
        `linode: ${TYPES.data.length} types read in 2 pages, ${inLines.length} in the lines shared, dedicated`,
      );
    });

    it('marks a size with a successor as deprecated and names the successor', async () => {
      const plan = planOf(await adapter.plans(context(split)), successorOf.id);

      expect(plan).toMatchObject({ deprecated: true, successor: successorOf.successor });
    });
  });
});
