// `npm run soak -- [--duration S] [--clients N] [--over M] [--out FILE]`: three instances, Redis and nginx on
// loopback (the local cluster), a few hundred simulated clients with their own identities (sent as
// X-Forwarded-For through the balancer, which the instances trust) doing a realistic mix, some of them
// deliberately over the limit. Asserts, prints a report and writes docs/soak-results.json.
//
// Memory: each instance runs with the heap setting of the Kubernetes Deployment and is sampled every
// two seconds. The first 40% of the run is warm-up (V8 sizes its heap to the load); "growth" compares the
// mean RSS of the first and the last quarter of the samples taken after it, so one GC cycle landing on a
// sample does not decide the verdict.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { startCluster } from './cluster-local.mjs';
import { productionNodeArgs, productionRuntimeEnv } from './production-node-options.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a whole number, got ${process.argv[i + 1]}`);
  return value;
};
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex === -1 ? 'docs/soak-results.json' : process.argv[outIndex + 1];
const DURATION = arg('duration', 180);
if (DURATION < 20) throw new Error('--duration must be at least 20 seconds (warm-up plus enough memory samples)');
const CLIENTS = arg('clients', 300);
const OVER = arg('over', 5);
const LIMIT = 600;
const WINDOW = 60;
const WARMUP_SHARE = 0.4;
const SAMPLE_MS = 2000;
// The same heap limits as deploy/k8s/base/deployment.yaml.
const RUNTIME_ENV = productionRuntimeEnv();
const HEAP_OPTIONS = RUNTIME_ENV.NODE_OPTIONS;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const guides = readdirSync('data/guides').map((f) => f.replace(/\.md$/, ''));
const providers = JSON.parse(readFileSync('data/providers.json', 'utf8')).providers.map((p) => p.id);
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const mcp = (name, args) => ({
  method: 'POST',
  path: '/mcp',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});
/** What a client does next, weighted like real traffic. */
const ACTIONS = [
  [20, () => ({ path: '/api/providers.json' })],
  [15, () => ({ path: `/api/providers/${pick(providers)}.json` })],
  [8, () => ({ path: '/api/guides.json' })],
  [5, () => ({ path: '/api/use-cases.json' })],
  [15, () => ({ path: `/guides/${pick(guides)}` })],
  [8, () => ({ path: `/guides/${pick(guides)}.md` })],
  [5, () => ({ path: `/providers/${pick(providers)}`, headers: { accept: 'text/markdown' } })],
  [6, () => mcp('get_vps_provider', { id: pick(providers) })],
  [6, () => mcp('find_vps_plans', { minRamGb: pick([1, 2, 4, 8]), currency: pick(['USD', 'EUR', 'GBP']) })],
  [6, () => mcp('search_guides', { query: pick(['wireguard', 'backup', 'docker', 'hetzner vs vultr', 'firewall']) })],
  [6, () => ({ path: '/api/providers.json', conditional: true })],
];
const TOTAL = ACTIONS.reduce((s, [w]) => s + w, 0);
const nextAction = () => {
  let r = Math.random() * TOTAL;
  for (const [w, make] of ACTIONS) if ((r -= w) < 0) return make();
  return ACTIONS[0][1]();
};

/** A counter from an instance's Prometheus text; NaN when the instance does not report it. */
const metric = (text, name) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);

/**
 * Rate-limit counts Redis itself executed (the instances' hit script runs as EVALSHA, or EVAL when
 * Redis does not know it yet): a count the instances cannot inflate, so a run in which Redis was never
 * used cannot pass as one where the limit was shared.
 */
const redisScriptCalls = (port) => {
  const info = spawnSync('redis-cli', ['-p', String(port), 'INFO', 'commandstats'], { encoding: 'utf8' }).stdout ?? '';
  const calls = (command) => Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return calls('evalsha') + calls('eval');
};

/** Waits until every instance reports that it counts in Redis, so no client starts while one still connects. */
async function waitForSharedStore(nodes, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (const [i, node] of nodes.entries()) {
    for (;;) {
      const ready = await fetch(`${node.url}/readyz`).then((r) => r.json()).catch(() => undefined);
      if (ready?.info?.rateLimitStore?.mode === 'shared') break;
      if (Date.now() > deadline) throw new Error(`instance ${i} never counted in Redis: ${JSON.stringify(ready?.info?.rateLimitStore)}`);
      await sleep(100);
    }
  }
}

/** The least share of the limited requests Redis must have counted for the run to test a shared limit. */
const MIN_SHARED_SHARE = 0.9;

const procStat = (pid) => {
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  return { rss, fds };
};

async function main() {
  const cluster = await startCluster({
    env: { RATE_LIMIT_REQUESTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW), DATA_WATCH: 'false', ...RUNTIME_ENV },
    nodeArgs: productionNodeArgs(),
  });
  await waitForSharedStore(cluster.nodes);
  const records = [];
  const etags = new Map();
  const deadline = Date.now() + DURATION * 1000;
  let running = true;

  const client = async (index, over) => {
    const identity = `10.${Math.floor(index / 250)}.${index % 250}.${over ? 7 : 1}`;
    while (running && Date.now() < deadline) {
      const action = nextAction();
      const headers = { 'x-forwarded-for': identity, ...(action.headers ?? {}) };
      if (action.conditional && etags.has(action.path)) headers['if-none-match'] = etags.get(action.path);
      const started = performance.now();
      try {
        const res = await fetch(cluster.lbUrl + action.path, { method: action.method ?? 'GET', headers, body: action.body });
        await res.arrayBuffer();
        const now = Date.now();
        if (res.status === 200 && !action.method && res.headers.get('etag')) etags.set(action.path, res.headers.get('etag'));
        records.push({
          client: identity,
          over,
          status: res.status,
          ms: performance.now() - started,
          retryAfter: res.headers.get('retry-after'),
          windowEnd: now + Number(res.headers.get('ratelimit-reset') ?? 0) * 1000,
        });
      } catch (error) {
        records.push({ client: identity, over, status: 0, ms: performance.now() - started, error: String(error.cause ?? error) });
      }
      if (!over) await sleep(150 + Math.random() * 350);
    }
  };

  const warmupEnd = Date.now() + DURATION * WARMUP_SHARE * 1000;
  const samples = cluster.nodes.map(() => []);
  const exits = [];
  cluster.nodes.forEach((n, i) => n.exited.then(({ code, signal }) => running && exits.push(`instance ${i} exited (code ${code}, signal ${signal}): ${n.stderrTail.trim().slice(-1500)}`)));
  const sampler = setInterval(() => {
    if (Date.now() < warmupEnd) return;
    cluster.nodes.forEach((n, i) => {
      if (n.child.exitCode === null && n.child.signalCode === null) samples[i].push(procStat(n.child.pid));
    });
  }, SAMPLE_MS);
  const clients = [...Array.from({ length: CLIENTS }, (_, i) => client(i, false)), ...Array.from({ length: OVER }, (_, i) => client(CLIENTS + i, true))];
  await Promise.all(clients);
  running = false;
  clearInterval(sampler);
  // Per instance: requests it counted on its own (the documented fallback while Redis fails or is slow)
  // and the failed calls to Redis that explain them.
  const rateLimit = await Promise.all(
    cluster.nodes.map(async (n) => {
      const text = await (await fetch(n.metricsUrl)).text();
      return { fallback: metric(text, 'rate_limit_local_fallback_requests'), storeErrors: metric(text, 'rate_limit_store_errors') };
    }),
  );
  const fallback = rateLimit.map((r) => r.fallback);
  const sharedStoreCounted = redisScriptCalls(cluster.redisPort);
  await cluster.stop();
  const memory = samples.map((list) => {
    if (list.length === 0) return { samples: 0 };
    const quarter = Math.max(1, Math.floor(list.length / 4));
    const mean = (xs) => xs.reduce((s, x) => s + x.rss, 0) / xs.length;
    const early = mean(list.slice(0, quarter));
    const late = mean(list.slice(-quarter));
    return {
      samples: list.length,
      rssMbEarly: Math.round(early),
      rssMbLate: Math.round(late),
      rssMbPeak: Math.round(Math.max(...list.map((x) => x.rss))),
      rssGrowth: Number((late / early - 1).toFixed(3)),
      fdsAfterWarmup: list[0].fds,
      fdsAtEnd: list[list.length - 1].fds,
    };
  });

  // Accepted requests per client per limit window, windows told apart by the reset time each answer carried.
  const perWindow = new Map();
  for (const r of records.filter((x) => x.status !== 429 && x.status !== 0).sort((a, b) => a.windowEnd - b.windowEnd)) {
    const windows = perWindow.get(r.client) ?? [];
    const last = windows[windows.length - 1];
    if (last && r.windowEnd - last.end < 3000) last.count++;
    else windows.push({ end: r.windowEnd, count: 1 });
    perWindow.set(r.client, windows);
  }
  const maxAccepted = Math.max(...[...perWindow.values()].flat().map((w) => w.count));
  const latencies = records.map((r) => r.ms).sort((a, b) => a - b);
  const pct = (p) => Number(latencies[Math.floor((latencies.length - 1) * p)].toFixed(1));
  const byStatus = {};
  for (const r of records) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const result = {
    date: new Date().toISOString(),
    settings: {
      durationSeconds: DURATION,
      clients: CLIENTS,
      overLimitClients: OVER,
      limit: `${LIMIT}/${WINDOW}s`,
      instances: cluster.nodes.length,
      nodeOptions: HEAP_OPTIONS,
      warmupSeconds: DURATION * WARMUP_SHARE,
    },
    requests: records.length,
    requestsPerSecond: Math.round(records.length / DURATION),
    byStatus,
    serverErrors: records.filter((r) => r.status >= 500).length,
    failed: records.filter((r) => r.status === 0).length,
    tooManyWithoutRetryAfter: records.filter((r) => r.status === 429 && !r.retryAfter).length,
    overLimitRefused: records.filter((r) => r.over && r.status === 429).length,
    normalClientsRefused: records.filter((r) => !r.over && r.status === 429).length,
    maxAcceptedPerClientWindow: maxAccepted,
    localFallbackRequests: fallback,
    storeErrors: rateLimit.map((r) => r.storeErrors),
    sharedStoreCounted,
    latencyMs: { p50: pct(0.5), p99: pct(0.99), max: pct(1) },
    instances: memory,
  };
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));

  const problems = [...exits];
  if (result.serverErrors > 0) problems.push(`${result.serverErrors} answers were 5xx`);
  if (result.failed > 0) problems.push(`${result.failed} requests failed`);
  if (result.tooManyWithoutRetryAfter > 0) problems.push(`${result.tooManyWithoutRetryAfter} 429s had no Retry-After`);
  if (rateLimit.some((r) => !Number.isInteger(r.fallback) || !Number.isInteger(r.storeErrors))) {
    problems.push('an instance did not report rate_limit_local_fallback_requests and rate_limit_store_errors');
  }
  // Every limited request is counted once, in Redis or (while Redis fails) by its instance; Redis must
  // have counted nearly all of them, or the run did not test the shared limit at all.
  const limited = records.length - result.failed;
  const fellBack = fallback.reduce((a, b) => a + b, 0);
  if (sharedStoreCounted < MIN_SHARED_SHARE * limited) problems.push(`Redis counted ${sharedStoreCounted} of ${limited} limited requests (at least ${MIN_SHARED_SHARE * 100}% expected)`);
  if (sharedStoreCounted + fellBack < limited) problems.push(`${limited - sharedStoreCounted - fellBack} requests were counted neither in Redis nor locally`);
  // Local counting is excused only where Redis actually failed for that instance.
  for (const [i, r] of rateLimit.entries()) {
    if (r.fallback > 0 && !(r.storeErrors > 0)) problems.push(`instance ${i} counted ${r.fallback} requests locally though Redis never failed for it`);
  }
  const excused = rateLimit.filter((r) => r.storeErrors > 0).reduce((a, r) => a + r.fallback, 0);
  if (maxAccepted > LIMIT + excused) problems.push(`a client got ${maxAccepted} requests accepted in one window (limit ${LIMIT}, ${excused} counted locally while Redis failed)`);
  if (fellBack > 0) console.warn(`note: ${fellBack} requests were counted per instance because Redis did not answer within its timeout`);
  if (OVER > 0 && result.overLimitRefused === 0) problems.push('no over-limit client was refused');
  if (!(byStatus[304] > 0)) problems.push('no conditional request was answered 304');
  for (const [i, inst] of result.instances.entries()) {
    if (inst.samples < 2) problems.push(`instance ${i}: too few memory samples (${inst.samples})`);
    else if (inst.rssGrowth > 0.1) problems.push(`instance ${i}: RSS grew ${(inst.rssGrowth * 100).toFixed(1)}% after warm-up`);
    if (inst.fdsAtEnd > inst.fdsAfterWarmup + 20) problems.push(`instance ${i}: file descriptors grew from ${inst.fdsAfterWarmup} to ${inst.fdsAtEnd}`);
  }
  if (problems.length > 0) {
    console.error(`SOAK FAILED:\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log('SOAK PASSED');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
