import { join } from 'node:path';
import { BROKEN_PLAN, STEP_PLANS } from './support/tutorials/step-plans.js';
import { provisionRoot, runTutorial, type StepResult } from './support/tutorials/steps.js';
import { RAN_WITH_FILE, ranWith, readRanWith, writeRanWith } from './support/tutorials/verified-with.js';

/*
 * The executed runner (issue #42; docs/testing.md, "Tutorials executed on a fresh Debian 13 root"): each
 * planned tutorial's steps run in order in a throwaway overlay of a debootstrapped Debian 13 root, with no
 * network, and every step must do what it is expected to do. A fixture with the borgmatic and set -e
 * mistakes must fail. Each run records the software the tutorial installed, at the root's versions, and
 * must find it in the committed record (test/support/tutorials/ran-with.json) that the tutorial checker's
 * verifiedWith test compares every tutorial's verifiedWith with; TUTORIAL_STEPS_RECORD=1 rewrites a
 * tutorial's entry there instead.
 */
const failures = (results: StepResult[]) =>
  results.filter((r) => r.problems.length).map((r) => `line ${r.line} (${r.kind}): ${r.problems.join('; ')}`);

describe('tutorials executed on a fresh Debian 13 root', () => {
  let root: string;
  beforeAll(() => {
    const provisioned = provisionRoot();
    root = provisioned.root;
    if (provisioned.seconds) console.log(`provisioned the Debian 13 root in ${provisioned.seconds.toFixed(0)} s`);
  }, 1_200_000);

  // TUTORIALS=slug,slug runs only those plans (as in tutorial-configs); the fixtures always run.
  const only = process.env.TUTORIALS?.split(',');
  it.each(STEP_PLANS.filter((p) => !only || only.includes(p.slug)).map((p) => [p.slug, p] as const))(
    '%s: every step does what it should',
    async (_slug, plan) => {
      const { results, installed, packages } = await runTutorial(plan, root);
      // The runner's output names each step it did not run, and why (docs/testing.md lists them too).
      const skipped = results.filter((r) => r.kind === 'skipped');
      if (skipped.length)
        console.log(`${plan.slug}: skipped\n${skipped.map((r) => `  line ${r.line}: ${r.output}`).join('\n')}`);
      expect(results.filter((r) => r.kind === 'shell' || r.kind === 'file').length).toBeGreaterThan(0);
      expect(failures(results)).toEqual([]);
      // What the tutorial ran with is what the record (and so its verifiedWith) says.
      const ran = ranWith(installed, packages);
      const record = readRanWith();
      if (process.env.TUTORIAL_STEPS_RECORD)
        writeRanWith({ ...record, tutorials: { ...record.tutorials, [plan.slug]: ran } });
      else
        expect({ [RAN_WITH_FILE]: { [plan.slug]: ran } }).toEqual({
          [RAN_WITH_FILE]: { [plan.slug]: record.tutorials[plan.slug] },
        });
    },
    900_000,
  );

  it('fails on borgmatic-backups as it was at fdf64a3: the dump connects as role root', async () => {
    const { results } = await runTutorial(
      {
        ...STEP_PLANS.find((p) => p.slug === 'borgmatic-backups')!,
        file: join(__dirname, 'fixtures', 'tutorial-day-two', 'before-42', 'borgmatic-backups.md'),
      },
      root,
    );
    expect(failures(results).join('\n')).toMatch(/\(shell\): exited 1: .*role "root" does not exist/);
  }, 900_000);

  // The tutorials as they were before the run found what this round fixed (test/fixtures/tutorial-steps/before-42b/).
  it.each<[string, string, RegExp[]]>([
    [
      'zero-downtime-deploys',
      'no step makes the deploy script executable or runs it',
      [/\(shell\): exited 1: sudo: \/srv\/api\/deploy\.sh: command not found/],
    ],
    [
      'restore-drills',
      "pg_dumpall's CREATE ROLE postgres stops the ON_ERROR_STOP restore",
      [/line 68 \(shell\): exited 3: .*role "postgres" already exists/],
    ],
    [
      'python-app-gunicorn-nginx',
      'nginx may use neither the socket nor the static files in a mode 700 home',
      [
        /\(verify\): exited 1: curl: \(22\) The requested URL returned error: 502/,
        /\(verify\): exited 1: curl: \(22\) The requested URL returned error: 403/,
      ],
    ],
    ['self-host-nextcloud', 'no step makes the .env mode 600', [/\(verify\): exited 1: 644:root/]],
  ])(
    'fails on %s as it was before its fix: %s',
    async (slug, _what, found) => {
      const plan = STEP_PLANS.find((p) => p.slug === slug)!;
      const { results } = await runTutorial(
        { ...plan, file: join(__dirname, 'fixtures', 'tutorial-steps', 'before-42b', `${slug}.md`) },
        root,
      );
      for (const f of found) expect(failures(results).join('\n')).toMatch(f);
    },
    900_000,
  );

  it('fails on the fixture: the borgmatic dump as root, and a set -e script that goes on after nginx -t fails', async () => {
    const { results } = await runTutorial(BROKEN_PLAN, root);
    const found = failures(results).join('\n');
    expect(found).toMatch(/line 24 \(shell\): exited 1: .*role "root" does not exist/);
    expect(found).toMatch(
      /line 39 \(shell\): exited 0, but must fail; \/srv\/live-slot exists afterwards, but must not/,
    );
  }, 900_000);
});
