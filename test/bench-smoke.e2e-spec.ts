import { readFileSync } from 'node:fs';
import { run } from './support/processes';

/** `npm run bench -- --smoke` keeps working: every scenario runs for a second against the built service. */
describe('the benchmark, in smoke mode', () => {
  it('measures every scenario against its baseline and writes bench/results.json', async () => {
    const { code, stdout, stderr } = await run('node', ['bench/bench.mjs', '--smoke'], {}, 180_000);
    expect([code, stderr.slice(-500)]).toEqual([0, stderr.slice(-500)]);
    expect(stdout).toContain('429 flood');
    const results = JSON.parse(readFileSync('bench/results.json', 'utf8'));
    expect(results.settings.smoke).toBe(true);
    expect(results.rows.map((r: { scenario: string }) => r.scenario)).toEqual([
      'providers.json identity',
      'providers.json br',
      'hetzner.json (single provider)',
      'guides.json',
      '304 revalidation',
      'hetzner.json, Redis rate limit',
      'plans.json (flat plan table)',
      'HTML page (provider)',
      'markdown page (guide)',
      '404 (API envelope)',
      '404 page (HTML)',
      'MCP get_vps_provider',
      'MCP find_vps_plans',
      'MCP search_guides',
    ]);
    for (const row of results.rows) {
      expect(row.reqPerSec).toBeGreaterThan(0);
      expect(row.baselineReqPerSec).toBeGreaterThan(0);
      expect(row.errors).toBe(0);
      // Every request row is also measured on the framework floor (a bare Nest app on Express) and the
      // rules floor (a Nest app applying the service's rules the libraries' way).
      if (!row.scenario.startsWith('MCP ')) {
        expect(row.floorRatio).toBeGreaterThan(0);
        expect(row.rulesFloorRatio).toBeGreaterThan(0);
      }
    }
    // The service ran on the Node major the image runs, whichever node started the benchmark.
    const imageMajor = /^FROM node:(\d+)/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1];
    expect(results.machine.node.split('.')[0]).toBe(`v${imageMajor}`);
    expect(results.peakRssMb).toBeGreaterThan(0);
    expect(results.rulesFloorPeakRssMb).toBeGreaterThan(0);
    // The shared limit costs Redis commands, counted by Redis itself.
    expect(results.redis.commandsPerRequest).toBeGreaterThan(0);
    expect(results.redis.evalPerSecond).toBeGreaterThan(0);
  }, 180_000);
});
