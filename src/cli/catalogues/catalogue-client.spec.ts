import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueClient, CatalogueHttpError, retryAfterMs, USER_AGENT } from './catalogue-client';
import { CatalogueFormatError } from './catalogue';
import { startReplayServer, type ReplayServer } from './replay-server';

describe(CatalogueClient.name, () => {
  let dir: string;
  let server: ReplayServer;
  const waits: number[] = [];
  const client = (options: ConstructorParameters<typeof CatalogueClient>[1] = {}) =>
    new CatalogueClient(server.baseUrlOf('shop'), {
      baseDelayMs: 5,
      sleep: async (ms) => void waits.push(ms),
      ...options,
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalogue-client-'));
    await mkdir(join(dir, 'shop'));
    await writeFile(join(dir, 'shop', 'plans.json'), JSON.stringify({ plans: [{ id: 'a' }] }));
    await writeFile(
      join(dir, 'shop', 'recording.json'),
      JSON.stringify({
        provider: 'shop',
        observedAt: '2026-10-01',
        retrievedAt: '2026-11-26',
        source: { url: 'https://example.com/copy', copyOf: 'https://api.example.com/plans' },
        answers: [{ path: '/plans', file: 'plans.json' }],
      }),
    );
    server = await startReplayServer(dir, ['shop']);
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => (waits.length = 0));

  it('reads a JSON answer and names the project in User-Agent', async () => {
    expect(await client().getJson('/plans')).toEqual({ plans: [{ id: 'a' }] });
    expect(USER_AGENT).toMatch(/^vpsapi-catalogue-refresher\//);
  });

  it('waits as long as Retry-After says after a 429, then reads the answer', async () => {
    server.inject({ provider: 'shop', path: '/plans', kind: 'status', status: 429, retryAfter: '2', times: 1 });
    expect(await client().getJson('/plans')).toEqual({ plans: [{ id: 'a' }] });
    expect(waits).toEqual([2000]);
  });

  it('retries a 5xx with a growing backoff, then reads the answer', async () => {
    server.inject({ provider: 'shop', path: '/plans', kind: 'status', status: 503, times: 2 });
    expect(await client().getJson('/plans')).toEqual({ plans: [{ id: 'a' }] });
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThanOrEqual(10);
    expect(waits[0]).toBeLessThan(waits[1]);
  });

  it('abandons an attempt that does not answer within the timeout, and retries it', async () => {
    server.inject({ provider: 'shop', path: '/plans', kind: 'stall', times: 1 });
    const started = Date.now();
    // Long enough that the retry, answered at once, never times out too on a busy machine.
    expect(await client({ timeoutMs: 1500 }).getJson('/plans')).toEqual({ plans: [{ id: 'a' }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1450);
    expect(waits).toHaveLength(1);
  });

  it('gives up after its attempts, naming the URL and the last problem', async () => {
    server.inject({ provider: 'shop', path: '/plans', kind: 'status', status: 500, times: 3 });
    await expect(client({ maxAttempts: 3 }).getJson('/plans')).rejects.toThrow(
      /\/shop\/plans: HTTP 500 after 3 attempts/,
    );
  });

  it('does not retry a 4xx other than 429, and says what a 401 means', async () => {
    server.inject({ provider: 'shop', path: '/plans', kind: 'status', status: 401, times: 1 });
    const error = await client()
      .getJson('/plans')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogueHttpError);
    expect((error as CatalogueHttpError).status).toBe(401);
    expect((error as Error).message).toContain('the token is missing, wrong or lacks read access');
    expect(waits).toEqual([]);
  });

  it('refuses a Retry-After longer than it is allowed to wait', async () => {
    server.inject({ provider: 'shop', path: '/plans', kind: 'status', status: 429, retryAfter: '3600', times: 1 });
    await expect(client({ maxRetryAfterMs: 10_000 }).getJson('/plans')).rejects.toThrow(
      /Retry-After 3600 s, longer than the 10 s this run waits/,
    );
  });

  it('calls a body that is not JSON a format error, not a network one', async () => {
    server.inject({ provider: 'shop', path: '/plans', kind: 'body', body: '<html>maintenance</html>', times: 1 });
    await expect(client().getJson('/plans')).rejects.toThrow(CatalogueFormatError);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Fri, 27 Nov 2026 00:00:10 GMT', Date.parse('2026-11-27T00:00:00Z'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe('CatalogueClient bounds', () => {
  let origin: Server;
  let elsewhere: Server;
  let base: string;
  let elsewhereUrl: string;
  /** Requests the other origin received: none may arrive. */
  const reached: string[] = [];
  /** Bytes the endless answer wrote before the client hung up. */
  let streamed = 0;
  let hungUp: Promise<void>;

  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      reached.push(req.url ?? '');
      res.end('{"plans": []}');
    });
    elsewhereUrl = await listen(elsewhere);
    origin = createServer((req, res) => {
      if (req.url === '/plans') return void res.end('{"plans": [1]}');
      if (req.url === '/moved') return void res.writeHead(301, { location: '/plans' }).end();
      if (req.url === '/away') return void res.writeHead(302, { location: `${elsewhereUrl}/latest/meta-data/` }).end();
      if (req.url === '/metadata')
        return void res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/declared-huge')
        return void res.writeHead(200, { 'content-length': String(400 * 1024 * 1024) }).write('{');
      if (req.url === '/endless') {
        hungUp = new Promise((resolve) => res.on('close', resolve));
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (!res.destroyed && streamed < 64 * 1024 * 1024) {
            streamed += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      res.writeHead(404).end();
    });
    base = await listen(origin);
  });
  afterAll(async () => {
    for (const server of [origin, elsewhere]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const client = () =>
    new CatalogueClient(base, { maxBodyBytes: 1024 * 1024, maxAttempts: 1, sleep: async () => undefined });

  it('follows a redirect on its own origin', async () => {
    await expect(client().getJson('/moved')).resolves.toEqual({ plans: [1] });
  });

  it('refuses a redirect to another origin or to a link-local address, and never sends it a request', async () => {
    await expect(client().getJson('/away')).rejects.toThrow(`redirects to ${elsewhereUrl}, another origin`);
    await expect(client().getJson('/metadata')).rejects.toThrow('redirects to http://169.254.169.254, another origin');
    await expect(client().getJson('/loop')).rejects.toThrow('redirects more than 5 times');
    expect(reached).toEqual([]);
  });

  it('refuses a body whose Content-Length is over the cap before reading it', async () => {
    await expect(client().getJson('/declared-huge')).rejects.toThrow(
      `answered with ${400 * 1024 * 1024} bytes, over the 1048576-byte cap`,
    );
  });

  it('stops reading a body that grows past the cap, and hangs up on it', async () => {
    const error = await client()
      .getJson('/endless')
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(CatalogueFormatError);
    expect((error as Error).message).toContain('more than 1048576 bytes');
    await hungUp;
    // What was in flight when the client hung up, never the 64 MiB the server would have sent.
    expect(streamed).toBeLessThan(16 * 1024 * 1024);
  });
});
