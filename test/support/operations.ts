// Helpers of the operations suites (health, logs, metrics, reload): scraping metrics, copies of the dataset to edit.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetReloader } from '../../src/dataset/dataset-reloader';
import { MetricsService } from '../../src/observability/metrics.service';
import { DATA_DIR } from './raw-data';
import type { TestApp } from './test-app';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function scrape(t: TestApp): Promise<string> {
  const port = t.app.get(MetricsService).port;
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
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
  hetzner.startingPrice = Math.min(...hetzner.plans.map((p: { price: number }) => p.price));
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
    async edit(app: TestApp, file: string, change: (data: any) => void): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any
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
