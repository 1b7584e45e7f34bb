import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
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
    expect(await client({ timeoutMs: 300 }).getJson('/plans')).toEqual({ plans: [{ id: 'a' }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
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
