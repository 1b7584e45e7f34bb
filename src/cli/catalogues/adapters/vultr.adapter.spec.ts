import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueClient } from '../catalogue-client.js';
import { CatalogueFormatError, type CatalogueContext, type CataloguePlan, type CatalogueRegion } from '../catalogue.js';
import type { Recording } from '../recording.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { VultrCatalogue } from './vultr.adapter.js';

const FIXTURES = 'test/fixtures/catalogues';

/** A `/v2/plans` entry as the recorded answer has it (the fields these tests read). */
interface RawPlan {
  id: string;
  type: string;
  vcpu_count: number;
  ram: number;
  disk: number;
  bandwidth: number;
  monthly_cost: number;
  hourly_cost: number;
  locations: string[];
  deploy_ondemand?: boolean;
  location_cost?: Record<string, { monthly_cost: number; hourly_cost: number }>;
}
interface RawPlans {
  plans: RawPlan[];
  meta: { total: number; links: { next: string; prev: string } };
}
interface RawRegions {
  regions: { id: string; city: string }[];
}

/** The lines as Vultr's ids name them, stated independently of the adapter. */
const inScope = (plan: RawPlan) =>
  (plan.type === 'vc2' && plan.monthly_cost > 0) ||
  plan.type === 'vhp' ||
  plan.id.startsWith('voc-c-') ||
  plan.id.startsWith('voc-g-');

describe(VultrCatalogue.name, () => {
  let server: ReplayServer;
  let raw: RawPlans;
  let rawRegions: RawRegions;
  let logs: string[];
  const adapter = new VultrCatalogue();

  const contextFor = (baseUrl: string): CatalogueContext => ({
    client: new CatalogueClient(baseUrl, { baseDelayMs: 1 }),
    credentials: {},
    log: (line) => logs.push(line),
  });
  const context = () => contextFor(server.baseUrlOf('vultr'));
  const readPlans = async (ctx = context()): Promise<CataloguePlan[]> => adapter.plans(ctx, await adapter.regions(ctx));
  const planOf = (plans: CataloguePlan[], id: string) => {
    const plan = plans.find((candidate) => candidate.id === id);
    if (!plan) throw new Error(`no plan ${id} among ${plans.map((p) => p.id).join(', ')}`);
    return plan;
  };
  const rawOf = (id: string) => raw.plans.find((plan) => plan.id === id)!;
  /** Serves the recorded `/v2/plans` answer with `change` applied to a copy of it, once. */
  const injectPlans = (change: (body: RawPlans) => void) => {
    const body = structuredClone(raw);
    change(body);
    server.inject({ provider: 'vultr', path: '/v2/plans', kind: 'body', body: JSON.stringify(body), times: 1 });
  };

  beforeAll(async () => {
    server = await startReplayServer(FIXTURES, ['vultr']);
    raw = JSON.parse(await readFile(join(FIXTURES, 'vultr', 'v2-plans.json'), 'utf8')) as RawPlans;
    rawRegions = JSON.parse(await readFile(join(FIXTURES, 'vultr', 'v2-regions.json'), 'utf8')) as RawRegions;
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    logs = [];
  });

  it('declares no credential, because the plans and regions endpoints are public, and reads without one', async () => {
    expect(adapter.credentials).toEqual([]);
    await expect(readPlans()).resolves.not.toHaveLength(0);
  });

  it('maps every recorded region to the dataset city of the same name, and a location the dataset lacks to null', async () => {
    const regions = await adapter.regions(context());
    expect(regions.map((region) => region.id)).toEqual(rawRegions.regions.map((region) => region.id));
    for (const region of rawRegions.regions) expect(regions.find((r) => r.id === region.id)?.city).toBe(region.city);

    server.inject({
      provider: 'vultr',
      path: '/v2/regions',
      kind: 'body',
      body: JSON.stringify({
        regions: [...rawRegions.regions, { id: 'zzz', city: 'Nowhere' }],
        meta: { links: { next: '' } },
      }),
      times: 1,
    });
    const withUnknown = await adapter.regions(context());
    expect(withUnknown.find((region) => region.id === 'zzz')?.city).toBeNull();
    expect(logs.at(-1)).toContain('no dataset city for zzz');
  });

  it('keeps every size of the four lines and leaves High Frequency, Memory and Storage Optimized, GPU and the free tier out', async () => {
    const plans = await readPlans();
    expect(plans.map((plan) => plan.id).sort()).toEqual(
      raw.plans
        .filter(inScope)
        .map((plan) => plan.id)
        .sort(),
    );
    expect(raw.plans.some((plan) => plan.type === 'vcg' || plan.type === 'vhf' || plan.id.startsWith('voc-m-'))).toBe(
      true,
    );
    expect(plans.some((plan) => plan.id.endsWith('-free'))).toBe(false);
    expect(logs).toContain(
      `vultr: ${raw.plans.length} plans read in 1 page, ${plans.length} in the lines regular, high-performance, cpu-optimized, general-purpose`,
    );
  });

  it('gives a size the price, specs and locations the recorded answer states for it', async () => {
    const source = rawOf('vc2-1c-1gb');
    const plan = planOf(await readPlans(), 'vc2-1c-1gb');
    expect(plan).toMatchObject({
      line: 'regular',
      vcpus: source.vcpu_count,
      ramGb: source.ram / 1024,
      diskGb: source.disk,
      diskType: 'SSD',
      transferTb: source.bandwidth / 1024,
      cpuType: 'shared',
      monthlyPrice: source.monthly_cost,
      hourlyPrice: source.hourly_cost,
      currency: 'USD',
      billing: 'hourly-capped',
      regions: source.locations,
      deprecated: false,
    });
  });

  it('prices São Paulo from the location_cost the answer gives, apart from the headline', async () => {
    const source = rawOf('vhp-2c-4gb-amd');
    const sao = source.location_cost!.sao;
    const plan = planOf(await readPlans(), 'vhp-2c-4gb-amd');
    expect(plan.monthlyPrice).toBe(source.monthly_cost);
    expect(plan.regionPrices).toEqual([
      { region: 'sao', monthlyPrice: sao.monthly_cost, hourlyPrice: sao.hourly_cost },
    ]);
    expect(sao.monthly_cost).not.toBe(source.monthly_cost);
  });

  it('folds the older per-location entries (vc2-1c-1gb-sc1, sold only in São Paulo) into the plan they price', async () => {
    const base = rawOf('vc2-1c-1gb');
    const sao = base.location_cost!.sao;
    injectPlans((body) => {
      const plan = body.plans.find((p) => p.id === base.id)!;
      delete plan.location_cost;
      plan.locations = plan.locations.filter((location) => location !== 'sao');
      body.plans.push({
        ...plan,
        id: `${base.id}-sc1`,
        locations: ['sao'],
        monthly_cost: sao.monthly_cost,
        hourly_cost: sao.hourly_cost,
      });
    });
    const plans = await readPlans();
    expect(plans.some((plan) => plan.id === `${base.id}-sc1`)).toBe(false);
    expect(planOf(plans, base.id).regionPrices).toEqual([
      { region: 'sao', monthlyPrice: sao.monthly_cost, hourlyPrice: sao.hourly_cost },
    ]);
    expect(planOf(plans, base.id).regions).toContain('sao');
  });

  it('names the sizes as the dataset does, so that their price history continues', async () => {
    const dataset = JSON.parse(await readFile('data/providers.json', 'utf8')) as {
      providers: { id: string; plans: { name: string; line: string }[] }[];
    };
    const listed = dataset.providers.find((provider) => provider.id === 'vultr')!.plans;
    const plans = await readPlans();
    const names = new Map(plans.map((plan) => [plan.name, plan]));
    for (const plan of listed)
      expect({ name: plan.name, line: names.get(plan.name)?.line }).toEqual({ name: plan.name, line: plan.line });
    expect(new Set(plans.map((plan) => plan.name)).size).toBe(plans.length);
    expect(planOf(plans, 'vc2-1c-0.5gb-v6').name).toBe('Regular Performance 512 MB / IPv6-only');
    expect(planOf(plans, 'vhp-2c-2gb-intel').name).toBe('High Performance 2 GB / 2 vCPU / Intel');
  });

  it("keeps each size's name when the prices change order: a name follows the size, never its price", async () => {
    const before = await readPlans();
    // The 2 vCPU / 2 GB size dropped below the 1 vCPU / 2 GB one: under a price-ordered naming it took the plain name.
    injectPlans((body) => {
      body.plans.find((plan) => plan.id === 'vc2-2c-2gb')!.monthly_cost = 1;
    });
    const after = await readPlans();
    for (const plan of before) expect(planOf(after, plan.id).name).toBe(plan.name);
    expect(planOf(after, 'vc2-1c-2gb').name).toBe('Regular Performance 2 GB');
    expect(planOf(after, 'vc2-2c-2gb').name).toBe('Regular Performance 2 GB / 2 vCPU');
  });

  it('sorts the plans by line in the dataset order, then by price', async () => {
    const plans = await readPlans();
    const order = adapter.lines;
    for (let i = 1; i < plans.length; i++) {
      const [a, b] = [plans[i - 1], plans[i]];
      const byLine = order.indexOf(a.line) - order.indexOf(b.line);
      expect(byLine < 0 || (byLine === 0 && a.monthlyPrice <= b.monthlyPrice)).toBe(true);
    }
  });

  it('marks a size Vultr no longer deploys on demand as deprecated', async () => {
    injectPlans((body) => {
      body.plans.find((plan) => plan.id === 'voc-g-1c-4gb-30s-amd')!.deploy_ondemand = false;
    });
    const plans = await readPlans();
    expect(planOf(plans, 'voc-g-1c-4gb-30s-amd').deprecated).toBe(true);
    expect(plans.filter((plan) => plan.deprecated)).toHaveLength(1);
  });

  it('follows the cursor in meta.links.next until the last page, and gets every size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vultr-pages-'));
    try {
      await mkdir(join(dir, 'vultr'));
      const half = Math.floor(raw.plans.length / 2);
      const page1 = {
        plans: raw.plans.slice(0, half),
        meta: { total: raw.plans.length, links: { next: 'second-page', prev: '' } },
      };
      const page2 = {
        plans: raw.plans.slice(half),
        meta: { total: raw.plans.length, links: { next: '', prev: 'first-page' } },
      };
      await writeFile(join(dir, 'vultr', 'page-1.json'), JSON.stringify(page1));
      await writeFile(join(dir, 'vultr', 'page-2.json'), JSON.stringify(page2));
      await writeFile(join(dir, 'vultr', 'v2-regions.json'), JSON.stringify(rawRegions));
      const recording: Recording = {
        ...server.recordingOf('vultr')!,
        answers: [
          { path: '/v2/plans', file: 'page-1.json' },
          { path: '/v2/plans', query: { cursor: 'second-page' }, file: 'page-2.json' },
          { path: '/v2/regions', file: 'v2-regions.json' },
        ],
      };
      await writeFile(join(dir, 'vultr', 'recording.json'), JSON.stringify(recording));
      const paged = await startReplayServer(dir, ['vultr']);
      try {
        const plans = await readPlans(contextFor(paged.baseUrlOf('vultr')));
        expect(plans).toHaveLength(raw.plans.filter(inScope).length);
        expect(paged.served.filter((line) => line.startsWith('vultr /v2/plans'))).toEqual([
          'vultr /v2/plans?per_page=500',
          'vultr /v2/plans?per_page=500&cursor=second-page',
        ]);
        expect(logs.some((line) => line.includes('plans read in 2 pages'))).toBe(true);
      } finally {
        await paged.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops with a format error when a page names a cursor it already followed', async () => {
    server.inject({
      provider: 'vultr',
      path: '/v2/plans',
      kind: 'body',
      body: JSON.stringify({ plans: raw.plans.slice(0, 3), meta: { links: { next: 'again' } } }),
      times: 2,
    });
    await expect(readPlans()).rejects.toThrow(/repeats one already followed/);
  });

  it('throws a CatalogueFormatError naming what is wrong with a malformed answer', async () => {
    server.inject({ provider: 'vultr', path: '/v2/plans', kind: 'body', body: '{}', times: 1 });
    await expect(readPlans()).rejects.toThrow(CatalogueFormatError);

    server.inject({ provider: 'vultr', path: '/v2/plans', kind: 'body', body: '{}', times: 1 });
    await expect(readPlans()).rejects.toThrow('vultr /v2/plans (page 1): the answer has no "plans" list');

    injectPlans((body) => {
      body.plans = [];
    });
    await expect(readPlans()).rejects.toThrow('the list of plans is empty');

    injectPlans((body) => {
      delete (body.plans.find((plan) => plan.id === 'vc2-2c-4gb') as Partial<RawPlan>).monthly_cost;
    });
    await expect(readPlans()).rejects.toThrow('vultr plan vc2-2c-4gb monthly_cost is undefined, not a price');

    server.inject({
      provider: 'vultr',
      path: '/v2/regions',
      kind: 'body',
      body: JSON.stringify({ regions: [], meta: {} }),
      times: 1,
    });
    await expect(adapter.regions(context())).rejects.toThrow('vultr /v2/regions: the list of regions is empty');
  });

  it('reports the locations plans are sold in that the regions answer does not list', async () => {
    const regions: CatalogueRegion[] = await adapter.regions(context());
    const plans = await adapter.plans(context(), regions);
    const known = new Set(regions.map((region) => region.id));
    const unlisted = [...new Set(plans.flatMap((plan) => plan.regions))].filter((id) => !known.has(id)).sort();
    expect(unlisted.length).toBeGreaterThan(0);
    expect(logs.at(-1)).toContain(`sold in locations /v2/regions does not list: ${unlisted.join(', ')}`);
  });

  it('has no add-on prices to give, since the catalogue API lists none', async () => {
    await expect(adapter.addOns(context())).resolves.toEqual({});
    expect(logs).toEqual(['vultr: the catalogue API has no add-on prices']);
  });
});
