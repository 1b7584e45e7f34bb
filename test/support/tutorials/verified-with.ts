import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifiedVersions } from '../../../src/dataset/dto/guide.dto.js';
import { productNamed, readSoftwareReleases } from '../software-pins.js';

/*
 * What `verifiedWith` may say (issue #42): exactly the versions the checks here ran with. Two kinds of
 * check run a tutorial's software: the tutorial checker (test/tutorial-configs), whose tools' versions
 * `expectedVerifiedWith` in systems.ts computes, and the executed runner (test/tutorial-steps), which
 * records what each tutorial it runs installed in the Debian 13 root. The runner's record is committed
 * (RAN_WITH_FILE) so that the comparison runs without the root, and the runner fails when the record
 * no longer says what it ran. Nothing here needs a tool: the comparison is plain data.
 */

/**
 * The software an executed tutorial installs whose version its steps depend on: Debian package -> the
 * name `verifiedWith` uses, and the package whose version that software's is (python3-venv installs
 * Debian's python3). Helpers a step installs on the way (curl, git, jq, npm, build-essential,
 * python3-dev) are not recorded: no tutorial is about their version.
 */
export const RUN_SOFTWARE: Readonly<Record<string, { name: string; package?: string }>> = {
  postgresql: { name: 'postgresql' },
  borgbackup: { name: 'borgbackup' },
  borgmatic: { name: 'borgmatic' },
  restic: { name: 'restic' },
  nginx: { name: 'nginx' },
  nodejs: { name: 'nodejs' },
  'python3-venv': { name: 'python', package: 'python3' },
  caddy: { name: 'caddy' },
  fail2ban: { name: 'fail2ban' },
  ufw: { name: 'ufw' },
  'openssh-server': { name: 'openssh' },
};

/** The committed record of what the executed runner ran each tutorial with. */
export const RAN_WITH_FILE = join(__dirname, 'ran-with.json');

export interface RanWithRecord {
  /** What the record is, for a reader of the file. */
  description: string;
  /** The system the runner's root is. */
  system: string;
  /** Tutorial slug -> software name -> release line. */
  tutorials: Record<string, Record<string, string>>;
}

export const readRanWith = (file = RAN_WITH_FILE): RanWithRecord => JSON.parse(readFileSync(file, 'utf8'));

export const writeRanWith = (record: RanWithRecord, file = RAN_WITH_FILE) =>
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');

/** The Debian packages of `apt install` / `apt-get install` commands in a shell text, options left out. */
export function aptInstalled(shell: string): string[] {
  const out: string[] = [];
  for (const line of shell.replace(/\\\n/g, ' ').split('\n')) {
    for (const m of line.matchAll(/\bapt(?:-get)?\s+install\b([^;&|#\n]*)/g))
      out.push(...m[1].split(/\s+/).filter((w) => /^[a-z0-9][a-z0-9.+-]+$/.test(w)));
  }
  return [...new Set(out)];
}

/**
 * The release line of a package version, as `verifiedWith` writes the software: the major version for a
 * product whose releases `software-releases.json` lists by major (`17+278` -> `17`, `2.6.2-4` -> `2`),
 * otherwise major.minor (`1:10.0p1-7` -> `10.0`, `3.13.5-1` -> `3.13`).
 */
export function releaseLineOf(name: string, version: string, dataDir = 'data'): string {
  const product = productNamed(readSoftwareReleases(dataDir).products, name);
  const byMajor = product !== undefined && product.releases.every((r) => !r.cycle.includes('.'));
  const m = (byMajor ? /^(?:\d+:)?(\d+)/ : /^(?:\d+:)?(\d+\.\d+)/).exec(version);
  return m?.[1] ?? version;
}

/** What a run installed, as verifiedWith names it: the RUN_SOFTWARE packages the steps installed, at the root's versions. */
export function ranWith(installed: string[], packages: Record<string, string>, dataDir = 'data') {
  const out: Record<string, string> = {};
  for (const pkg of installed) {
    const software = RUN_SOFTWARE[pkg];
    if (!software) continue;
    const version = packages[software.package ?? pkg];
    if (!version) throw new Error(`the steps install ${pkg}, but the root has no ${software.package ?? pkg}`);
    out[software.name] = releaseLineOf(software.name, version, dataDir);
  }
  return out;
}

/** Versions by software, from several checks: each software's versions, without repeats, in order (`1.22, 1.26`). */
export function mergeVersions(...ran: Array<Record<string, string>>): Record<string, string> {
  const all = new Map<string, string[]>();
  for (const r of ran)
    for (const [name, value] of Object.entries(r))
      for (const v of verifiedVersions(value)) {
        const vs = all.get(name) ?? [];
        if (!vs.includes(v)) vs.push(v);
        all.set(name, vs);
      }
  const key = (v: string) => v.split('.').map((n) => n.padStart(6, '0'));
  return Object.fromEntries(
    [...all].map(([name, vs]) => [
      name,
      vs.sort((a, b) => key(a).join('.').localeCompare(key(b).join('.'))).join(', '),
    ]),
  );
}

/**
 * How a tutorial's `verifiedWith` differs from what its checks ran (`ran`: each software -> its versions):
 * one line per entry that names software nothing ran, states other versions than ran, or leaves out
 * software that ran. Empty when they agree.
 */
export function verifiedWithProblems(
  file: string,
  stated: Record<string, string>,
  ran: Record<string, string>,
): string[] {
  const problems: string[] = [];
  const same = (a: string, b: string) => mergeVersions({ x: a }).x === mergeVersions({ x: b }).x;
  for (const [name, version] of Object.entries(stated)) {
    if (!(name in ran))
      problems.push(
        `${file}: verifiedWith.${name} "${version}": no check ran ${name} (move it to writtenFor: the versions the steps were written for)`,
      );
    else if (!same(version, ran[name]))
      problems.push(`${file}: verifiedWith.${name} "${version}": the checks ran ${name} ${ran[name]}`);
  }
  for (const [name, version] of Object.entries(ran))
    if (!(name in stated))
      problems.push(`${file}: verifiedWith does not name ${name}, which the checks ran at ${version}`);
  return problems;
}
