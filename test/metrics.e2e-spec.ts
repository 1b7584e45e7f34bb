import { readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DatasetReloader } from '../src/dataset/dataset-reloader';
import { MetricsService } from '../src/observability/metrics.service';
import { rawMeta, rawProviders } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';
import { scrape, metric, copyData } from './support/operations';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type RawProviders = { providers: { id: string; plans: { observedAt: string }[] }[] };

/** Every dataset_price_age_days series of a scrape, keyed "provider stat". */
function priceAgeSeries(text: string): Record<string, number> {
  const series: Record<string, number> = {};
  for (const [, labels, value] of text.matchAll(/^dataset_price_age_days\{([^}]*)\} (\S+)$/gm)) {
    const label = Object.fromEntries([...labels.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
    series[`${label.provider} ${label.stat}`] = Number(value);
  }
  return series;
}

/** The series a dataset's files call for, worked out here from the JSON: days from each plan's observedAt to the version. */
function expectedPriceAges(file: RawProviders, version: string): Record<string, number> {
  const day = (date: string) =>
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
  const series: Record<string, number> = {};
  for (const provider of file.providers) {
    const ages = provider.plans.map((plan) => day(version) - day(plan.observedAt)).sort((a, b) => a - b);
    if (ages.length === 0) continue;
    const n = ages.length;
    series[`${provider.id} oldest`] = ages[n - 1];
    series[`${provider.id} median`] = n % 2 === 1 ? ages[(n - 1) / 2] : (ages[n / 2 - 1] + ages[n / 2]) / 2;
  }
  return series;
}

/** The apps started below, closed when the file ends (then the reload app's copy of the dataset is removed). */
const started: TestApp[] = [];
let reloadDir: string | undefined;
afterAll(async () => {
  await Promise.all(started.map((app) => app.close()));
  if (reloadDir) await rm(reloadDir, { recursive: true, force: true });
});

/**
 * An app shared by the tests (in different describes) that can share it: started by the first that asks
 * for it, so a test run alone with -t starts only the apps it uses. `env` is kept for the tests to check.
 */
function sharedApp(
  env: Record<string, string | undefined>,
  prepare: () => Promise<Record<string, string>> = async () => ({}),
) {
  let booting: Promise<TestApp> | undefined;
  return {
    env,
    get: () =>
      (booting ??= prepare().then(async (more) => {
        const t = await startTestApp({ ...env, ...more });
        started.push(t);
        return t;
      })),
  };
}

/** The counters' app, also where the address test of METRICS_HOST over HOST looks (HOST only sets the metrics server's interface here). */
const countersApp = sharedApp({ RATE_LIMIT_REQUESTS: '4', HOST: '0.0.0.0', METRICS_HOST: '127.0.0.1' });

/** The live reload's app, on a copy of the dataset it may edit; also where the address test of HOST alone looks. */
const reloadApp = sharedApp({ DATA_WATCH: 'false', HOST: '127.0.0.1', METRICS_HOST: undefined }, async () => ({
  DATA_DIR: (reloadDir = await copyData()),
}));

describe('metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await countersApp.get();
  });

  it('serves Prometheus metrics on their own port, not the public one', async () => {
    await t.http.get('/metrics').expect(404);
    const text = await scrape(t);
    expect(text).toContain(`dataset_info{version="${rawMeta.version}"} 1`);
    expect(metric(text, 'dataset_loaded_timestamp_seconds')).toBeGreaterThan(1.7e9);
    expect(metric(text, 'dataset_version_timestamp_seconds')).toBe(
      Date.UTC(
        Number(rawMeta.version.slice(0, 4)),
        Number(rawMeta.version.slice(5, 7)) - 1,
        Number(rawMeta.version.slice(8, 10)),
      ) / 1000,
    );
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('gives the oldest and the median price age of each provider, in days to the dataset version', async () => {
    const text = await scrape(t);
    expect(text).toContain('# TYPE dataset_price_age_days gauge');
    const expected = expectedPriceAges(rawProviders, rawMeta.version);
    expect(Object.keys(expected)).toHaveLength(2 * rawProviders.providers.length);
    expect(priceAgeSeries(text)).toEqual(expected);
  });

  it('counts requests by route and status, 429s and MCP tool calls', async () => {
    const series = 'http_requests_total{method="GET",route="/api/providers/:providerId.json",status="200"}';
    const before = await scrape(t);
    await t.http.get('/api/providers/vultr.json').expect(200);
    await t.http
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_vps_provider', arguments: { id: 'nope' } },
      })
      .expect(200);
    const last = await t.http.get('/api/index.json').expect(200);
    // What the other tests of this app asked for also counts: spend the rest of the 4, so the next two are over it.
    for (let left = Number(last.headers['ratelimit-remaining']); left > 0; left--)
      await t.http.get('/api/index.json').expect(200);
    await t.http.get('/api/index.json').expect(429);
    await t.http.get('/api/index.json').expect(429);
    const after = await scrape(t);
    expect(metric(after, series) - metric(before, series)).toBe(1);
    expect(metric(after, 'http_rate_limited_total') - metric(before, 'http_rate_limited_total')).toBe(2);
    expect(metric(after, 'mcp_tool_calls_total{tool="get_vps_provider",outcome="error"}')).toBe(1);
    expect(after).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/providers\/:providerId.json",status="200"\} \d/,
    );
  });
});

describe('dataset_price_age_days on a live reload', () => {
  it('follows the reloaded dataset, and drops the series of a provider it no longer has', async () => {
    const t = await reloadApp.get();
    const dir = reloadDir!;
    const read = async (name: string) => JSON.parse(await readFile(join(dir, name), 'utf8'));
    const before: RawProviders = await read('providers.json');
    const { version } = await read('meta.json');
    expect(priceAgeSeries(await scrape(t))).toEqual(expectedPriceAges(before, version));

    // The first provider's first price seen 30 days earlier; the last provider known by another id from now on.
    const first = before.providers[0];
    const gone = before.providers[before.providers.length - 1].id;
    const seen = new Date(Date.parse(first.plans[0].observedAt) - 30 * 86_400_000).toISOString().slice(0, 10);
    first.plans[0].observedAt = seen;
    await writeFile(join(dir, 'providers.json'), JSON.stringify(before, null, 2));
    for (const name of ['providers.json', 'use-cases.json']) {
      const text = await readFile(join(dir, name), 'utf8');
      await writeFile(
        join(dir, name),
        text.replaceAll(`"${gone}"`, `"${gone}-next"`).replaceAll(`"/providers/${gone}"`, `"/providers/${gone}-next"`),
      );
    }
    expect(await t.app.get(DatasetReloader).reload()).toBe(true);

    const after = priceAgeSeries(await scrape(t));
    expect(after).toEqual(expectedPriceAges(await read('providers.json'), version));
    expect(Object.keys(after).filter((key) => key.startsWith(`${gone} `))).toEqual([]);
    expect(after[`${gone}-next oldest`]).toBeDefined();
    expect(after[`${first.id} oldest`]).toBeGreaterThanOrEqual(30);
  });
});

/** Opens a TCP connection to host:port: 'open', or the error code (ECONNREFUSED when nothing listens there). */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/**
 * Where the metrics server listens, seen from real sockets. 127.0.0.2 is another address of this
 * machine (all of 127.0.0.0/8 is loopback on Linux): a server bound to 127.0.0.1 refuses it, one bound
 * to every interface accepts it.
 */
describe('the metrics server address', () => {
  /** Where the metrics server of an app started with `env` (HOST, METRICS_HOST as given, the rest left to the test settings) can be reached. */
  async function reachable(
    app: { env: Record<string, string | undefined>; get(): Promise<TestApp> },
    env: Record<string, string | undefined>,
  ): Promise<Record<string, string>> {
    // The shared apps were started with exactly these two settings (a key set to undefined: not set).
    expect({ HOST: app.env.HOST, METRICS_HOST: app.env.METRICS_HOST }).toEqual({
      HOST: env.HOST,
      METRICS_HOST: env.METRICS_HOST,
    });
    const port = (await app.get()).app.get(MetricsService).port!;
    return { '127.0.0.1': await tryConnect('127.0.0.1', port), '127.0.0.2': await tryConnect('127.0.0.2', port) };
  }

  it('follows HOST when METRICS_HOST is not set: HOST=127.0.0.1 keeps metrics off every other interface', async () => {
    expect(await reachable(reloadApp, { HOST: '127.0.0.1', METRICS_HOST: undefined })).toEqual({
      '127.0.0.1': 'open',
      '127.0.0.2': 'ECONNREFUSED',
    });
  });

  it('listens on every interface with HOST=0.0.0.0 (as in Kubernetes, where Prometheus scrapes the pod address)', async () => {
    // No other test needs this setting: an app of its own.
    expect(
      await reachable(sharedApp({ HOST: '0.0.0.0', METRICS_HOST: undefined }), {
        HOST: '0.0.0.0',
        METRICS_HOST: undefined,
      }),
    ).toEqual({ '127.0.0.1': 'open', '127.0.0.2': 'open' });
  });

  it('takes METRICS_HOST over HOST when both are set', async () => {
    expect(await reachable(countersApp, { HOST: '0.0.0.0', METRICS_HOST: '127.0.0.1' })).toEqual({
      '127.0.0.1': 'open',
      '127.0.0.2': 'ECONNREFUSED',
    });
  });
});
