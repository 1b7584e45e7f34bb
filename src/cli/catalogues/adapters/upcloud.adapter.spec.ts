import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueClient } from '../catalogue-client.js';
import { CatalogueFormatError, type CatalogueContext, type CataloguePlan, type CatalogueRegion } from '../catalogue.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { UpcloudCatalogue } from './upcloud.adapter.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = 'test/fixtures/catalogue-shapes';
const raw = (file: string): Json => JSON.parse(readFileSync(join(FIXTURES, 'upcloud', file), 'utf8'));
const rawPlans: Json[] = raw('1.3-plan.json').plans.plan;
const rawZones: Json[] = raw('1.3-price.json').prices.zone;
const rawZoneList: Json[] = raw('1.3-zone.json').zones.zone;
const publicZoneIds: string[] = rawZoneList.filter((z) => z.public === 'yes').map((z) => z.id);
// The families the dataset manages, by UpCloud's name prefixes (Cloud Native and GPU are left out).
const inScope = (name: string) => /^(DEV|STARTER|PREMIUM)-/.test(name) || /^(HICPU-|HIMEM-)?\d+xCPU-\d+GB$/.test(name);
const hourlyCentsIn = (zone: string, plan: string): number =>
  rawZones.find((z) => z.name === zone)[`server_plan_${plan}`].price;
const credentials = { UPCLOUD_USERNAME: 'replay', UPCLOUD_PASSWORD: 'replay' };

describe(UpcloudCatalogue.name, () => {
  let server: ReplayServer;
  let logged: string[];
  let adapter: UpcloudCatalogue;
  const scratch = mkdtempSync(join(tmpdir(), 'upcloud-catalogue-'));

  const ctxOn = (srv: ReplayServer, creds: Record<string, string> = credentials): CatalogueContext => ({
    client: new CatalogueClient(srv.baseUrlOf('upcloud'), { baseDelayMs: 1, maxAttempts: 1 }),
    credentials: creds,
    log: (line) => logged.push(line),
  });

  async function read(srv: ReplayServer): Promise<{ regions: CatalogueRegion[]; plans: CataloguePlan[] }> {
    const ctx = ctxOn(srv);
    const regions = await adapter.regions(ctx);
    return { regions, plans: await adapter.plans(ctx, regions) };
  }

  beforeAll(async () => {
    server = await startReplayServer(FIXTURES, ['upcloud']);
  });

  beforeEach(() => {
    logged = [];
    adapter = new UpcloudCatalogue();
  });

  afterAll(async () => {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('declares the two Basic-auth variables and refuses to read without them', async () => {
    expect(adapter.credentials).toEqual(['UPCLOUD_USERNAME', 'UPCLOUD_PASSWORD']);
    await expect(adapter.regions(ctxOn(server, { UPCLOUD_USERNAME: 'only-a-name' }))).rejects.toThrow(
      /UPCLOUD_PASSWORD/,
    );
  });

  it('lists the public zones only, each with the dataset city for it', async () => {
    const regions = await adapter.regions(ctxOn(server));
    expect(regions.map((r) => r.id)).toEqual(publicZoneIds);
    expect(regions.map((r) => r.id)).not.toContain(rawZoneList.find((z) => z.public !== 'yes').id);
    expect(regions.find((r) => r.id === 'de-fra1')?.city).toBe('Frankfurt');
    expect(regions.filter((r) => r.id.startsWith('fi-hel')).map((r) => r.city)).toEqual(['Helsinki', 'Helsinki']);
  });

  it('maps every size of the managed families in the answer, and nothing else', async () => {
    const { plans } = await read(server);
    expect(plans.map((p) => p.id).sort()).toEqual(
      rawPlans
        .filter((p) => inScope(p.name))
        .map((p) => p.name)
        .sort(),
    );
    expect(plans.length).toBeGreaterThan(0);
  });

  it('reads one size as the raw answers state it, monthly price being 672 hours of the most common hourly rate', async () => {
    const { plans } = await read(server);
    const source = rawPlans.find((p) => p.name === '2xCPU-4GB');
    const plan = plans.find((p) => p.id === '2xCPU-4GB')!;
    const cents = hourlyCentsIn('de-fra1', '2xCPU-4GB');
    expect(plan).toMatchObject({
      name: '2xCPU-4GB',
      line: 'general-purpose',
      vcpus: source.core_number,
      ramGb: source.memory_amount / 1024,
      diskGb: source.storage_size,
      diskType: 'SSD',
      transferTb: Math.round((source.public_traffic_out * 2 ** 30) / 1e10) / 100,
      cpuType: 'shared',
      monthlyPrice: Math.round(cents * 672) / 100,
      currency: 'EUR',
      billing: 'hourly-capped',
      monthlyCapHours: 672,
      regions: publicZoneIds,
      deprecated: false,
    });
    expect(plan.hourlyPrice).toBeCloseTo(cents / 100, 9);
  });

  it('keeps the zones that charge another rate as region prices', async () => {
    const { plans } = await read(server);
    const plan = plans.find((p) => p.id === '1xCPU-1GB')!;
    const headlineCents = hourlyCentsIn('de-fra1', '1xCPU-1GB');
    const differing = publicZoneIds.filter((zone) => hourlyCentsIn(zone, '1xCPU-1GB') !== headlineCents);
    expect(differing.length).toBeGreaterThan(0);
    expect(plan.regionPrices.map((r) => r.region)).toEqual(differing);
    const helsinki = plan.regionPrices.find((r) => r.region === 'fi-hel1')!;
    expect(helsinki.monthlyPrice).toBe(Math.round(hourlyCentsIn('fi-hel1', '1xCPU-1GB') * 672) / 100);
    expect(helsinki.monthlyPrice).not.toBe(plan.monthlyPrice);
  });

  it('sorts the plans by line, then by price', async () => {
    const { plans } = await read(server);
    const lines = ['developer', 'general-purpose', 'starter', 'premium'];
    const keys = plans.map((p) => [lines.indexOf(p.line), p.monthlyPrice]);
    expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  });

  it('asks each endpoint once, since none of them is paged', async () => {
    const before = server.served.length;
    await read(server);
    expect(server.served.slice(before)).toEqual(['upcloud /1.3/zone', 'upcloud /1.3/plan', 'upcloud /1.3/price']);
    expect(logged.some((line) => /^upcloud: \d+ plans read in 1 page/.test(line))).toBe(true);
  });

  it('marks an old size deprecated, naming the same-shaped successor, once its successor family is in the catalogue', async () => {
    // A shape variant of the recording, for the logic only: the recorded 2xCPU-4GB entry and its recorded
    // zone prices copied under a Premium and a Cloud Native name. It says nothing about real Premium prices.
    const dir = join(scratch, 'successor');
    mkdirSync(join(dir, 'upcloud'), { recursive: true });
    const source = rawPlans.find((p) => p.name === '2xCPU-4GB');
    const plansBody = {
      plans: {
        plan: [
          ...rawPlans,
          { ...source, name: 'PREMIUM-2xCPU-4GB' },
          { ...source, name: 'CLOUDNATIVE-2xCPU-4GB', storage_size: 0 },
        ],
      },
    };
    const priceBody = {
      prices: {
        zone: rawZones.map((z) => ({
          ...z,
          'server_plan_PREMIUM-2xCPU-4GB': z['server_plan_2xCPU-4GB'],
          'server_plan_CLOUDNATIVE-2xCPU-4GB': z['server_plan_2xCPU-4GB'],
        })),
      },
    };
    writeFileSync(join(dir, 'upcloud', '1.3-plan.json'), JSON.stringify(plansBody));
    writeFileSync(join(dir, 'upcloud', '1.3-price.json'), JSON.stringify(priceBody));
    copyFileSync(join(FIXTURES, 'upcloud', '1.3-zone.json'), join(dir, 'upcloud', '1.3-zone.json'));
    copyFileSync(join(FIXTURES, 'upcloud', 'recording.json'), join(dir, 'upcloud', 'recording.json'));
    const variant = await startReplayServer(dir, ['upcloud']);
    try {
      const { plans } = await read(variant);
      expect(plans.find((p) => p.id === '2xCPU-4GB')).toMatchObject({
        deprecated: true,
        successor: 'PREMIUM-2xCPU-4GB',
      });
      expect(plans.find((p) => p.id === '6xCPU-16GB')).toMatchObject({ deprecated: true });
      expect(plans.find((p) => p.id === '6xCPU-16GB')?.successor).toBeUndefined();
      expect(plans.find((p) => p.id === 'PREMIUM-2xCPU-4GB')).toMatchObject({ line: 'premium', deprecated: false });
      expect(plans.map((p) => p.id)).not.toContain('CLOUDNATIVE-2xCPU-4GB');
      expect(plans.at(-1)?.line).toBe('premium');
    } finally {
      await variant.close();
    }
  });

  it('does not mark anything deprecated in the recorded answer, which predates the Starter and Premium families', async () => {
    const { plans } = await read(server);
    expect(plans.filter((p) => p.deprecated)).toEqual([]);
  });

  it('reads the traffic overage rate as an add-on', async () => {
    const addOns = await adapter.addOns(ctxOn(server));
    const out = rawZones.find((z) => z.name === 'de-fra1').public_ipv4_bandwidth_out;
    expect(addOns).toEqual({ trafficOverage: { price: out.price / out.amount / 100, unit: 'GiB' } });
  });

  it('throws a format error naming the list when the plan answer is an empty object', async () => {
    server.inject({ provider: 'upcloud', path: '/1.3/plan', kind: 'body', body: '{}', times: 1 });
    const ctx = ctxOn(server);
    await expect(adapter.plans(ctx, await adapter.regions(ctx))).rejects.toThrow(
      new CatalogueFormatError('upcloud /1.3/plan: plans.plan is missing or empty'),
    );
  });

  it('throws a format error when a plan price has no number', async () => {
    const broken = { prices: { zone: [{ name: 'de-fra1', 'server_plan_1xCPU-1GB': { amount: 1 } }] } };
    server.inject({ provider: 'upcloud', path: '/1.3/price', kind: 'body', body: JSON.stringify(broken), times: 1 });
    const ctx = ctxOn(server);
    await expect(adapter.plans(ctx, await adapter.regions(ctx))).rejects.toThrow(
      /de-fra1\.server_plan_1xCPU-1GB has no numeric amount and price/,
    );
  });

  it('throws a format error when a managed size is priced in no public zone', async () => {
    server.inject({
      provider: 'upcloud',
      path: '/1.3/price',
      kind: 'body',
      body: JSON.stringify({ prices: { zone: [{ name: 'de-fra1' }] } }),
      times: 1,
    });
    const ctx = ctxOn(server);
    await expect(adapter.plans(ctx, await adapter.regions(ctx))).rejects.toThrow(CatalogueFormatError);
  });
});
