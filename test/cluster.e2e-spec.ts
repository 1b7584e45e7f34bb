import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The same module `npm run cluster:local` runs: three built instances, redis-server and nginx on loopback.
import { startCluster } from '../scripts/cluster-local.mjs';
import { DATA_DIR } from './support/raw-data';

type Cluster = Awaited<ReturnType<typeof startCluster>>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the local cluster (npm run cluster:local)', () => {
  let cluster: Cluster;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vpsapi-cluster-data-'));
    await cp(DATA_DIR, dir, { recursive: true });
    cluster = await startCluster({ dataDir: dir, env: { DATA_WATCH: 'false' } });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  const get = (path: string, client: string) => fetch(cluster.lbUrl + path, { headers: { 'X-Forwarded-For': client } });

  /** Answers of `route` each replica counted in its own metrics, by status. */
  const answeredByReplica = async (route: string) =>
    Promise.all(
      cluster.nodes.map(async (node: { metricsUrl: string }) => {
        const text = await (await fetch(node.metricsUrl)).text();
        const byStatus: Record<string, number> = {};
        for (const [, status, count] of text.matchAll(
          new RegExp(`^http_requests_total\\{method="GET",route="${route}",status="(\\d+)"\\} (\\d+)$`, 'gm'),
        )) {
          byStatus[status] = (byStatus[status] ?? 0) + Number(count);
        }
        return byStatus;
      }),
    );

  it('enforces one limit across the three replicas behind the balancer, each replica answering part of it', async () => {
    const client = '203.0.113.77';
    const before = await answeredByReplica('/api/index.json');
    const statuses: number[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => get('/api/index.json', client)));
      statuses.push(...answers.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const refused = await get('/api/index.json', client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The limit is per client: another client is still served.
    const other = await get('/api/index.json', '203.0.113.78');
    expect(other.status).toBe(200);
    // Each replica answered part of the 600 (their metrics say so), and together they accepted exactly
    // 600 for the client plus the other client's one: separate counters would have let far more through.
    const after = await answeredByReplica('/api/index.json');
    const accepted = after.map((byStatus, i) => (byStatus['200'] ?? 0) - (before[i]['200'] ?? 0));
    const tooMany = after.map((byStatus, i) => (byStatus['429'] ?? 0) - (before[i]['429'] ?? 0));
    expect(accepted).toHaveLength(3);
    for (const n of accepted) expect(n).toBeGreaterThan(0);
    expect(accepted.reduce((x, y) => x + y, 0)).toBe(601);
    expect(tooMany.reduce((x, y) => x + y, 0)).toBe(1);
  }, 60_000);

  /**
   * Four clients requesting `path` back to back until stopped; each status, or the error of a failed
   * request. Many client identities, so the rate limit never interferes with what is measured.
   */
  const load = (path: string, subnet: number) => {
    let running = true;
    const results: (number | string)[] = [];
    const clients = Array.from({ length: 4 }, async (_, c) => {
      let n = 0;
      while (running) {
        try {
          const res = await get(path, `198.51.${subnet + c}.${n++ % 250}`);
          await res.arrayBuffer();
          results.push(res.status);
        } catch (error) {
          results.push(String((error as Error).cause ?? error));
        }
      }
    });
    return {
      results,
      async stop() {
        running = false;
        await Promise.all(clients);
      },
    };
  };

  it('restarts every replica in turn under load without a failed request', async () => {
    const { results, stop } = load('/api/providers/hetzner.json', 0);
    const exits = [];
    for (let i = 0; i < cluster.nodes.length; i++) exits.push(await cluster.restart(i));
    await sleep(300);
    await stop();
    expect(exits.map((e) => e.code)).toEqual([0, 0, 0]);
    expect(results.length).toBeGreaterThan(100);
    expect(results.filter((r) => r !== 200)).toEqual([]);
  }, 120_000);

  it('routes around a replica killed with SIGKILL: only requests in flight on it can fail', async () => {
    const { results, stop } = load('/api/providers/vultr.json', 10);
    await sleep(500);
    await cluster.kill(1);
    await sleep(1500);
    await stop();
    const failed = results.filter((r) => r !== 200);
    // nginx retries an idempotent GET on another replica when one dies, so even in-flight requests
    // usually survive; at most the four that were in flight can fail.
    expect(failed.length).toBeLessThanOrEqual(4);
    expect(results.length).toBeGreaterThan(100);
    await cluster.start(1);
    expect((await get('/api/index.json', '198.51.99.1')).status).toBe(200);
  }, 60_000);

  it('reloads the dataset on every replica with SIGHUP', async () => {
    const file = join(dir, 'providers.json');
    const data = JSON.parse(await readFile(file, 'utf8'));
    const hetzner = data.providers.find((p: { id: string }) => p.id === 'hetzner');
    // A plan that can be ordered, cheapest of all after the edit: the validator refuses a starting
    // price resting on a plan nobody can order, and a refused dataset is not reloaded.
    type Plan = { name: string; price: number; availability?: { orderable: boolean } };
    const edited = (hetzner.plans as Plan[]).find((p) => p.availability?.orderable !== false)!;
    edited.price = 3.33;
    hetzner.startingPrice = 3.33;
    await writeFile(file, JSON.stringify(data));
    cluster.reloadAll();
    const priceOn = async (url: string) =>
      ((await (await fetch(`${url}/api/providers/hetzner.json`)).json()) as any).provider.plans.find(
        (p: Plan) => p.name === edited.name,
      ).price;
    const deadline = Date.now() + 10_000;
    let prices: number[] = [];
    while (Date.now() < deadline) {
      prices = await Promise.all(cluster.nodes.map((n) => priceOn(n.url)));
      if (prices.every((p) => p === 3.33)) break;
      await sleep(200);
    }
    expect(prices).toEqual([3.33, 3.33, 3.33]);
  }, 30_000);
});
