import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { checkedSystems } from '../../../src/dataset/dto/guide.dto.js';
import type { Unit } from './checks.js';
import type { GuideFile } from './code-blocks.js';
import { CHECKED_SYSTEMS, type CheckedSystem, sshdBinary, unpackedVersions, withSystem } from './tools.js';

/*
 * Which tools' versions a tutorial's checks ran with (issue #42). A tutorial names the systems it is
 * written for (`systems`); the checks run with the tools of each Debian release named, and of the Debian
 * release checked in place of each Ubuntu one. `verifiedWith` then states exactly those versions: one
 * entry per tool that checked one of its blocks (nginx, openssh, haproxy, ansible-core, cloud-init,
 * borgmatic), and `debian` for the releases whose tools those were, beside what the executed runner ran
 * (verified-with.ts). An Ubuntu release is never claimed.
 */

/** The tools whose versions `verifiedWith` states, each with the package it comes from. */
export const VERSIONED_TOOLS = {
  nginx: 'nginx',
  openssh: 'openssh-server',
  haproxy: 'haproxy',
  'ansible-core': 'ansible-core',
  'cloud-init': 'cloud-init',
  borgmatic: 'borgmatic',
} as const;
export type VersionedTool = keyof typeof VERSIONED_TOOLS;

/** The systems a tutorial names (`systems` in its front matter). */
export const namedSystems = (guide: GuideFile): string[] =>
  Array.isArray(guide.front.systems) ? guide.front.systems.map(String) : [];

/** The Debian releases whose tools check a tutorial. */
export const guideSystems = (guide: GuideFile): CheckedSystem[] =>
  checkedSystems(namedSystems(guide)).filter((s): s is CheckedSystem => (CHECKED_SYSTEMS as string[]).includes(s));

/** The Debian releases whose tools check a unit: its block's own systems= (of those its tutorial names), else its tutorial's. */
export function unitSystems(u: Unit, guide: GuideFile): CheckedSystem[] {
  const all = guideSystems(guide);
  if (!u.systems) return all;
  const own = checkedSystems(u.systems);
  return all.filter((s) => own.includes(s));
}

/** A borgmatic configuration file: /etc/borgmatic/config.yaml or a file of /etc/borgmatic.d/. */
export const isBorgmaticConfig = (u: Unit) =>
  u.kind === 'yaml' && /^\/etc\/borgmatic(\.d)?\/[^/]+\.ya?ml$/.test(u.path ?? u.partOf ?? '');

/** The tool whose version decides a unit's check, if its version is one verifiedWith states. */
export function versionedTool(u: Unit): VersionedTool | undefined {
  if (u.kind === 'nginx') return 'nginx';
  if (u.kind === 'sshd') return 'openssh';
  if (u.kind === 'haproxy') return 'haproxy';
  if (u.kind === 'ansible-inventory') return 'ansible-core';
  if (u.kind !== 'yaml') return undefined;
  if (isBorgmaticConfig(u)) return 'borgmatic';
  if (/^#cloud-config\s*$/m.test(u.content.split('\n')[0] ?? '')) return 'cloud-init';
  const values = parseAllDocuments(u.content).map((d) => d.toJS());
  if (
    values.some(
      (d) =>
        Array.isArray(d) &&
        d.length > 0 &&
        d.every(
          (p) =>
            p &&
            typeof p === 'object' &&
            ('hosts' in p || 'import_playbook' in p || 'ansible.builtin.import_playbook' in p),
        ),
    )
  )
    return 'ansible-core';
  return undefined;
}

/** `1:10.0p1-7+deb13u4` -> `10.0`, `2.19.11-0+deb13u1` -> `2.19`: the release line, as verifiedWith writes it. */
export const releaseLine = (version: string) => /^(?:\d+:)?(\d+\.\d+)/.exec(version)?.[1] ?? version;

const versions = new Map<string, string>();

/** The release line of a tool as a Debian release ships it: the unpacked package's, or this machine's installed one. */
export async function toolVersion(system: CheckedSystem, tool: VersionedTool): Promise<string> {
  const key = `${system} ${tool}`;
  if (!versions.has(key)) {
    const pkg = VERSIONED_TOOLS[tool];
    let version = unpackedVersions(system)[pkg];
    if (!version && tool === 'openssh') {
      // Debian 12's sshd may be the unpacked openssh-server, which dpkg does not know: ask the binary.
      const out = await withSystem(system, async () => spawnSync(sshdBinary(), ['-V'], { encoding: 'utf8' }).stderr);
      version = /OpenSSH_(\d+\.\d+)/.exec(out)?.[1];
    }
    if (!version)
      version = spawnSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8' }).stdout.trim();
    if (!version) throw new Error(`no ${pkg} for ${system}: test/system-setup.cjs provides it`);
    versions.set(key, releaseLine(version));
  }
  return versions.get(key)!;
}

/**
 * What a tutorial's verifiedWith must say about what checked it: each versioned tool that checked one of
 * its blocks -> its versions on the releases checked ("1.22, 1.26"), and debian -> those releases ("12, 13").
 */
export async function expectedVerifiedWith(guide: GuideFile, units: Unit[]): Promise<Record<string, string>> {
  const systems = guideSystems(guide);
  const mine = units.filter((u) => u.guide === guide.slug);
  const tools = [...new Set(mine.map(versionedTool).filter((t): t is VersionedTool => Boolean(t)))];
  const out: Record<string, string> = {};
  for (const tool of tools.sort()) {
    const ran = CHECKED_SYSTEMS.filter((s) =>
      mine.some((u) => versionedTool(u) === tool && unitSystems(u, guide).includes(s)),
    );
    const vs = [...new Set(await Promise.all(ran.map((s) => toolVersion(s, tool))))];
    out[tool] = vs.join(', ');
  }
  out.debian = systems.map((s) => s.replace('debian-', '')).join(', ');
  return out;
}
