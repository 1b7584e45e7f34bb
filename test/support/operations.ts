// Helpers of the operations suites (health, logs, metrics, reload): scraping metrics, copies of the dataset to edit.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
