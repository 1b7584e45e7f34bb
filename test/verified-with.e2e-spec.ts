import { join } from 'node:path';
import { verifiedVersions } from '../src/dataset/dto/guide.dto.js';
import { readGuide, tutorials } from './support/tutorials/code-blocks.js';
import { STEP_PLANS } from './support/tutorials/step-plans.js';
import { VERSIONED_TOOLS } from './support/tutorials/systems.js';
import {
  aptInstalled,
  mergeVersions,
  ranWith,
  readRanWith,
  releaseLineOf,
  verifiedWithProblems,
} from './support/tutorials/verified-with.js';

/*
 * `verifiedWith` states only what ran (issue #42; docs/testing.md, "What verifiedWith and writtenFor
 * mean"). The whole comparison, with the checker's tool versions, is in test/tutorial-configs (a system
 * suite: it needs Debian 12's and 13's tools). This suite needs no tool: it tests the comparison on a
 * fixture, and holds every entry that is not one of the checker's tools to the executed runner's record.
 */

const FIXTURE = join(__dirname, 'fixtures', 'verified-with', 'states-what-nothing-ran.md');
/** The names whose versions the tutorial checker's tools decide (held to those tools in test/tutorial-configs). */
const CHECKER_NAMES = new Set([...Object.keys(VERSIONED_TOOLS), 'debian']);
const pick = (o: Record<string, string>, keep: (name: string) => boolean) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => keep(k)));

describe('comparing verifiedWith with what the checks ran', () => {
  const fixture = readGuide(FIXTURE);
  /** What the checks would run the fixture with: the checker's systems, and the runner's Debian 13 root. */
  const ran = mergeVersions(
    { debian: '12, 13' },
    ranWith(aptInstalled(fixture.body), { postgresql: '17+278+deb13u1', curl: '8.14.1-2' }),
  );

  it('reads the packages of apt install commands, options and other commands left out', () => {
    expect(aptInstalled(fixture.body)).toEqual(['postgresql', 'curl']);
    expect(
      aptInstalled('sudo apt-get install -y --no-install-recommends \\\n  nginx git && systemctl start nginx'),
    ).toEqual(['nginx', 'git']);
    expect(aptInstalled('sudo apt update\napt search nginx')).toEqual([]);
  });

  it('writes a version as verifiedWith does: the major where software-releases.json lists majors, else major.minor', () => {
    expect(releaseLineOf('postgresql', '17+278+deb13u1')).toBe('17');
    expect(releaseLineOf('caddy', '2.6.2-12+deb13u1')).toBe('2');
    expect(releaseLineOf('python', '3.13.5-1')).toBe('3.13');
    expect(releaseLineOf('openssh', '1:10.0p1-7+deb13u4')).toBe('10.0');
    expect(releaseLineOf('restic', '0.18.0-1+b4')).toBe('0.18');
  });

  it('records only the software a tutorial is about, and merges versions of several checks in order', () => {
    expect(ran).toEqual({ debian: '12, 13', postgresql: '17' });
    expect(mergeVersions({ nginx: '1.26' }, { nginx: '1.22, 1.26' }, { debian: '13' })).toEqual({
      nginx: '1.22, 1.26',
      debian: '13',
    });
  });

  it('fails on a tutorial that states a version nothing ran, software nothing ran, or leaves out what ran', () => {
    expect(verifiedWithProblems(fixture.file, fixture.front.verifiedWith as Record<string, string>, ran)).toEqual([
      'test/fixtures/verified-with/states-what-nothing-ran.md: verifiedWith.postgresql "16": the checks ran postgresql 17',
      'test/fixtures/verified-with/states-what-nothing-ran.md: verifiedWith.mariadb "10.11": no check ran mariadb (move it to writtenFor: the versions the steps were written for)',
    ]);
    expect(verifiedWithProblems(fixture.file, { debian: '13' }, ran)).toEqual([
      'test/fixtures/verified-with/states-what-nothing-ran.md: verifiedWith.debian "13": the checks ran debian 12, 13',
      'test/fixtures/verified-with/states-what-nothing-ran.md: verifiedWith does not name postgresql, which the checks ran at 17',
    ]);
  });

  it('accepts a tutorial that states exactly what ran, in any order', () => {
    expect(verifiedWithProblems(fixture.file, { debian: '13, 12', postgresql: '17' }, ran)).toEqual([]);
  });
});

describe('verifiedWith and the executed runner', () => {
  const record = readRanWith();
  const guides = tutorials(undefined, '');

  it('records exactly the tutorials the runner runs', () => {
    expect(Object.keys(record.tutorials).sort()).toEqual(STEP_PLANS.map((p) => p.slug).sort());
  });

  it("states, beside the checker's tools, exactly the software the runner ran each tutorial with, at the versions it ran", () => {
    const problems: string[] = [];
    for (const g of guides) {
      const stated = g.front.verifiedWith as Record<string, string> | undefined;
      if (!stated) continue;
      const run = record.tutorials[g.slug] ?? {};
      const other = (name: string) => !CHECKER_NAMES.has(name);
      problems.push(...verifiedWithProblems(g.file, pick(stated, other), pick(run, other)));
      // A checker's tool the run installed too: the run's version is one of those stated.
      for (const [name, version] of Object.entries(pick(run, (n) => !other(n))))
        if (!verifiedVersions(stated[name] ?? '').includes(version))
          problems.push(`${g.file}: verifiedWith.${name} "${stated[name] ?? ''}": the runner ran ${name} ${version}`);
    }
    expect(problems.join('\n')).toBe('');
  });
});
