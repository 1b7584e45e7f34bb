import { cp, mkdtemp, readFile, rename, rm, symlink, writeFile, readdir, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetReloader } from '../src/dataset/dataset-reloader';
import { MarkdownRenderer } from '../src/pages/markdown-renderer';
import { DATA_DIR } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';
import {
  scrape,
  metric,
  copyData,
  PATIENT_SERVER,
  servedPrice,
  setFirstPlanPrice,
  steadyTraffic,
  watchReloads,
} from './support/operations';

describe('live dataset reload', () => {
  let dir: string;
  let t: TestApp;
  beforeEach(async () => {
    dir = await copyData();
  });
  // Traffic still running when a test fails is stopped before its app is closed (or closing waits on it forever).
  const loads = new Set<{ stop: () => Promise<number[]> }>();
  afterEach(async () => {
    await Promise.all([...loads].map((l) => l.stop()));
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a changed file without a restart, refuses a broken one, and fails no request meanwhile', async () => {
    t = await startTestApp({ DATA_DIR: dir, DATA_WATCH: 'true', RATE_LIMIT_REQUESTS: '1000000', ...PATIENT_SERVER });
    const before = await t.http.get('/api/providers/hetzner.json');
    const traffic = steadyTraffic(t, loads);
    const reloads = watchReloads(t);

    await setFirstPlanPrice(dir, 2.99);
    await reloads.until(async () => (await servedPrice(t)) === 2.99);
    const after = await t.http.get('/api/providers/hetzner.json');
    expect(after.headers.etag).not.toBe(before.headers.etag);

    await writeFile(join(dir, 'providers.json'), '{"providers": [ broken');
    await reloads.untilOutcome(false);
    expect(await servedPrice(t)).toBe(2.99);

    const statuses = await traffic.stop();
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const text = await scrape(t);
    expect(metric(text, 'dataset_reloads_total{outcome="success"}')).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'dataset_reloads_total{outcome="failure"}')).toBeGreaterThanOrEqual(1);
  });

  it('rebuilds every derived document: search, pages and MCP answers follow the new version', async () => {
    t = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '1000000' });
    const guide = join(dir, 'guides', 'swap-file.md');
    await writeFile(
      guide,
      (await readFile(guide, 'utf8')).replace(/\n---\n/, '\n---\nZanzibarquux is a word no other guide has.\n\n'),
    );
    expect(await t.app.get(DatasetReloader).reload()).toBe(true);
    const mcp = await t.http
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_guides', arguments: { query: 'zanzibarquux' } },
      });
    expect(mcp.body.result.structuredContent.results[0].slug).toBe('swap-file');
    expect((await t.http.get('/guides/swap-file')).text).toContain('Zanzibarquux');
  });

  it('follows a Kubernetes ConfigMap swap of the symlinked data directory', async () => {
    const mount = await mkdtemp(join(tmpdir(), 'vpsapi-configmap-'));
    try {
      await cp(dir, join(mount, '..v1'), { recursive: true });
      await symlink('..v1', join(mount, '..data'));
      for (const entry of await readdir(join(mount, '..v1'))) await symlink(join('..data', entry), join(mount, entry));
      t = await startTestApp({ DATA_DIR: mount, DATA_WATCH: 'true', RATE_LIMIT_REQUESTS: '1000000' });
      const reloads = watchReloads(t);

      await cp(dir, join(mount, '..v2'), { recursive: true });
      await setFirstPlanPrice(join(mount, '..v2'), 1.11);
      await symlink('..v2', join(mount, '..data_tmp'));
      await rename(join(mount, '..data_tmp'), join(mount, '..data'));
      await reloads.until(async () => (await servedPrice(t)) === 1.11);
    } finally {
      await rm(mount, { recursive: true, force: true });
    }
  });

  it('refuses a data directory that has disappeared and keeps serving', async () => {
    t = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '1000000' });
    await rm(dir, { recursive: true, force: true });
    expect(await t.app.get(DatasetReloader).reload()).toBe(false);
    await t.http.get('/api/providers/hetzner.json').expect(200);
    await t.http.get('/guides/swap-file').expect(200);
  });

  it('refuses an unreadable data directory and keeps serving', async () => {
    t = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '1000000' });
    await rm(join(dir, 'guides'), { recursive: true });
    await mkdir(join(dir, 'guides'));
    await writeFile(join(dir, 'guides', 'x.md'), 'no front matter');
    expect(await t.app.get(DatasetReloader).reload()).toBe(false);
    await t.http.get('/guides/swap-file').expect(200);
  });
});

describe('the views of the dataset (PRECOMPUTE_VIEWS)', () => {
  // The rendered guides stand for every view: the guide pages render markdown only when the site is built.
  let renders: jest.SpyInstance;
  let t: TestApp | undefined;
  beforeEach(() => {
    renders = jest.spyOn(MarkdownRenderer.prototype, 'render');
  });
  afterEach(async () => {
    renders.mockRestore();
    await t?.close();
    t = undefined;
  });

  it('are all built before the first request by default, as in production', async () => {
    t = await startTestApp({ PRECOMPUTE_VIEWS: undefined });
    const atStart = renders.mock.calls.length;
    expect(atStart).toBeGreaterThan(100);
    await t.http.get('/guides/swap-file').expect(200);
    expect(renders.mock.calls.length).toBe(atStart);
  });

  it('are built on first use with PRECOMPUTE_VIEWS=false, and all of them before a reload swaps', async () => {
    const dir = await copyData();
    try {
      t = await startTestApp({ DATA_DIR: dir, PRECOMPUTE_VIEWS: 'false' });
      expect(renders).not.toHaveBeenCalled();
      await t.http.get('/guides/swap-file').expect(200);
      const built = renders.mock.calls.length;
      expect(built).toBeGreaterThan(100);
      await setFirstPlanPrice(dir, 7.77);
      expect(await t.app.get(DatasetReloader).reload()).toBe(true);
      expect(renders.mock.calls.length).toBeGreaterThanOrEqual(2 * built);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
