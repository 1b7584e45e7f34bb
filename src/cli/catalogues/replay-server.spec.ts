import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplayServer, type ReplayServer } from './replay-server.js';

describe(startReplayServer.name, () => {
  let root: string;
  let server: ReplayServer;
  const SECRET = 'a file outside the recordings';

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'replay-server-'));
    const from = join(root, 'from');
    await mkdir(join(from, 'shop'), { recursive: true });
    await writeFile(join(root, 'secret.json'), JSON.stringify(SECRET));
    await writeFile(join(from, 'shop', 'plans.json'), '{"plans": []}');
    await symlink(join(root, 'secret.json'), join(from, 'shop', 'linked.json'));
    await writeFile(
      join(from, 'shop', 'recording.json'),
      JSON.stringify({
        provider: 'shop',
        observedAt: '2026-10-01',
        retrievedAt: '2026-11-26',
        source: { url: 'https://example.com/copy', copyOf: 'https://api.example.com/plans' },
        answers: [
          { path: '/plans', file: 'plans.json' },
          { path: '/up', file: '../../secret.json' },
          { path: '/absolute', file: join(root, 'secret.json') },
          { path: '/linked', file: 'linked.json' },
        ],
      }),
    );
    server = await startReplayServer(from, ['shop']);
  });
  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves the recorded files inside its directory', async () => {
    const response = await fetch(`${server.baseUrlOf('shop')}/plans`);
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { plans: [] } });
  });

  it('refuses a recorded file outside its directory: up the tree, absolute, or through a link', async () => {
    for (const path of ['/up', '/absolute', '/linked']) {
      const response = await fetch(`${server.baseUrlOf('shop')}${path}`);
      const body = await response.text();
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(body).not.toContain(SECRET);
    }
  });
});
