import { join } from 'node:path';
import { BROKEN_PLAN, STEP_PLANS } from './support/tutorials/step-plans.js';
import { provisionRoot, runTutorial, type StepResult } from './support/tutorials/steps.js';

/*
 * The executed runner (issue #42; docs/testing.md, "Tutorials executed on a fresh Debian 13 root"): each
 * planned tutorial's steps run in order in a throwaway overlay of a debootstrapped Debian 13 root, with no
 * network, and every step must do what it is expected to do. A fixture with the borgmatic and set -e
 * mistakes must fail.
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

  it.each(STEP_PLANS.map((p) => [p.slug, p] as const))(
    '%s: every step does what it should',
    async (_slug, plan) => {
      const results = await runTutorial(plan, root);
      expect(results.length).toBeGreaterThan(plan.before.length);
      expect(failures(results)).toEqual([]);
    },
    900_000,
  );

  it('fails on borgmatic-backups as it was at fdf64a3: the dump connects as role root', async () => {
    const results = await runTutorial(
      {
        ...STEP_PLANS.find((p) => p.slug === 'borgmatic-backups')!,
        file: join(__dirname, 'fixtures', 'tutorial-day-two', 'before-42', 'borgmatic-backups.md'),
      },
      root,
    );
    expect(failures(results).join('\n')).toMatch(/\(shell\): exited 1: .*role "root" does not exist/);
  }, 900_000);

  it('fails on the fixture: the borgmatic dump as root, and a set -e script that goes on after nginx -t fails', async () => {
    const results = await runTutorial(BROKEN_PLAN, root);
    const found = failures(results).join('\n');
    expect(found).toMatch(/line 24 \(shell\): exited 1: .*role "root" does not exist/);
    expect(found).toMatch(
      /line 39 \(shell\): exited 0, but must fail; \/srv\/live-slot exists afterwards, but must not/,
    );
  }, 900_000);
});
