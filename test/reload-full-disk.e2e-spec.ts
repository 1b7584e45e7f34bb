import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetReloader } from '../src/dataset/dataset-reloader';
import { run } from './support/processes';
import { startTestApp, type TestApp } from './support/test-app';
import {
  copyData,
  metric,
  PATIENT_SERVER,
  scrape,
  servedPrice,
  steadyTraffic,
  watchReloads,
  withFirstPlanPrice,
} from './support/operations';

/*
 * A live reload against a real full disk: the data directory on a tmpfs with a few pages to spare. Mounting
 * needs root, so this is a system suite (CI runs those as root); the rest of the reload tests are
 * test/reload.e2e-spec.ts.
 */
describe('live dataset reload on a full disk', () => {
  let dir: string;
  let mount: string;
  let t: TestApp | undefined;
  const loads = new Set<{ stop: () => Promise<number[]> }>();
  beforeAll(async () => {
    if (process.getuid?.() !== 0)
      throw new Error('This suite mounts a tmpfs, which needs root: run `npm run test:system` as root (CI does).');
    dir = await copyData();
    mount = await mkdtemp(join(tmpdir(), 'vpsapi-full-'));
    // Room for the dataset and a few pages more, whatever its size: a 4 MiB write cannot fit.
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    const datasetKb = (await Promise.all(files.map((e) => stat(join(e.parentPath, e.name))))).reduce(
      (n, s) => n + Math.ceil(s.size / 4096) * 4,
      0,
    );
    expect(await run('mount', ['-t', 'tmpfs', '-o', `size=${datasetKb + 256}k`, 'tmpfs', mount])).toMatchObject({
      code: 0,
    });
    await cp(dir, mount, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all([...loads].map((l) => l.stop()));
    await t?.close();
    if (mount) await run('umount', [mount]);
    await Promise.all([mount, dir].filter(Boolean).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('refuses a dataset left truncated by a full disk, serves the old version meanwhile, and takes the fixed one', async () => {
    t = await startTestApp({ DATA_DIR: mount, DATA_WATCH: 'true', RATE_LIMIT_REQUESTS: '1000000', ...PATIENT_SERVER });
    const served = await servedPrice(t);
    const traffic = steadyTraffic(t, loads);
    const reloads = watchReloads(t);

    // The operator's copy of a new providers.json runs out of space half-way.
    const file = join(mount, 'providers.json');
    const next = await withFirstPlanPrice(mount, 3.33);
    // Whitespace inside the document: whole, it is the same valid JSON; cut short, it is not.
    const padded = `{${' '.repeat(4 * 1024 * 1024)}${next.slice(1)}`;
    await expect(writeFile(file, padded)).rejects.toMatchObject({ code: 'ENOSPC' });
    const left = await readFile(file, 'utf8');
    expect(left.length).toBeLessThan(padded.length);
    expect(await t.app.get(DatasetReloader).reload()).toBe(false);
    // The watcher's reload of the cut file is refused too: two refusals, this test's and the watcher's.
    await reloads.until(async () => metric(await scrape(t!), 'dataset_reloads_total{outcome="failure"}') >= 2);
    expect(await servedPrice(t)).toBe(served);

    // Space freed, the file written again: the new version is served.
    await writeFile(file, next);
    await reloads.until(async () => (await servedPrice(t!)) === 3.33);
    const statuses = await traffic.stop();
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});
