// Helpers of the operations suites (health, logs, metrics, reload): scraping metrics, copies of the dataset to edit.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetReloader } from '../../src/dataset/dataset-reloader';
import { MetricsService } from '../../src/observability/metrics.service';
import { DATA_DIR } from './raw-data';
import { scaled } from './time';
import type { TestApp } from './test-app';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One scrape of the app's metrics server, on a connection of its own that closes after the answer. (A
 * pooled keep-alive connection can be closed by the server's idle timeout at the moment it is reused, an
 * ECONNRESET when a reload between two scrapes takes long on a busy machine.)
 */
export function scrape(t: TestApp): Promise<string> {
  const port = t.app.get(MetricsService).port;
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`GET /metrics answered ${res.statusCode}`)),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * The reloads an app runs from now on, each as its outcome (true: the new version is served), in order:
 * the file watcher's, SIGHUP's and a test's own. Start watching before the change that causes a reload,
 * so that none is missed; a test then waits for the reload itself, never for a guessed delay.
 */
export function watchReloads(t: TestApp) {
  const reloader = t.app.get(DatasetReloader);
  const reload = reloader.reload.bind(reloader);
  const done: boolean[] = [];
  const waiting: ((outcome: boolean) => void)[] = [];
  jest.spyOn(reloader, 'reload').mockImplementation(() => {
    const outcome = reload();
    void outcome.then((ok) => {
      const next = waiting.shift();
      if (next) next(ok);
      else done.push(ok);
    });
    return outcome;
  });
  const next = (): Promise<boolean> =>
    done.length > 0 ? Promise.resolve(done.shift()!) : new Promise((resolve) => waiting.push(resolve));
  return {
    /** The outcome of the next reload that ends (one that ended since the last call first). */
    next,
    /** Waits for reloads until `check` holds (checked first, then after each reload). */
    async until(check: () => Promise<boolean>): Promise<void> {
      while (!(await check())) await next();
    },
    /** Waits for reloads until one ends with `outcome`. */
    async untilOutcome(outcome: boolean): Promise<void> {
      while ((await next()) !== outcome);
    },
  };
}

/**
 * Settings for an app that clients keep requesting through a reload: the server's own wall-clock limits,
 * which a starved machine can pass while a reload precomputes (a 408 that says nothing about the swap),
 * made long and scaled by TEST_TIME_SCALE. The limits themselves are tested in http-behaviour and slow-clients.
 */
const patient = String(Math.min(scaled(120_000), 600_000)); // 600 s: the most the settings accept
export const PATIENT_SERVER = { HEADERS_TIMEOUT_MS: patient, REQUEST_TIMEOUT_MS: patient };

/** Hetzner's first plan price as served now. */
export async function servedPrice(t: TestApp): Promise<number | undefined> {
  return (await t.http.get('/api/providers/hetzner.json')).body.provider?.plans[0].price;
}

/**
 * Four clients requesting Hetzner's record until `stop`, which resolves with every status seen (-1 for a
 * 200 that was not Hetzner's). `running` holds the ones not stopped yet, for a suite's afterEach.
 */
export function steadyTraffic(
  app: TestApp,
  running: Set<{ stop: () => Promise<number[]> }>,
): { stop: () => Promise<number[]> } {
  let on = true;
  const statuses: number[] = [];
  const clients = Array.from({ length: 4 }, async () => {
    while (on) {
      const res = await app.http.get('/api/providers/hetzner.json');
      statuses.push(res.status);
      if (res.status === 200 && res.body.provider.id !== 'hetzner') statuses.push(-1);
    }
  });
  const handle = {
    stop: async () => {
      on = false;
      running.delete(handle);
      await Promise.all(clients);
      return statuses;
    },
  };
  running.add(handle);
  return handle;
}
/** The value of one series in a Prometheus text exposition, 0 when absent. */
export function metric(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

export async function copyData(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vpsapi-reload-'));
  await cp(DATA_DIR, dir, { recursive: true });
  return dir;
}
/** providers.json of `dir` with Hetzner's first plan at `price` (and its starting price to match), as text. */
export async function withFirstPlanPrice(dir: string, price: number): Promise<string> {
  const data = JSON.parse(await readFile(join(dir, 'providers.json'), 'utf8'));
  const hetzner = data.providers.find((p: { id: string }) => p.id === 'hetzner');
  hetzner.plans[0].price = price;
  // The starting price is the cheapest plan that can be ordered (the first plan may be one that cannot).
  const orderable = hetzner.plans.filter(
    (p: { availability?: { orderable: boolean } }) => p.availability?.orderable !== false,
  );
  hetzner.startingPrice = Math.min(...orderable.map((p: { price: number }) => p.price));
  return JSON.stringify(data, null, 2);
}
export async function setFirstPlanPrice(dir: string, price: number): Promise<void> {
  await writeFile(join(dir, 'providers.json'), await withFirstPlanPrice(dir, price));
}

/**
 * For a suite whose app serves a copy of the dataset that a test edits: `edit` rewrites one JSON file of
 * it and reloads, and the file is put back (and reloaded) before the next test runs, so every test reads
 * the embedded data whatever ran before it. Call at the level whose tests share the app.
 */
export function datasetEdits() {
  let undo: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const pending = undo;
    undo = undefined;
    await pending?.();
  });
  return {
    /** Writes `change`'s edit of `file` (parsed JSON) and reloads `app`; the original is back before the next test. */
    async edit(app: TestApp, file: string, change: (data: any) => void): Promise<void> {
      // eslint-disable-line @typescript-eslint/no-explicit-any
      const original = await readFile(file, 'utf8');
      const reload = async () => expect(await app.app.get(DatasetReloader).reload()).toBe(true);
      undo = async () => {
        await writeFile(file, original);
        await reload();
      };
      const data = JSON.parse(original);
      change(data);
      await writeFile(file, JSON.stringify(data, null, 2));
      await reload();
    },
  };
}
