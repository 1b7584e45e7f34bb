import { rm } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DatasetReloader } from '../src/dataset/dataset-reloader';
import { DatasetService } from '../src/dataset/dataset.service';
import { McpAnswers } from '../src/mcp/mcp-answers';
import { connectMcp } from './support/mcp-client';
import { copyData } from './support/operations';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The caches built from the dataset give their memory back when it is replaced: the remembered MCP
 * answers are emptied as a reload begins, and nothing keeps the replaced version alive afterwards
 * (docs/reliability.md lists every cache and its bound).
 */
describe('caches across a dataset reload', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await copyData();
    t = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '100000', PRECOMPUTE_VIEWS: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('empties the remembered MCP answers when a reload begins, and lets the replaced dataset go', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const answers = t.app.get(McpAnswers);
    const client = await connectMcp(t.baseUrl);
    try {
      // Answers, and the resource list, built from the dataset being served.
      for (const id of ['hetzner', 'vultr', 'linode'])
        await client.callTool({ name: 'get_vps_provider', arguments: { id } });
      await client.listResources();
      expect(answers.size).toBeGreaterThan(0);

      const replaced = new WeakRef(t.app.get(DatasetService).current);
      const reload = t.app.get(DatasetReloader).reload();
      // Emptied before the new version is read, not on the next call after it is served.
      expect(answers.size).toBe(0);
      expect(await reload).toBe(true);
      expect(t.app.get(DatasetService).current).not.toBe(replaced.deref());

      // No cache holds the replaced snapshot: once collected, its views and documents go with it.
      for (let i = 0; i < 5 && replaced.deref() !== undefined; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
      }
      expect(replaced.deref()).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
