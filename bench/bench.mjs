// `npm run bench`: the service in production mode against a bare node:http server that answers the
// same bytes with the same headers, in interleaved rounds, with autocannon. `--smoke` runs each
// scenario for a second, for the test suite. Prints a table and writes bench/results.json.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { freePort } from '../scripts/cluster-local.mjs';
import { keyOf } from './replay.mjs';
import { productionNodeArgs, productionNodeMajor, productionRuntimeEnv } from '../scripts/production-node-options.mjs';
import { cpus, totalmem } from 'node:os';
import { Socket } from 'node:net';
import { execFileSync } from 'node:child_process';

const smoke = process.argv.includes('--smoke');
// `--only <text>`: only the scenarios whose name contains the text (and getProvider, which the MCP rows
// are compared with), for working on one path; the flood and the Redis capacity run only in a full run.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1];
/** `--duration S` and `--rounds N`: shorter runs, for working on a row; a full run keeps 8 s and 3 rounds. */
const flag = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const DURATION = smoke ? 1 : flag('--duration', 8);
const ROUNDS = smoke ? 1 : flag('--rounds', 3);

// The service, the bare server and the two floors run on the Node major the image runs (V8's
// collector and compiler differ between majors by more than any row's target): on another node, the
// benchmark runs itself again under that major from the npm registry (`npx -p node@<major>`), which puts
// that node first on PATH for every process it starts.
const major = productionNodeMajor();
if (Number(process.versions.node.split('.')[0]) !== major) {
  const again = spawnSync('npx', ['--yes', '-p', `node@${major}`, '--', 'node', ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(again.status ?? 1);
}
const FLOOD_SECONDS = smoke ? 3 : 60;
const CONNECTIONS = 50;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One inline Redis command on a fresh connection; resolves with the raw reply. */
function redisCommand(port, command) {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = '';
    socket.on('data', (d) => {
      reply += d;
      // A bulk reply ($<length>) is complete once its bytes and the final CRLF are in; anything else is one line.
      const bulk = /^\$(\d+)\r\n/.exec(reply);
      if (bulk ? Buffer.byteLength(reply) >= bulk[0].length + Number(bulk[1]) + 2 : reply.endsWith('\r\n')) {
        socket.destroy();
        resolve(reply);
      }
    });
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
  });
}

/** A redis-server on a free loopback port, without persistence, as test/support/redis-server.ts starts it. */
async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    if ((await redisCommand(port, 'PING').catch(() => '')).startsWith('+PONG'))
      return { port, child, url: `redis://127.0.0.1:${port}` };
    await sleep(50);
  }
  throw new Error(`redis-server did not start on port ${port}`);
}

/** Commands Redis has executed so far (INFO commandstats), all commands summed. */
async function redisCalls(port) {
  const info = await redisCommand(port, 'INFO commandstats');
  return [...info.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/**
 * What one Redis does with the rate limiter's hit script alone (redis-benchmark, 50 clients, random
 * keys): requests per second without pipelining and with 16 commands in flight per connection.
 */
function redisCapacity(port, smoke) {
  const script =
    "local hits = redis.call('INCR', KEYS[1]) local ttl = redis.call('PTTL', KEYS[1]) if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end return { hits, ttl }";
  const rps = (pipeline) => {
    const out = execFileSync(
      'redis-benchmark',
      [
        '-p',
        String(port),
        '-c',
        '50',
        '-n',
        smoke ? '2000' : '300000',
        '-r',
        '100000',
        '-P',
        String(pipeline),
        '-q',
        'EVAL',
        script,
        '1',
        'bench:__rand_int__',
        '60000',
      ],
      { encoding: 'utf8' },
    );
    const m = /([\d.]+) requests per second/.exec(out);
    return m ? Math.round(Number(m[1])) : 0;
  };
  return { evalPerSecond: rps(1), evalPerSecondPipelined16: rps(16) };
}

/** Starts the built service as production runs it; resolves with its port and pid. */
async function startService(env) {
  const child = spawn('node', [...productionNodeArgs(), 'dist/main.js'], {
    // The image's node flags, and the runtime settings of the Kubernetes Deployment's environment.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ...productionRuntimeEnv(),
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      LOG_PRETTY: 'false',
      DATA_WATCH: 'false',
      SHUTDOWN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Production logs a JSON line per request (gathered into writes of LOG_BUFFER_BYTES); once the service
  // listens, the benchmark reads and discards them, as a log collector would take them.
  // PORT=0: the service binds a free port itself and says which (a port picked here first could be
  // taken by another process before the service binds it).
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const listening = (d) => {
      out += d;
      const bound = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!bound) return;
      child.stdout.off('data', listening).resume();
      resolve(Number(bound[1]));
    };
    child.stdout.on('data', listening);
    child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
  return { port, pid: child.pid, child, url: `http://127.0.0.1:${port}` };
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const mcpCall = (name, args) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

/**
 * Reads the response the service gives, to replay the same bytes from the baseline. node:http, not
 * fetch: fetch adds its own Accept-Encoding and decompresses bodies, which would record other bytes
 * (and other answers: a 200 in place of a 304) than autocannon receives.
 */
function record(url, scenario) {
  return new Promise((resolve, reject) => {
    const req = request(
      url + scenario.path,
      { method: scenario.method ?? 'GET', headers: scenario.headers ?? {} },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const headers = {};
          for (const [k, v] of Object.entries(res.headers))
            if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
          resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
    req.end(scenario.body);
  });
}

/** CPU time (user + system, ms) and peak RSS (MB) of a process, from /proc. */
function processStats(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuMs: (ticks * 1000) / 100, peakRssMb: hwm ? Number(hwm[1]) / 1024 : 0 };
}

function run(url, scenario, duration, onTick) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: url + scenario.path,
        method: scenario.method ?? 'GET',
        headers: scenario.headers,
        body: scenario.body,
        connections: scenario.connections ?? CONNECTIONS,
        duration,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onTick) instance.on('tick', onTick);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const service = await startService({ RATE_LIMIT_REQUESTS: '1000000', RATE_LIMIT_WINDOW_SECONDS: '1' });
  // The same service with its counters in a real Redis, for the cost of the shared limit per request.
  const redis = await startRedis();
  const shared = await startService({
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_WINDOW_SECONDS: '1',
    RATE_LIMIT_STORE: 'redis',
    REDIS_URL: redis.url,
  });
  const urlOf = (s) => (s.service === 'redis' ? shared.url : service.url);
  // The ETag of the identity form, which the 304 scenario (no Accept-Encoding) revalidates.
  const etag = (await record(service.url, { path: '/api/providers.json' })).headers.etag;
  if (!etag) throw new Error('no ETag on /api/providers.json');

  const scenarios = [
    { name: 'providers.json identity', path: '/api/providers.json', target: 0.3 },
    { name: 'providers.json br', path: '/api/providers.json', headers: { 'accept-encoding': 'br' }, target: 0.3 },
    { name: 'hetzner.json (single provider)', path: '/api/providers/hetzner.json', target: 0.2 },
    { name: 'guides.json', path: '/api/guides.json' },
    { name: '304 revalidation', path: '/api/providers.json', headers: { 'if-none-match': etag }, target: 0.2 },
    { name: 'hetzner.json, Redis rate limit', path: '/api/providers/hetzner.json', service: 'redis' },
    { name: 'plans.json (flat plan table)', path: '/api/plans.json' },
    { name: 'HTML page (provider)', path: '/providers/hetzner', headers: { accept: 'text/html' }, target: 0.3 },
    { name: 'markdown page (guide)', path: '/guides/swap-file', headers: { accept: 'text/markdown' } },
    { name: '404 (API envelope)', path: '/api/nothing.json', refusal: true, target: 0.15 },
    { name: '404 page (HTML)', path: '/wp-login.php', headers: { accept: 'text/html' }, refusal: true, target: 0.15 },
    {
      name: 'MCP get_vps_provider',
      path: '/mcp',
      method: 'POST',
      headers: MCP_HEADERS,
      body: mcpCall('get_vps_provider', { id: 'hetzner' }),
      mcp: true,
      target: 0.25,
    },
    {
      name: 'MCP find_vps_plans',
      path: '/mcp',
      method: 'POST',
      headers: MCP_HEADERS,
      body: mcpCall('find_vps_plans', { minRamGb: 4, currency: 'EUR' }),
      mcp: true,
      target: 0.25,
    },
    {
      name: 'MCP search_guides',
      path: '/mcp',
      method: 'POST',
      headers: MCP_HEADERS,
      body: mcpCall('search_guides', { query: 'wireguard vpn' }),
      mcp: true,
      target: 0.25,
    },
  ].filter(
    (s) =>
      only === undefined || s.name.includes(only) || (s.name.startsWith('hetzner.json (') && only.startsWith('MCP')),
  );

  // The baseline replays exactly what the service answered, headers included. Compressed variants are
  // made on a document's first request (identity is sent until then): ask once, let them finish.
  for (const s of scenarios.filter((x) => !x.mcp)) await record(urlOf(s), s);
  await sleep(1500);
  const table = [];
  for (const s of scenarios.filter((x) => !x.mcp)) {
    const r = await record(urlOf(s), s);
    table.push({
      key: keyOf({ method: s.method ?? 'GET', url: s.path, headers: s.headers ?? {} }),
      status: r.status,
      headers: r.headers,
      body: r.body.toString('base64'),
    });
    s.bytes = r.body.length;
  }
  for (const s of scenarios.filter((x) => x.mcp)) s.bytes = (await record(service.url, s)).body.length;
  // The ceiling (bare node:http), the framework floor (a bare Nest app on Express) and the rules floor
  // (a Nest app applying the service's rules the libraries' way), all replaying the same table; the
  // floors are started with the service's runtime settings.
  const replay = async (script, env) => {
    const child = spawn('node', [script], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    child.stdin.end(JSON.stringify(table));
    const port = await new Promise((resolve) => {
      const listening = (d) => {
        const m = /LISTENING (\d+)/.exec(String(d));
        if (!m) return;
        // What follows (the rules floor's access log) is read and discarded, as the service's is.
        child.stdout.off('data', listening).resume();
        resolve(Number(m[1]));
      };
      child.stdout.on('data', listening);
    });
    return { child, url: `http://127.0.0.1:${port}` };
  };
  const { child: baseline, url: baselineUrl } = await replay('bench/baseline-server.mjs', {});
  const { child: floor, url: floorUrl } = await replay('bench/floor-server.mjs', {
    NODE_ENV: 'production',
    ...productionRuntimeEnv(),
  });
  const { child: rulesFloor, url: rulesFloorUrl } = await replay('bench/rules-floor-server.mjs', {
    NODE_ENV: 'production',
    ...productionRuntimeEnv(),
  });
  // The ceiling must answer what the service answers: same status, coding and body bytes.
  for (const s of scenarios.filter((x) => !x.mcp)) {
    const ours = await record(urlOf(s), s);
    for (const [who, url] of [
      ['baseline', baselineUrl],
      ['framework floor', floorUrl],
      ['rules floor', rulesFloorUrl],
    ]) {
      const theirs = await record(url, s);
      if (
        ours.status !== theirs.status ||
        ours.headers['content-encoding'] !== theirs.headers['content-encoding'] ||
        !ours.body.equals(theirs.body)
      ) {
        throw new Error(`the ${who} does not answer "${s.name}" as the service does`);
      }
    }
  }

  const results = Object.fromEntries(
    scenarios.map((s) => [
      s.name,
      { service: [], baseline: [], floor: [], rulesFloor: [], p50: [], p99: [], basep99: [], cpu: [], redisCalls: [] },
    ]),
  );
  // Where the service's peak RSS was reached: the high-water mark after each run, in order.
  const peaks = [{ after: 'start and recording', rssMb: Math.round(processStats(service.pid).peakRssMb) }];
  const notePeak = (after) => {
    const rssMb = Math.round(processStats(service.pid).peakRssMb);
    if (rssMb > peaks[peaks.length - 1].rssMb) peaks.push({ after, rssMb });
  };
  // Warm-up: JIT, caches, connections.
  for (const s of scenarios) {
    await run(urlOf(s), s, smoke ? 1 : 2);
    notePeak(`warm-up ${s.name}`);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of scenarios) {
      const pid = s.service === 'redis' ? shared.pid : service.pid;
      const before = processStats(pid);
      const callsBefore = s.service === 'redis' ? await redisCalls(redis.port) : 0;
      const r = await run(urlOf(s), s, DURATION);
      const after = processStats(pid);
      if (s.service !== 'redis') notePeak(`round ${round + 1} ${s.name}`);
      const entry = results[s.name];
      // INFO itself is one command; what is left is the limiter's, per request answered.
      if (s.service === 'redis' && r.requests.total)
        entry.redisCalls.push(((await redisCalls(redis.port)) - callsBefore - 1) / r.requests.total);
      entry.service.push(r.requests.average);
      entry.p50.push(r.latency.p50);
      entry.p99.push(r.latency.p99);
      entry.cpu.push(r.requests.total ? ((after.cpuMs - before.cpuMs) * 1000) / r.requests.total : 0);
      if (!s.mcp) {
        const b = await run(baselineUrl, s, DURATION);
        entry.baseline.push(b.requests.average);
        entry.basep99.push(b.latency.p99);
        entry.floor.push((await run(floorUrl, s, DURATION)).requests.average);
        entry.rulesFloor.push((await run(rulesFloorUrl, s, DURATION)).requests.average);
      }
      if (r.non2xx && !s.refusal && !s.headers?.['if-none-match']) entry.errors = (entry.errors ?? 0) + r.non2xx;
    }
  }
  const peakRssMb = processStats(service.pid).peakRssMb;
  const rulesFloorPeakRssMb = processStats(rulesFloor.pid).peakRssMb;
  shared.child.kill('SIGTERM');
  if (only !== undefined) {
    console.table(
      rowsOf(scenarios, results).map(
        ({ scenario, reqPerSec, baselineReqPerSec, ratio, floorRatio, rulesFloorRatio, cpuUsPerRequest }) => ({
          scenario,
          reqPerSec,
          baselineReqPerSec,
          ratio,
          floorRatio,
          rulesFloorRatio,
          cpuUsPerRequest,
        }),
      ),
    );
    console.log(
      `peak RSS ${Math.round(peakRssMb)} MB (rules floor ${Math.round(rulesFloorPeakRssMb)} MB); rises: ${peaks.map((p) => `${p.rssMb} after ${p.after}`).join(', ')}`,
    );
    redis.child.kill('SIGTERM');
    baseline.kill('SIGKILL');
    floor.kill('SIGKILL');
    rulesFloor.kill('SIGKILL');
    service.child.kill('SIGTERM');
    return;
  }
  const redisBench = redisCapacity(redis.port, smoke);
  const commandsPerRequest = median(results['hetzner.json, Redis rate limit'].redisCalls);
  redis.child.kill('SIGTERM');

  // The 429 path: one client far over its limit for a minute; throughput must not decay.
  const limited = await startService({ RATE_LIMIT_REQUESTS: '10' });
  const perSecond = [];
  await run(limited.url, { path: '/api/providers.json', connections: 20 }, FLOOD_SECONDS, (tick) =>
    perSecond.push(tick.counter),
  );
  const tenth = Math.max(1, Math.floor(FLOOD_SECONDS / 6));
  const flood = {
    firstWindow: median(perSecond.slice(0, tenth)),
    lastWindow: median(perSecond.slice(-tenth)),
    seconds: perSecond.length,
  };
  flood.ratio = flood.lastWindow / flood.firstWindow;
  limited.child.kill('SIGTERM');

  const getProviderP99 = median(results['MCP get_vps_provider'].p99);
  const rows = rowsOf(scenarios, results, commandsPerRequest);
  const search = rows.find((r) => r.scenario === 'MCP search_guides');
  const summary = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    settings: { connections: CONNECTIONS, durationSeconds: DURATION, rounds: ROUNDS, smoke },
    rows,
    flood429: flood,
    searchP99VsGetP99: Number((search.p99Ms / getProviderP99).toFixed(2)),
    peakRssMb: Math.round(peakRssMb),
    peakRssSteps: peaks,
    rulesFloorPeakRssMb: Math.round(rulesFloorPeakRssMb),
    redis: { commandsPerRequest: Number(commandsPerRequest.toFixed(3)), ...redisBench },
  };
  writeFileSync('bench/results.json', `${JSON.stringify(summary, null, 2)}\n`);
  if (!smoke) writeFileSync('bench/README.md', report(summary, tenth));

  console.log(
    `\n${summary.machine.cpus} CPU ${summary.machine.model}, Node ${summary.machine.node}; ${ROUNDS} interleaved rounds of ${DURATION}s, ${CONNECTIONS} connections; medians\n`,
  );
  console.table(rows.map(({ versus, ...r }) => r));
  console.log(
    `429 flood: ${flood.firstWindow} req/s in the first ${tenth}s, ${flood.lastWindow} in the last ${tenth}s (ratio ${flood.ratio.toFixed(2)}, target >= 0.9)`,
  );
  console.log(`search_guides p99 / get_vps_provider p99: ${summary.searchP99VsGetP99} (target <= 3)`);
  console.log(
    `peak RSS of the service: ${summary.peakRssMb} MB (target <= 150; rules floor ${summary.rulesFloorPeakRssMb} MB); rises: ${peaks.map((p) => `${p.rssMb} after ${p.after}`).join(', ')}`,
  );
  console.log(
    `Redis: ${summary.redis.commandsPerRequest} commands per request; one redis-server runs the hit script ${summary.redis.evalPerSecond}/s (${summary.redis.evalPerSecondPipelined16}/s with 16 in flight per connection)`,
  );

  baseline.kill('SIGKILL');
  floor.kill('SIGKILL');
  rulesFloor.kill('SIGKILL');
  service.child.kill('SIGTERM');
  await sleep(200);
}

/**
 * One row per scenario: medians of its rounds and its ratio to the baseline (for MCP rows, to the
 * JSON API's getProvider, when that scenario ran).
 */
function rowsOf(scenarios, results, commandsPerRequest) {
  const getProvider =
    results['hetzner.json (single provider)'] && median(results['hetzner.json (single provider)'].service);
  return scenarios.map((s) => {
    const e = results[s.name];
    const rps = median(e.service);
    const base = s.mcp ? getProvider : median(e.baseline);
    return {
      scenario: s.name,
      reqPerSec: Math.round(rps),
      p50Ms: median(e.p50),
      p99Ms: median(e.p99),
      baselineReqPerSec: Math.round(base),
      ratio: Number((rps / base).toFixed(2)),
      // What Nest and Express alone reach on the same bytes, over the same baseline.
      floorRatio: s.mcp ? undefined : Number((median(e.floor) / base).toFixed(2)),
      // What a Nest app applying every rule the libraries' way reaches on the same bytes (rules-floor-server.mjs).
      rulesFloorRatio: s.mcp ? undefined : Number((median(e.rulesFloor) / base).toFixed(2)),
      versus: s.mcp ? 'JSON API getProvider' : 'bare node:http, same bytes',
      bytes: s.bytes,
      cpuUsPerRequest: Number(median(e.cpu).toFixed(1)),
      target: s.target,
      ...(s.service === 'redis' && commandsPerRequest !== undefined
        ? { redisCommandsPerRequest: Number(commandsPerRequest.toFixed(3)) }
        : {}),
      errors: e.errors ?? 0,
    };
  });
}

/** bench/README.md: the latest full run, the machine, and how to read it. */
function report(summary, tenth) {
  const row = (r) =>
    `| ${r.scenario} | ${r.bytes} | ${r.reqPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.baselineReqPerSec} | **${r.ratio}** | ${r.floorRatio ?? ''} | ${r.rulesFloorRatio ?? ''} | ${r.target ?? ''} | ${r.cpuUsPerRequest} |`;
  return `# Benchmark

\`npm run bench\` builds the service, starts it as production runs it (\`NODE_ENV=production\`, the
Kubernetes Deployment's \`NODE_OPTIONS\` heap limits, JSON access log per request, in-memory rate
limiter with a limit too high to trigger), starts a bare \`node:http\`
server that replays the exact bytes and headers the service answered, and runs autocannon (as a
library) against each in turn: a warm-up, then ${summary.settings.rounds} interleaved rounds of ${summary.settings.durationSeconds} s with ${summary.settings.connections}
connections per scenario. MCP calls are compared with the JSON API's \`getProvider\` instead of a
baseline. Figures are medians of the rounds. \`npm run bench -- --smoke\` (one second each) runs in the
test suite so the benchmark cannot rot; it is not a measurement.

## Latest run

${summary.date.slice(0, 10)} on ${summary.machine.cpus} × ${summary.machine.model}, ${summary.machine.memoryGb} GB, Node ${summary.machine.node}; client and
servers share the machine, so absolute numbers are low and noisy: read the **ratios**, measured in
the same run.

| scenario | body bytes | req/s | p50 ms | p99 ms | baseline req/s | ratio | framework floor | rules floor | target | CPU µs/request |
|---|---|---|---|---|---|---|---|---|---|---|
${summary.rows.map(row).join('\n')}

- 429 flood (one client far over its limit for ${summary.flood429.seconds} s): ${summary.flood429.firstWindow} req/s over the first ${tenth} s, ${summary.flood429.lastWindow} over the last ${tenth} s: ratio **${summary.flood429.ratio.toFixed(2)}** (target ≥ 0.9).
- \`search_guides\` p99 / \`get_vps_provider\` p99: **${summary.searchP99VsGetP99}** (target ≤ 3).
- Peak RSS of the service during the run: **${summary.peakRssMb} MB** (target ≤ 150; the rules floor's, under the non-MCP rows only: ${summary.rulesFloorPeakRssMb} MB); where it rose: ${summary.peakRssSteps.map((p) => `${p.rssMb} MB after ${p.after}`).join('; ')}.
- \`RATE_LIMIT_STORE=redis\` against a real redis-server on the same machine: **${summary.redis.commandsPerRequest}** Redis commands per request (\`INFO commandstats\`); that redis-server runs the limiter's hit script ${summary.redis.evalPerSecond} times a second from 50 clients (${summary.redis.evalPerSecondPipelined16} with 16 commands in flight per connection; \`redis-benchmark\`). Capacity model: [docs/capacity.md](../docs/capacity.md).

## How to read it

- *ratio*: the service's throughput over the baseline's for the same bytes (for MCP rows, over the
  JSON API's \`getProvider\`). 1.0 would mean the whole pipeline costs nothing. The Redis row is the
  same service with its counters in Redis (one round trip per request) against the same bare server.
- MCP rows repeat one call, so after the first they are answered from the MCP answer cache
  (\`MCP_ANSWER_CACHE_BYTES\`); a call never seen before costs what the SDK path costs (docs/performance.md).
- *framework floor*: the same bytes answered by a NestJS application on Express with nothing else
  (\`bench/floor-server.mjs\`: one controller writing the recorded answer; no guard, interceptor,
  filter, logs or metrics), over the same baseline: what the framework the design card names costs on
  its own, the most any row of the service could reach.
- *rules floor*: the same bytes answered by a NestJS application that applies every rule the service
  applies, each the way its library documents it, and nothing else (\`bench/rules-floor-server.mjs\`:
  @nestjs/throttler's ThrottlerGuard over the service's O(1) counter storage, one interceptor writing
  the recorded headers, one exception filter, nestjs-pino's access line, a prom-client counter and
  histogram per request), over the same baseline: what the design card's pipeline costs wherever it is
  built. It has no dataset, pages, MCP, negotiation or request context, so the service is not expected
  above it.
- *CPU µs/request*: user + system CPU time of the service process divided by the requests it answered
  in that run (from \`/proc\`), the least noisy column on a shared machine.
- The raw figures of the run are in \`bench/results.json\` (not committed; written by every run).
- Where a target is not met, [docs/performance.md](../docs/performance.md) says where the time goes,
  from a CPU profile, and what would reach it.
`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
