import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_DIR, rawMeta } from './support/raw-data';
import { run } from './support/processes';
import { copyData, setFirstPlanPrice, sleep } from './support/operations';
import { freePort } from './support/redis-server';

/** The built service (`npm test` builds it first), started the way `npm start` does. */
const MAIN = 'dist/main.js';

describe('the built service at start', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vpsapi-start-'));
    await cp(DATA_DIR, dir, { recursive: true });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const breakProviders = async () => {
    const file = join(dir, 'providers.json');
    const data = JSON.parse(await readFile(file, 'utf8'));
    data.providers[2].plans[1].price = 'ten';
    data.providers[0].currency = 'XXX1';
    await writeFile(file, JSON.stringify(data));
  };

  /** Starts the built service with `env` (PUBLIC_BASE_URL unset unless given); resolves with its URL, its standard error so far and a stop function. */
  async function start(env: Record<string, string>): Promise<{
    url: string;
    stderr: () => string;
    firstErrorLine: () => Promise<string>;
    stop: () => Promise<unknown>;
  }> {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      SHUTDOWN_DELAY_MS: '0',
      ...env,
    };
    if (!('PUBLIC_BASE_URL' in env)) delete childEnv.PUBLIC_BASE_URL;
    const child = spawn('node', [MAIN], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const stop = () => {
      child.kill('SIGTERM');
      return exited;
    };
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
      });
      const firstErrorLine = () =>
        new Promise<string>((resolve) => {
          const check = () => err.includes('\n') && resolve(err.slice(0, err.indexOf('\n')));
          if (!check()) child.stderr.on('data', check);
        });
      return { url, stderr: () => err, firstErrorLine, stop };
    } catch (error) {
      await stop();
      throw error;
    }
  }

  it('serves the embedded dataset on the configured port, its absolute URLs on that port, without a warning', async () => {
    const port = await freePort();
    const service = await start({ PORT: String(port) });
    try {
      const res = await fetch(`${service.url}/api/providers/hetzner.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).provider.url).toBe(`http://localhost:${port}/providers/hetzner`);
      expect(service.stderr()).toBe('');
    } finally {
      await service.stop();
    }
  });

  it('warns at start when PUBLIC_BASE_URL names another port than the one it listens on', async () => {
    const port = await freePort();
    const service = await start({ PORT: String(port), PUBLIC_BASE_URL: 'http://localhost:3000' });
    try {
      expect(await service.firstErrorLine()).toContain(
        `Warning: PUBLIC_BASE_URL http://localhost:3000 names port 3000, not ${port}: absolute URLs in responses point there.`,
      );
    } finally {
      await service.stop();
    }
  });

  it('refuses to start on an invalid dataset, naming file, record and field of every problem', async () => {
    await breakProviders();
    const { code, stderr } = await run('node', [MAIN], { DATA_DIR: dir, PORT: '0' });
    expect(code).toBe(1);
    expect(stderr).toContain(`${join(dir, 'providers.json')}: providers[2] (vultr).plans[1].price: must be a number`);
    expect(stderr).toContain(
      `${join(dir, 'providers.json')}: providers[0] (hetzner).currency: must be a valid ISO4217 currency code`,
    );
    expect(stderr).not.toMatch(/\bat \S+ \(/);
  });

  it('refuses to start on invalid settings, listing every bad key', async () => {
    const { code, stderr } = await run('node', [MAIN], { PORT: 'abc', PUBLIC_BASE_URL: 'not a url' });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT: must be an integer from 0 to 65535 (got "abc")');
    expect(stderr).toContain('PUBLIC_BASE_URL: must be an absolute http(s) URL');
  });

  it('refuses a headers timeout longer than the request timeout with a message, not a stack trace', async () => {
    const { code, stderr } = await run('node', [MAIN], {
      PORT: '0',
      METRICS_PORT: '0',
      HEADERS_TIMEOUT_MS: '40000',
      REQUEST_TIMEOUT_MS: '20000',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('HEADERS_TIMEOUT_MS: must not be greater than REQUEST_TIMEOUT_MS, which is 20000');
    expect(stderr).toContain('(got "40000")');
    expect(stderr).not.toContain('ERR_OUT_OF_RANGE');
    expect(stderr).not.toMatch(/\bat \S+ \(/);
  });

  it('checks a dataset for editors with data:validate', async () => {
    const ok = await run('node', ['dist/cli/validate-dataset.js', dir]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      new RegExp(`valid dataset ${rawMeta.version}: 8 providers, \\d+ use cases, \\d+ guides, 4 authors`),
    );

    await breakProviders();
    const bad = await run('node', ['dist/cli/validate-dataset.js', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split('\n').filter((l) => l.includes('providers.json:'))).toHaveLength(2);
    expect(bad.stderr).toContain(`2 problems in ${dir}`);
  });
});

describe('src/metadata.ts (the swagger plugin metadata tests run with)', () => {
  it('is what the plugin generates from the current source', async () => {
    const { code, stdout, stderr } = await run(
      'node',
      ['scripts/generate-swagger-metadata.mjs', '--check'],
      {},
      120_000,
    );
    expect(stderr + stdout).toContain('src/metadata.ts is up to date.');
    expect(code).toBe(0);
  }, 120_000);
});

describe('SIGHUP', () => {
  it('reloads the dataset of the built service', async () => {
    const dir = await copyData();
    const port = await freePort();
    const child = spawn('node', [MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        DATA_DIR: dir,
        DATA_WATCH: 'false',
        LOG_LEVEL: 'warn',
        SHUTDOWN_DELAY_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => String(d).includes('listening on') && resolve());
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      await setFirstPlanPrice(dir, 7.77);
      await sleep(300);
      const price = async () =>
        ((await (await fetch(`http://127.0.0.1:${port}/api/providers/hetzner.json`)).json()) as any).provider.plans[0]
          .price;
      expect(await price()).not.toBe(7.77);
      child.kill('SIGHUP');
      const deadline = Date.now() + 8000;
      while (Date.now() < deadline && (await price()) !== 7.77) await sleep(100);
      expect(await price()).toBe(7.77);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
