import { readFile, mkdtemp, rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { CatalogueClient } from '../catalogue-client.js';
import { CatalogueFormatError, type CatalogueContext } from '../catalogue.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { OvhcloudCatalogue } from './ovhcloud.adapter.js';

const FIXTURES = 'test/fixtures/catalogues';
const PATH = '/1.0/order/catalog/public/vps';

// The recorded answer, read as plain JSON so expectations come from the copy, not from the adapter.
interface RawPricing {
  capacities: string[];
  mode: string;
  commitment: number;
  interval: number;
  intervalUnit: string;
  price: number;
}
interface RawPlan {
  planCode: string;
  product?: string;
  pricings: RawPricing[];
  configurations?: { name: string; values: string[] }[];
  blobs?: { tags?: string[] } | null;
}
interface RawProduct {
  name: string;
  blobs?: {
    technical?: {
      cpu: { cores: number };
      memory: { size: number };
      storage: { disks: { capacity: number }[] };
      bandwidth: { level: number };
    };
  };
}
interface RawCatalogue {
  locale: { currencyCode: string };
  plans: RawPlan[];
  products: RawProduct[];
}

describe(OvhcloudCatalogue.name, () => {
  let server: ReplayServer;
  let raw: RawCatalogue;
  let answerFile: string;
  const lines: string[] = [];

  const contextFor = (srv: ReplayServer): CatalogueContext => ({
    client: new CatalogueClient(srv.baseUrlOf('ovhcloud'), { baseDelayMs: 1 }),
    credentials: {},
    log: (line) => lines.push(line),
  });
  const recordedAdapter = () => new OvhcloudCatalogue({ subsidiary: 'IT' });
  const rawPlan = (code: string) => raw.plans.find((plan) => plan.planCode === code)!;
  const rawProduct = (name: string) => raw.products.find((product) => product.name === name)!;
  const defaultMonthly = (plan: RawPlan) => {
    const pricing = plan.pricings.find(
      (p) => p.capacities.includes('renew') && p.mode === 'default' && p.commitment === 0,
    )!;
    return pricing.price / 1e8 / pricing.interval;
  };
  const datacenters = (plan: RawPlan) => plan.configurations?.find((c) => c.name === 'vps_datacenter')?.values ?? [];

  beforeAll(async () => {
    server = await startReplayServer(FIXTURES, ['ovhcloud']);
    answerFile = server.recordingOf('ovhcloud')!.answers[0].file;
    raw = JSON.parse(await readFile(join(FIXTURES, 'ovhcloud', answerFile), 'utf8')) as RawCatalogue;
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    lines.length = 0;
  });

  it('reads the catalogue once for all three steps and logs each step', async () => {
    const adapter = recordedAdapter();
    const ctx = contextFor(server);
    const before = server.served.length;
    const regions = await adapter.regions(ctx);
    await adapter.plans(ctx, regions);
    await adapter.addOns(ctx);
    const requests = server.served.slice(before);
    expect(requests).toEqual([`ovhcloud ${PATH}?ovhSubsidiary=IT`]);
    expect(lines.filter((line) => line.startsWith('ovhcloud: '))).toHaveLength(4);
  });

  it('maps every plan of the vps-<year>-model<n> ranges and leaves the older ranges out', async () => {
    const plans = await recordedAdapter().plans(contextFor(server), []);
    const inScope = raw.plans.map((plan) => plan.planCode).filter((code) => /^vps-\d{4}-model\d+/.test(code));
    expect(plans.map((plan) => plan.id).sort()).toEqual([...inScope].sort());
    const outOfScope = raw.plans.map((plan) => plan.planCode).filter((code) => !inScope.includes(code));
    expect(outOfScope.length).toBeGreaterThan(0);
    for (const code of outOfScope) expect(plans.find((plan) => plan.id === code)).toBeUndefined();
  });

  it('takes the headline price, specs and datacenters of a size from its plan and product as the catalogue states them', async () => {
    const plans = await recordedAdapter().plans(contextFor(server), []);
    const rawVps1 = rawPlan('vps-2027-model1');
    const product = rawProduct(rawVps1.product!).blobs!.technical!;
    const vps1 = plans.find((plan) => plan.id === 'vps-2027-model1')!;
    expect(vps1).toMatchObject({
      name: 'VPS-1 2027',
      line: 'vps',
      vcpus: product.cpu.cores,
      ramGb: product.memory.size,
      diskGb: product.storage.disks[0].capacity,
      diskType: 'NVMe',
      transferTb: null,
      transferText: `Unmetered (${product.bandwidth.level} Mbit/s)`,
      cpuType: 'shared',
      hourlyPrice: null,
      currency: raw.locale.currencyCode,
      billing: 'monthly',
      monthlyCapHours: null,
      deprecated: false,
      regionPrices: [],
    });
    expect(vps1.monthlyPrice).toBeCloseTo(defaultMonthly(rawVps1), 6);
    expect(vps1.regions).toEqual(datacenters(rawVps1));
  });

  it('ignores the 6- and 12-month commitment prices when choosing the headline price', async () => {
    const plans = await recordedAdapter().plans(contextFor(server), []);
    const rawVps1 = rawPlan('vps-2027-model1');
    const committed = rawVps1.pricings
      .filter((p) => p.capacities.includes('renew') && p.commitment > 0)
      .map((p) => p.price / 1e8 / p.interval);
    expect(committed.length).toBeGreaterThan(0);
    const vps1 = plans.find((plan) => plan.id === 'vps-2027-model1')!;
    for (const price of committed) expect(vps1.monthlyPrice).toBeGreaterThan(price);
  });

  it('marks a plan the order funnel no longer shows as deprecated and orderable nowhere, under the name the dataset uses', async () => {
    const plans = await recordedAdapter().plans(contextFor(server), []);
    const rawOld = rawPlan('vps-2025-model1');
    expect(rawOld.blobs?.tags ?? []).not.toContain('order-funnel:show');
    expect(datacenters(rawOld).length).toBeGreaterThan(0);
    const old = plans.find((plan) => plan.id === 'vps-2025-model1')!;
    expect(old).toMatchObject({ name: 'VPS-1', deprecated: true, regions: [], regionPrices: [] });
    expect(old.monthlyPrice).toBeCloseTo(defaultMonthly(rawOld), 6);
  });

  it('writes a port speed of 1000 Mbit/s or more in Gbit/s, as the dataset does', async () => {
    const faster = structuredClone(raw);
    faster.products.find(
      (product) => product.name === rawPlan('vps-2027-model1').product,
    )!.blobs!.technical!.bandwidth.level = 1500;
    server.inject({ provider: 'ovhcloud', path: PATH, kind: 'body', body: JSON.stringify(faster), times: 1 });
    const plans = await recordedAdapter().plans(contextFor(server), []);
    expect(plans.find((plan) => plan.id === 'vps-2027-model1')!.transferText).toBe('Unmetered (1.5 Gbit/s)');
  });

  it('sorts the sizes by line, then by price', async () => {
    const plans = await recordedAdapter().plans(contextFor(server), []);
    const lineRank = (line: string) => ['vps', 'vps-local-zone'].indexOf(line);
    for (let i = 1; i < plans.length; i++) {
      const [a, b] = [plans[i - 1], plans[i]];
      expect(lineRank(a.line) < lineRank(b.line) || (a.line === b.line && a.monthlyPrice <= b.monthlyPrice)).toBe(true);
    }
  });

  it('lists every datacenter of the managed plans, with the dataset city where it has one', async () => {
    const regions = await recordedAdapter().regions(contextFor(server));
    const expected = new Set(
      raw.plans.filter((plan) => /^vps-\d{4}-model\d+/.test(plan.planCode)).flatMap(datacenters),
    );
    expect(new Set(regions.map((region) => region.id))).toEqual(expected);
    const cityOf = (id: string) => regions.find((region) => region.id === id)?.city;
    expect(cityOf('GRA')).toBe('Gravelines');
    expect(cityOf('DE')).toBe('Frankfurt');
    expect(cityOf('UK')).toBe('London');
    expect(cityOf('YNM')).toBeNull();
  });

  it('has no add-on the dataset model can hold', async () => {
    await expect(recordedAdapter().addOns(contextFor(server))).resolves.toEqual({});
  });

  it('needs no credential, since the catalogue is public', () => {
    expect(recordedAdapter().credentials).toEqual([]);
  });

  it('reads the French price list from the European API host unless told another subsidiary', () => {
    const adapter = new OvhcloudCatalogue();
    expect(adapter.subsidiary).toBe('FR');
    expect(adapter.baseUrl).toBe('https://eu.api.ovh.com');
    expect(new OvhcloudCatalogue({ subsidiary: 'US' }).baseUrl).toBe('https://api.us.ovhcloud.com');
  });

  it('throws a CatalogueFormatError naming the missing plans list when the answer is an empty object', async () => {
    server.inject({ provider: 'ovhcloud', path: PATH, kind: 'body', body: '{}', times: 1 });
    const failure = recordedAdapter().plans(contextFor(server), []);
    await expect(failure).rejects.toThrow(CatalogueFormatError);
    await expect(failure).rejects.toThrow(/plans/);
  });

  it('throws a CatalogueFormatError when a managed plan names a product the catalogue does not list', async () => {
    const broken = structuredClone(raw);
    broken.products = broken.products.filter((product) => product.name !== rawPlan('vps-2027-model1').product);
    server.inject({ provider: 'ovhcloud', path: PATH, kind: 'body', body: JSON.stringify(broken), times: 1 });
    await expect(recordedAdapter().plans(contextFor(server), [])).rejects.toThrow(/vps-2027-model1.*products list/);
  });

  it('throws a CatalogueFormatError when a managed plan has no monthly price without commitment', async () => {
    const broken = structuredClone(raw);
    const plan = broken.plans.find((p) => p.planCode === 'vps-2027-model1')!;
    plan.pricings = plan.pricings.filter((p) => p.mode !== 'default');
    server.inject({ provider: 'ovhcloud', path: PATH, kind: 'body', body: JSON.stringify(broken), times: 1 });
    await expect(recordedAdapter().plans(contextFor(server), [])).rejects.toThrow(CatalogueFormatError);
  });

  describe('on the US site, where a size sold in Europe is a separate -eu plan', () => {
    let dir: string;
    let usServer: ReplayServer;

    // A copy of the recorded plan, moved to the US datacenters, plus its -eu twin at another price:
    // the shape the US catalogue has, built from the recorded entry since no US answer was found.
    beforeAll(async () => {
      const base = structuredClone(rawPlan('vps-2027-model1'));
      base.configurations = [{ name: 'vps_datacenter', values: ['US-EAST-VA', 'US-WEST-OR'] }];
      const twin = structuredClone(rawPlan('vps-2027-model1'));
      twin.planCode = 'vps-2027-model1-eu';
      for (const pricing of twin.pricings) pricing.price = pricing.price * 2;
      twin.configurations = [{ name: 'vps_datacenter', values: ['GRA', 'US-EAST-VA'] }];
      const body = { ...raw, plans: [twin, base], products: raw.products };
      dir = await mkdtemp(join(tmpdir(), 'ovhcloud-us-'));
      await mkdir(join(dir, 'ovhcloud'));
      await writeFile(join(dir, 'ovhcloud', 'us.json'), JSON.stringify(body));
      await writeFile(
        join(dir, 'ovhcloud', 'recording.json'),
        JSON.stringify({
          provider: 'ovhcloud',
          observedAt: '2026-10-07',
          retrievedAt: '2026-11-26',
          source: {
            url: 'https://example.invalid/derived',
            copyOf: `https://api.us.ovhcloud.com${PATH}?ovhSubsidiary=US`,
          },
          answers: [{ path: PATH, query: { ovhSubsidiary: 'US' }, file: 'us.json' }],
        }),
      );
      usServer = await startReplayServer(dir, ['ovhcloud']);
    });

    afterAll(async () => {
      await usServer.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('merges the -eu plan into the size, keeping the home plan price as headline and the other as region prices', async () => {
      const plans = await new OvhcloudCatalogue({ subsidiary: 'US' }).plans(contextFor(usServer), []);
      const size = plans.find((plan) => plan.id === 'vps-2027-model1')!;
      const homePrice = defaultMonthly(rawPlan('vps-2027-model1'));
      expect(size.monthlyPrice).toBeCloseTo(homePrice, 6);
      expect(size.regions).toEqual(['US-EAST-VA', 'US-WEST-OR', 'GRA']);
      expect(size.regionPrices.map((price) => [price.region, price.hourlyPrice])).toEqual([['GRA', null]]);
      expect(size.regionPrices[0].monthlyPrice).toBeCloseTo(homePrice * 2, 6);
      expect(plans.filter((plan) => plan.id.endsWith('-eu'))).toEqual([]);
    });
  });
});
