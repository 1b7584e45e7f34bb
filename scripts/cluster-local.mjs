// `npm run cluster:local`: the deployed shape on one machine, on loopback only. Three instances of the
// built service share one redis-server for the rate limit and sit behind nginx as the load balancer
// (it sets X-Forwarded-For and X-Forwarded-Proto; the instances trust loopback). Installs nginx and
// redis-server from Debian when missing (as root). Stops everything on Ctrl-C.
// Also a module: startCluster() gives tests and the soak the same setup with start/stop/kill/reload.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const has = (binary) => spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;

export function ensurePackages(packages) {
  const missing = packages.filter(([, binary]) => !has(binary)).map(([name]) => name);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`Install ${missing.join(' ')} (apt-get install ${missing.join(' ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
}

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check, what, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come up`);
}

/**
 * Starts redis-server, `instances` copies of dist/main.js and nginx in front of them.
 * Options: instances (3), env (extra settings for every instance), nodeArgs (node flags before the
 * script, e.g. the image's), dataDir.
 */
export async function startCluster({ instances = 3, env = {}, nodeArgs = [], dataDir, quiet = true } = {}) {
  ensurePackages([['redis-server', 'redis-server'], ['nginx', 'nginx']]);
  const root = mkdtempSync(join(tmpdir(), 'vpsapi-cluster-'));
  const lbPort = await freePort();
  const redisPort = await freePort();
  const lbUrl = `http://127.0.0.1:${lbPort}`;
  const stdio = quiet ? 'ignore' : 'inherit';

  const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio });
  await waitFor(async () => spawnSync('redis-cli', ['-p', String(redisPort), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG', 'redis-server');

  const nodes = [];
  const startInstance = async (i) => {
    const port = nodes[i]?.port ?? (await freePort());
    const metricsPort = nodes[i]?.metricsPort ?? (await freePort());
    const child = spawn('node', [...nodeArgs, resolve('dist/main.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: '127.0.0.1',
        PUBLIC_BASE_URL: lbUrl,
        RATE_LIMIT_STORE: 'redis',
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        TRUST_PROXY: 'loopback',
        SHUTDOWN_DELAY_MS: '1000',
        SHUTDOWN_TIMEOUT_MS: '5000',
        LOG_LEVEL: 'warn',
        LOG_PRETTY: 'false',
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
        ...env,
      },
      stdio: ['ignore', quiet ? 'ignore' : 'inherit', quiet ? 'pipe' : 'inherit'],
    });
    // Quiet instances still keep their last stderr lines, so an unexpected exit can be explained.
    const node = { port, metricsPort, child, url: `http://127.0.0.1:${port}`, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, stderrTail: '' };
    child.stderr?.on('data', (chunk) => (node.stderrTail = (node.stderrTail + chunk).slice(-4000)));
    node.exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
    nodes[i] = node;
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, `instance ${i}`);
    return nodes[i];
  };
  for (let i = 0; i < instances; i++) await startInstance(i);

  const writeNginxConfig = () =>
    writeFileSync(
      join(root, 'nginx.conf'),
      `worker_processes 1;
pid ${join(root, 'nginx.pid')};
error_log ${join(root, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${root}/body; proxy_temp_path ${root}/proxy; fastcgi_temp_path ${root}/fastcgi; uwsgi_temp_path ${root}/uwsgi; scgi_temp_path ${root}/scgi;
  upstream vpsapi {
${nodes.map((n) => `    server 127.0.0.1:${n.port} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${lbPort};
    location / {
      proxy_pass http://vpsapi;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A replica that is draining (503) or gone is skipped for idempotent requests.
      proxy_next_upstream error timeout http_503;
      proxy_next_upstream_tries 3;
    }
  }
}
`,
    );
  writeNginxConfig();
  const nginx = spawn('nginx', ['-p', root, '-c', join(root, 'nginx.conf'), '-g', 'daemon off;'], { stdio });
  await waitFor(async () => (await fetch(`${lbUrl}/healthz`)).ok, 'nginx');

  return {
    lbUrl,
    redisPort,
    nodes,
    /** SIGTERM one instance, wait for its exit, start it again on the same port. */
    async restart(i) {
      nodes[i].child.kill('SIGTERM');
      const exit = await nodes[i].exited;
      await startInstance(i);
      return exit;
    },
    /** SIGKILL one instance (no cleanup at all). */
    async kill(i) {
      nodes[i].child.kill('SIGKILL');
      return nodes[i].exited;
    },
    start: startInstance,
    /** SIGHUP every instance: reload the dataset. */
    reloadAll() {
      for (const n of nodes) n.child.kill('SIGHUP');
    },
    async stop() {
      nginx.kill('SIGQUIT');
      for (const n of nodes) n.child.kill('SIGTERM');
      await Promise.all(nodes.map((n) => n.exited));
      redis.kill('SIGKILL');
      await sleep(100);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function main() {
  const cluster = await startCluster({ quiet: false });
  console.log(`\nvpsapi cluster on loopback:
  load balancer  ${cluster.lbUrl}  (nginx)
  instances      ${cluster.nodes.map((n) => n.url).join('  ')}
  metrics        ${cluster.nodes.map((n) => n.metricsUrl).join('  ')}
  redis          127.0.0.1:${cluster.redisPort}
Try: curl -si ${cluster.lbUrl}/api/index.json | grep RateLimit
Rolling restart: kill -TERM <pid> of an instance; reload all: kill -HUP <pids> (${cluster.nodes.map((n) => n.child.pid).join(' ')}).
Ctrl-C stops everything.`);
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1]?.endsWith('cluster-local.mjs')) void main();
