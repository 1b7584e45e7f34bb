import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './support/processes';

interface SoakInstance {
  samples: number;
  rssGrowth: number;
  fdsAfterWarmup: number;
  fdsAtEnd: number;
}

/**
 * The short form of `npm run soak` (the release check runs it for minutes with 300 clients): three
 * instances behind nginx sharing Redis, 100 well-behaved clients and 3 that hammer past the limit.
 * The script asserts its own verdict; this reads the report back so a broken report cannot pass.
 */
describe('soak across three replicas (short form)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vpsapi-soak-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the limit, answers without 5xx and keeps memory and descriptors flat', async () => {
    const out = join(dir, 'soak.json');
    const { code, stdout, stderr } = await run(
      'node',
      ['scripts/soak.mjs', '--duration', '50', '--clients', '100', '--over', '3', '--out', out],
      {},
      150_000,
    );
    expect([code, stderr.slice(-800)]).toEqual([0, stderr.slice(-800)]);
    expect(stdout).toContain('SOAK PASSED');

    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.settings).toMatchObject({
      durationSeconds: 50,
      clients: 100,
      overLimitClients: 3,
      limit: '600/60s',
      instances: 3,
    });
    expect(report.requests).toBeGreaterThan(5_000);
    expect(report.serverErrors).toBe(0);
    expect(report.failed).toBe(0);
    expect(report.byStatus['200']).toBeGreaterThan(1_000);
    // Conditional requests (fetch() with If-None-Match) were revalidated across the instances.
    expect(report.byStatus['304']).toBeGreaterThan(0);
    // The over-limit clients were refused, every refusal said when to come back, nobody else was refused.
    expect(report.overLimitRefused).toBeGreaterThan(0);
    expect(report.tooManyWithoutRetryAfter).toBe(0);
    expect(report.normalClientsRefused).toBe(0);
    // Three instances, one shared budget. Redis's own count of the hit script proves the budget was
    // shared: it counted nearly every limited request, and together with what the instances counted
    // on their own (the documented fallback while Redis fails or is slow) it counted all of them.
    const limited = report.requests - report.failed;
    expect(report.localFallbackRequests).toHaveLength(3);
    expect(report.storeErrors).toHaveLength(3);
    const fallback = report.localFallbackRequests as number[];
    const storeErrors = report.storeErrors as number[];
    for (const n of [...fallback, ...storeErrors]) expect(Number.isInteger(n)).toBe(true);
    expect(report.sharedStoreCounted).toBeGreaterThanOrEqual(0.9 * limited);
    expect(report.sharedStoreCounted + fallback.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(limited);
    // A request counted locally is excused only on an instance for which Redis actually failed; only
    // those can take a client past the limit.
    fallback.forEach((n, i) => expect([i, n > 0 ? storeErrors[i] > 0 : true]).toEqual([i, true]));
    const excused = fallback.reduce((sum, n, i) => sum + (storeErrors[i] > 0 ? n : 0), 0);
    expect(report.maxAcceptedPerClientWindow).toBeGreaterThan(0);
    expect(report.maxAcceptedPerClientWindow).toBeLessThanOrEqual(600 + excused);
    expect(report.instances).toHaveLength(3);
    for (const instance of report.instances as SoakInstance[]) {
      expect(instance.samples).toBeGreaterThanOrEqual(8);
      expect(instance.rssGrowth).toBeLessThan(0.1);
      expect(instance.fdsAtEnd).toBeLessThanOrEqual(instance.fdsAfterWarmup + 20);
    }
  }, 160_000);
});
