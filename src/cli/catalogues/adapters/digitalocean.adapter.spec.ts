import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueClient, type CatalogueRequest } from '../catalogue-client.js';
import { CatalogueFormatError, type CatalogueContext, type CataloguePlan, type CatalogueRegion } from '../catalogue.js';
import type { Recording } from '../recording.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { DigitalOceanCatalogue } from './digitalocean.adapter.js';

// The expectations are read from the recorded answers themselves (a real /v2/sizes and /v2/regions
// answer, see test/fixtures/catalogues/digitalocean/README.md), never copied from the adapter's output.
const FIXTURES = 'test/fixtures/catalogues';
const PROVIDER = 'digitalocean';
interface RawSize {
  slug: string;
  memory: number;
  vcpus: number;
  disk: number;
  transfer: number;
  price_monthly: number;
  price_hourly: number;
  regions: string[];
  available: boolean;
  description: string;
}
interface RawRegion {
  slug: string;
  name: string;
  available: boolean;
}
const RAW_SIZES = JSON.parse(readFileSync(join(FIXTURES, PROVIDER, 'v2-sizes.json'), 'utf8')) as {
  sizes: RawSize[];
  meta: { total: number };
};
const RAW_REGIONS = JSON.parse(readFileSync(join(FIXTURES, PROVIDER, 'v2-regions.json'), 'utf8')) as {
  regions: RawRegion[];
};
const MANAGED_DESCRIPTIONS = ['Basic', 'CPU-Optimized', 'General Purpose'];
const rawManaged = RAW_SIZES.sizes.filter((size) => MANAGED_DESCRIPTIONS.includes(size.description));
const rawSize = (slug: string): RawSize => RAW_SIZES.sizes.find((size) => size.slug === slug)!;
const DATASET = JSON.parse(readFileSync('data/providers.json', 'utf8')) as {
  providers: {
    id: string;
    planLines: { id: string }[];
    datacenters: { city: string }[];
    plans: { name: string; line: string; price: number }[];
  }[];
};
const DATASET_DO = DATASET.providers.find((provider) => provider.id === PROVIDER)!;

const TOKEN = 'recorded-replay-token';

/** Writes a recording of the given answer bodies into a fresh directory and returns it. */
async function writeRecording(files: Record<string, unknown>, answers: Recording['answers']): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'do-catalogue-'));
  await mkdir(join(dir, PROVIDER));
  for (const [name, body] of Object.entries(files)) await writeFile(join(dir, PROVIDER, name), JSON.stringify(body));
  const recording: Recording = {
    provider: PROVIDER,
    observedAt: '2024-01-29',
    retrievedAt: '2026-11-26',
    source: {
      url: 'https://example.invalid/derived-from-the-recorded-answer',
      copyOf: 'https://api.digitalocean.com/v2/sizes',
    },
    answers,
  };
  await writeFile(join(dir, PROVIDER, 'recording.json'), JSON.stringify(recording));
  return dir;
}

describe(DigitalOceanCatalogue.name, () => {
  const adapter = new DigitalOceanCatalogue();
  let server: ReplayServer;
  let logs: string[];
  let ctx: CatalogueContext;
  let regions: CatalogueRegion[];
  let plans: CataloguePlan[];
  const tempDirs: string[] = [];

  const contextFor = (
    replay: ReplayServer,
    credentials: Record<string, string> = { DIGITALOCEAN_TOKEN: TOKEN },
  ): CatalogueContext => ({
    client: new CatalogueClient(replay.baseUrlOf(PROVIDER), { baseDelayMs: 1 }),
    credentials,
    log: (line) => logs.push(line),
  });

  /** Replays a recording written from `files`/`answers` and runs the plans step on it. */
  async function plansFrom(
    files: Record<string, unknown>,
    answers: Recording['answers'],
  ): Promise<{ plans: CataloguePlan[]; served: string[] }> {
    const dir = await writeRecording(files, answers);
    tempDirs.push(dir);
    const replay = await startReplayServer(dir, [PROVIDER]);
    try {
      return { plans: await adapter.plans(contextFor(replay), []), served: replay.served };
    } finally {
      await replay.close();
    }
  }

  beforeAll(async () => {
    server = await startReplayServer(FIXTURES, [PROVIDER]);
    logs = [];
    ctx = contextFor(server);
    regions = await adapter.regions(ctx);
    plans = await adapter.plans(ctx, regions);
  });

  afterAll(async () => {
    await server.close();
    for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
  });

  it('declares the token variable it needs and the dataset lines it writes', () => {
    expect(adapter.credentials).toEqual(['DIGITALOCEAN_TOKEN']);
    expect(adapter.lines).toEqual(DATASET_DO.planLines.map((line) => line.id));
  });

  it('refuses to read without a token, naming the variable', async () => {
    await expect(adapter.plans(contextFor(server, {}), [])).rejects.toThrow(/DIGITALOCEAN_TOKEN/);
  });

  it('sends the token as a bearer header and asks for large pages', async () => {
    const seen: CatalogueRequest[] = [];
    const real = new CatalogueClient(server.baseUrlOf(PROVIDER), { baseDelayMs: 1 });
    const watching = {
      getJson: (path: string, request: CatalogueRequest = {}) => {
        seen.push(request);
        return real.getJson(path, request);
      },
    } as unknown as CatalogueClient;
    await adapter.regions({ client: watching, credentials: { DIGITALOCEAN_TOKEN: TOKEN }, log: () => undefined });
    expect(seen[0]?.headers).toEqual({ authorization: `Bearer ${TOKEN}` });
    expect(seen[0]?.query).toEqual({ page: 1, per_page: 200 });
  });

  it('lists the regions open for new Droplets with the dataset city of each', () => {
    const open = RAW_REGIONS.regions.filter((region) => region.available);
    expect(regions.map((region) => region.id).sort()).toEqual(open.map((region) => region.slug).sort());
    expect(regions.find((region) => region.id === 'ams3')?.city).toBe('Amsterdam');
    expect(regions.find((region) => region.id === 'nyc1')?.city).toBe('New York');
    expect(regions.find((region) => region.id === 'blr1')?.city).toBe('Bangalore');
    const datasetCities = new Set(DATASET_DO.datacenters.map((datacenter) => datacenter.city));
    for (const region of regions) expect(region.city === null || datasetCities.has(region.city)).toBe(true);
    const closed = RAW_REGIONS.regions.filter((region) => !region.available).map((region) => region.slug);
    expect(closed.length).toBeGreaterThan(0);
    for (const slug of closed) expect(regions.some((region) => region.id === slug)).toBe(false);
  });

  it('maps every Basic, CPU-Optimized and General Purpose size and nothing else', () => {
    expect(rawManaged.length).toBeGreaterThan(0);
    expect(plans.map((plan) => plan.id).sort()).toEqual(rawManaged.map((size) => size.slug).sort());
    const premium = RAW_SIZES.sizes.find((size) => size.description === 'Basic AMD')!;
    expect(plans.some((plan) => plan.id === premium.slug)).toBe(false);
    expect(plans.every((plan) => DATASET_DO.planLines.some((line) => line.id === plan.line))).toBe(true);
  });

  it('gives a size the specs and prices the raw answer states for it', () => {
    const raw = rawSize('s-2vcpu-4gb');
    const plan = plans.find((p) => p.id === raw.slug)!;
    expect(plan).toMatchObject({
      line: 'basic',
      vcpus: raw.vcpus,
      ramGb: raw.memory / 1024,
      diskGb: raw.disk,
      diskType: 'SSD',
      transferTb: raw.transfer,
      cpuType: 'shared',
      monthlyPrice: raw.price_monthly,
      hourlyPrice: raw.price_hourly,
      currency: 'USD',
      billing: 'per-second-capped',
      regionPrices: [],
      deprecated: false,
    });
    expect(plan.regions).toEqual([...raw.regions].sort());
    expect(plans.find((p) => p.id === 's-1vcpu-512mb-10gb')!.ramGb).toBe(0.5);
    expect(plans.find((p) => p.id === 'c-2')!.cpuType).toBe('dedicated');
  });

  it('has no region prices, as DigitalOcean charges the same everywhere', () => {
    expect(plans.every((plan) => plan.regionPrices.length === 0)).toBe(true);
  });

  it('names each size the way the dataset already names it', () => {
    const names = new Map(plans.map((plan) => [plan.name, plan]));
    for (const datasetPlan of DATASET_DO.plans) {
      expect(names.get(datasetPlan.name)?.line).toBe(datasetPlan.line);
    }
    expect(plans.find((plan) => plan.id === 's-2vcpu-2gb')!.name).toBe('Basic 2 GB / 2 vCPU');
    expect(new Set(plans.map((plan) => plan.name)).size).toBe(plans.length);
  });

  it('sorts plans by the dataset line order, then by price', () => {
    const order = DATASET_DO.planLines.map((line) => line.id);
    const sorted = [...plans].sort(
      (a, b) => order.indexOf(a.line) - order.indexOf(b.line) || a.monthlyPrice - b.monthlyPrice,
    );
    expect(plans.map((plan) => plan.id)).toEqual(sorted.map((plan) => plan.id));
  });

  it('logs a progress line for each step', async () => {
    await adapter.addOns(ctx);
    expect(
      logs.some(
        (line) => line.startsWith('digitalocean:') && line.includes(`${RAW_SIZES.sizes.length} sizes read in 1 page`),
      ),
    ).toBe(true);
    expect(logs.some((line) => line.includes('regions open'))).toBe(true);
    expect(logs.some((line) => line.includes('no add-on prices'))).toBe(true);
  });

  it('has no add-on prices to give', async () => {
    await expect(adapter.addOns(ctx)).resolves.toEqual({});
  });

  it('follows links.pages.next until the last page', async () => {
    const half = Math.ceil(RAW_SIZES.sizes.length / 2);
    const total = RAW_SIZES.sizes.length;
    const { plans: paged, served } = await plansFrom(
      {
        'page-1.json': {
          sizes: RAW_SIZES.sizes.slice(0, half),
          links: {
            pages: {
              next: 'https://api.digitalocean.com/v2/sizes?page=2&per_page=200',
              last: 'https://api.digitalocean.com/v2/sizes?page=2&per_page=200',
            },
          },
          meta: { total },
        },
        'page-2.json': {
          sizes: RAW_SIZES.sizes.slice(half),
          links: {
            pages: {
              first: 'https://api.digitalocean.com/v2/sizes?page=1&per_page=200',
              prev: 'https://api.digitalocean.com/v2/sizes?page=1&per_page=200',
            },
          },
          meta: { total },
        },
      },
      [
        { path: '/v2/sizes', query: { page: '1' }, file: 'page-1.json' },
        { path: '/v2/sizes', query: { page: '2' }, file: 'page-2.json' },
      ],
    );
    expect(served.filter((line) => line.includes('/v2/sizes'))).toHaveLength(2);
    expect(paged.map((plan) => plan.id).sort()).toEqual(rawManaged.map((size) => size.slug).sort());
    expect(logs.some((line) => line.includes(`${total} sizes read in 2 pages`))).toBe(true);
  });

  it('rejects a read that gives fewer sizes than meta.total says', async () => {
    await expect(
      plansFrom(
        { 'short.json': { sizes: RAW_SIZES.sizes.slice(0, 5), links: {}, meta: { total: RAW_SIZES.sizes.length } } },
        [{ path: '/v2/sizes', file: 'short.json' }],
      ),
    ).rejects.toThrow(/meta\.total/);
  });

  it('marks a size that can no longer be created as deprecated', async () => {
    const retired = rawManaged[0]!;
    const sizes = RAW_SIZES.sizes.map((size) =>
      size.slug === retired.slug ? { ...size, available: false, regions: [] } : size,
    );
    const { plans: withRetired } = await plansFrom(
      { 'sizes.json': { sizes, links: {}, meta: { total: sizes.length } } },
      [{ path: '/v2/sizes', file: 'sizes.json' }],
    );
    const plan = withRetired.find((p) => p.id === retired.slug)!;
    expect(plan.deprecated).toBe(true);
    expect(plan.regions).toEqual([]);
    expect(withRetired.filter((p) => p.deprecated)).toHaveLength(1);
  });

  it('never sells a size in a closed region, and one listed only in closed regions cannot be ordered', async () => {
    const closed = RAW_REGIONS.regions.filter((region) => !region.available).map((region) => region.slug);
    expect(closed.length).toBeGreaterThanOrEqual(2);
    const [onlyClosed, alsoClosed] = rawManaged;
    const sizes = RAW_SIZES.sizes.map((size) =>
      size.slug === onlyClosed!.slug
        ? { ...size, available: true, regions: closed }
        : size.slug === alsoClosed!.slug
          ? { ...size, available: true, regions: [...size.regions.filter((r) => !closed.includes(r)), closed[0]] }
          : size,
    );
    const dir = await writeRecording(
      { 'sizes.json': { sizes, links: {}, meta: { total: sizes.length } }, 'regions.json': RAW_REGIONS },
      [
        { path: '/v2/sizes', file: 'sizes.json' },
        { path: '/v2/regions', file: 'regions.json' },
      ],
    );
    tempDirs.push(dir);
    const replay = await startReplayServer(dir, [PROVIDER]);
    try {
      const replayCtx = contextFor(replay);
      const read = await adapter.plans(replayCtx, await adapter.regions(replayCtx));
      const stranded = read.find((p) => p.id === onlyClosed!.slug)!;
      expect(stranded.deprecated).toBe(true);
      expect(stranded.regions).toEqual([]);
      const mixed = read.find((p) => p.id === alsoClosed!.slug)!;
      expect(mixed.deprecated).toBe(false);
      expect(mixed.regions).not.toContain(closed[0]);
      expect(mixed.regions.length).toBeGreaterThan(0);
      expect(read.filter((p) => p.deprecated).map((p) => p.id)).toEqual([onlyClosed!.slug]);
    } finally {
      await replay.close();
    }
  });

  it('throws CatalogueFormatError for an answer without a sizes list', async () => {
    server.inject({ provider: PROVIDER, path: '/v2/sizes', kind: 'body', body: '{}', times: 1 });
    await expect(adapter.plans(ctx, regions)).rejects.toThrow(CatalogueFormatError);
  });

  it('throws CatalogueFormatError naming a size whose monthly price is missing', async () => {
    const broken = RAW_SIZES.sizes.map((size) => (size.slug === 'c-2' ? { ...size, price_monthly: undefined } : size));
    server.inject({
      provider: PROVIDER,
      path: '/v2/sizes',
      kind: 'body',
      body: JSON.stringify({ sizes: broken, links: {}, meta: { total: broken.length } }),
      times: 1,
    });
    await expect(adapter.plans(ctx, regions)).rejects.toThrow(/size c-2 has no positive price_monthly/);
  });

  it('throws CatalogueFormatError when a managed line has no size at all', async () => {
    const withoutGeneralPurpose = RAW_SIZES.sizes.filter((size) => size.description !== 'General Purpose');
    server.inject({
      provider: PROVIDER,
      path: '/v2/sizes',
      kind: 'body',
      body: JSON.stringify({ sizes: withoutGeneralPurpose, links: {}, meta: { total: withoutGeneralPurpose.length } }),
      times: 1,
    });
    await expect(adapter.plans(ctx, regions)).rejects.toThrow(/"general-purpose" line/);
  });

  it('throws CatalogueFormatError for an empty size list', async () => {
    server.inject({
      provider: PROVIDER,
      path: '/v2/sizes',
      kind: 'body',
      body: JSON.stringify({ sizes: [], links: {}, meta: { total: 0 } }),
      times: 1,
    });
    await expect(adapter.plans(ctx, regions)).rejects.toThrow(CatalogueFormatError);
  });
});
