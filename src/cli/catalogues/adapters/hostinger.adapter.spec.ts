import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueClient } from '../catalogue-client.js';
import { CatalogueFormatError, type CatalogueContext } from '../catalogue.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { HostingerCatalogue } from './hostinger.adapter.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = 'test/fixtures/catalogue-shapes';
const raw = (file: string): Json => JSON.parse(readFileSync(join(FIXTURES, 'hostinger', file), 'utf8'));
// The recording holds the example values of Hostinger's OpenAPI document, not a recorded answer.
const exampleItem: Json = raw('api-billing-v1-catalog.json')[0];
const exampleCentres: Json[] = raw('api-vps-v1-data-centers.json');
const credentials = { HOSTINGER_API_TOKEN: 'replay' };

describe(HostingerCatalogue.name, () => {
  let server: ReplayServer;
  let logged: string[];
  let adapter: HostingerCatalogue;
  const scratch = mkdtempSync(join(tmpdir(), 'hostinger-catalogue-'));

  const ctxOn = (srv: ReplayServer, creds: Record<string, string> = credentials): CatalogueContext => ({
    client: new CatalogueClient(srv.baseUrlOf('hostinger'), { baseDelayMs: 1, maxAttempts: 1 }),
    credentials: creds,
    log: (line) => logged.push(line),
  });

  /** A replay of `catalogue` as the catalogue answer, beside the recorded data centres. */
  async function variantServer(name: string, catalogue: Json[]): Promise<ReplayServer> {
    const dir = join(scratch, name);
    mkdirSync(join(dir, 'hostinger'), { recursive: true });
    writeFileSync(join(dir, 'hostinger', 'api-billing-v1-catalog.json'), JSON.stringify(catalogue));
    for (const file of ['api-vps-v1-data-centers.json', 'recording.json'])
      copyFileSync(join(FIXTURES, 'hostinger', file), join(dir, 'hostinger', file));
    return startReplayServer(dir, ['hostinger']);
  }

  // Made-up figures to exercise the arithmetic, not Hostinger data: the OpenAPI example leaves the
  // metadata's keys open and quotes a single one-day term. The cents are the example's own.
  const priced = (overrides: Json = {}): Json => ({
    ...exampleItem,
    metadata: { cpus: '2', memory: '8192', disk_space: '102400', bandwidth: '8192000' },
    prices: [
      { ...exampleItem.prices[0], period: 1, period_unit: 'month' },
      { ...exampleItem.prices[0], id: `${exampleItem.id}-usd-24m`, period: 2, period_unit: 'year' },
      {
        ...exampleItem.prices[0],
        id: `${exampleItem.id}-eur-24m`,
        currency: 'EUR',
        price: 1,
        first_period_price: 1,
        period: 24,
        period_unit: 'month',
      },
    ],
    ...overrides,
  });

  beforeAll(async () => {
    server = await startReplayServer(FIXTURES, ['hostinger']);
  });

  beforeEach(() => {
    logged = [];
    adapter = new HostingerCatalogue();
  });

  afterAll(async () => {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('declares the bearer token variable and refuses to read without it', async () => {
    expect(adapter.credentials).toEqual(['HOSTINGER_API_TOKEN']);
    await expect(adapter.regions(ctxOn(server, {}))).rejects.toThrow(/HOSTINGER_API_TOKEN/);
  });

  it('lists the data centres, with a city only where the dataset has one', async () => {
    const regions = await adapter.regions(ctxOn(server));
    expect(regions).toEqual(exampleCentres.map((c) => ({ id: String(c.id), city: null })));
    expect(logged).toContain(
      `hostinger: ${exampleCentres.length} data centres read in 1 page, 0 in the dataset's cities`,
    );
  });

  it('refuses the OpenAPI example catalogue, whose only price is a one-day term', async () => {
    const ctx = ctxOn(server);
    const regions = await adapter.regions(ctx);
    await expect(adapter.plans(ctx, regions)).rejects.toThrow(
      new CatalogueFormatError(
        `hostinger /api/billing/v1/catalog: ${exampleItem.id} has no 24-month USD price (terms: USD other)`,
      ),
    );
    expect(server.served).toContain('hostinger /api/billing/v1/catalog?category=VPS');
  });

  it('maps a KVM item: the 24-month first-term price per month as headline, its renewal, and the 1-month rate', async () => {
    const item = priced();
    const variant = await variantServer('priced', [
      item,
      { ...priced(), id: 'hostingercom-vps-gamepanel2', name: 'Game Panel 2' },
    ]);
    try {
      const ctx = ctxOn(variant);
      const plans = await adapter.plans(ctx, await adapter.regions(ctx));
      const term = item.prices[1];
      expect(plans).toEqual([
        {
          id: item.id,
          name: item.name,
          line: 'kvm',
          vcpus: Number(item.metadata.cpus),
          ramGb: Number(item.metadata.memory) / 1024,
          diskGb: Number(item.metadata.disk_space) / 1024,
          transferTb: Number(item.metadata.bandwidth) / 1024 / 1000,
          diskType: 'NVMe',
          cpuType: 'shared',
          monthlyPrice: Math.round(term.first_period_price / 24) / 100,
          hourlyPrice: null,
          currency: 'USD',
          billing: 'prepaid-term',
          monthlyCapHours: null,
          regions: exampleCentres.map((c) => String(c.id)),
          regionPrices: [],
          deprecated: false,
          termMonths: 24,
          renewalMonthlyPrice: Math.round(term.price / 24) / 100,
          monthToMonthPrice: item.prices[0].price / 100,
        },
      ]);
      expect(logged).toContain('hostinger: 2 VPS catalogue items read in 1 page, 1 KVM plans priced in USD');
    } finally {
      await variant.close();
    }
  });

  it('throws a format error naming the metadata a KVM item lacks', async () => {
    const variant = await variantServer('no-metadata', [priced({ metadata: exampleItem.metadata })]);
    try {
      const ctx = ctxOn(variant);
      await expect(adapter.plans(ctx, await adapter.regions(ctx))).rejects.toThrow(
        /metadata lacks cpus, memory, disk_space, bandwidth \(has: field\)/,
      );
    } finally {
      await variant.close();
    }
  });

  it('throws a format error when the catalogue answer is not a list', async () => {
    server.inject({ provider: 'hostinger', path: '/api/billing/v1/catalog', kind: 'body', body: '{}', times: 1 });
    const ctx = ctxOn(server);
    await expect(adapter.plans(ctx, await adapter.regions(ctx))).rejects.toThrow(CatalogueFormatError);
  });

  it('has no add-on prices to read', async () => {
    expect(await adapter.addOns(ctxOn(server))).toEqual({});
  });
});
