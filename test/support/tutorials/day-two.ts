import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { guideUnits, type Unit } from './checks.js';
import { guideBlocks, SHELL_LANGS, type CodeBlock, type GuideFile } from './code-blocks.js';

/*
 * Day-two gaps: steps that work on the day a reader follows the tutorial and break at the first reboot,
 * renewal or upgrade. Each rule reads what the guide itself defines and runs (its unit files, its
 * HAProxy configuration, its certbot commands, the Java it installs) and reports where they disagree.
 */

export interface DayTwoFinding {
  guide: string;
  rule: 'unit-never-enabled' | 'acme-behind-haproxy' | 'java-for-minecraft' | 'ufw-rule-shadowed';
  detail: string;
}

/** Text of the guide's shell blocks (heredoc bodies included: a script the guide writes runs too). */
const shellText = (blocks: CodeBlock[]) =>
  blocks
    .filter((b) => SHELL_LANGS.has(b.lang))
    .map((b) => b.content)
    .join('\n');

/** `api@$NEXT`, `"api@blue"`, `api@.service`, `myapp` -> `api@.service`, `myapp.service`: the unit file a reference starts. */
function unitFile(ref: string): string {
  const name = ref.replace(/^["']|["']$/g, '');
  const [base, suffix = 'service'] = /\.(service|timer|socket|path)$/.test(name)
    ? [name.replace(/\.(service|timer|socket|path)$/, ''), /\.(\w+)$/.exec(name)![1]]
    : [name];
  const template = base.includes('@') ? `${base.slice(0, base.indexOf('@'))}@` : base;
  return `${template}.${suffix}`;
}

/** The units a systemctl verb is applied to in `text`, as unit files. */
function unitsUnder(text: string, verbs: string[]): Set<string> {
  const found = new Set<string>();
  const command = new RegExp(
    String.raw`\bsystemctl\s+(?:--\S+\s+)*(${verbs.join('|')})\s+((?:--\S+\s+)*)([^\n;&|#]+)`,
    'g',
  );
  for (const m of text.matchAll(command)) {
    for (const ref of m[3].trim().split(/\s+/))
      if (ref && !ref.startsWith('-') && !ref.startsWith('$(')) found.add(unitFile(ref));
  }
  return found;
}

/**
 * A unit the guide defines and starts must also be enabled, or nothing starts it after a reboot. A unit
 * that is run on demand (`Type=oneshot`), has no `[Install]` section (something else pulls it in), or is
 * triggered by a timer, socket or path unit of the same name is exempt.
 */
function neverEnabled(guide: GuideFile, blocks: CodeBlock[], checked: Unit[]): DayTwoFinding[] {
  const units = new Map(
    checked
      .filter((u) => u.kind === 'systemd' && u.path?.startsWith('/etc/systemd/system/'))
      .map((u) => [u.path!.slice('/etc/systemd/system/'.length), u.content]),
  );
  const text = shellText(blocks);
  const started = unitsUnder(text, ['start', 'restart']);
  const enabled = unitsUnder(text, ['enable', 'reenable']);
  return [...started]
    .filter((unit) => units.has(unit) && !enabled.has(unit))
    .filter((unit) => {
      const content = units.get(unit)!;
      const base = unit.replace(/\.\w+$/, '');
      const triggered = ['timer', 'socket', 'path'].some((kind) => enabled.has(`${base}.${kind}`));
      return !/^\s*Type\s*=\s*oneshot\b/m.test(content) && /^\s*\[Install\]/m.test(content) && !triggered;
    })
    .map((unit) => ({
      guide: guide.slug,
      rule: 'unit-never-enabled' as const,
      detail: `${unit} is started but never enabled: after a reboot nothing starts it`,
    }));
}

/**
 * Certbot's standalone server binds port 80 by default; once the guide's HAProxy listens there, a renewal
 * can only come in through HAProxy. So a guide with both routes `/.well-known/acme-challenge/` to a
 * backend, and runs certbot standalone on that backend's port (which certbot then keeps for renewals).
 */
function acmeBehindHaproxy(guide: GuideFile, blocks: CodeBlock[], checked: Unit[]): DayTwoFinding[] {
  const onPort80 = checked
    .filter((u) => u.kind === 'haproxy')
    .map((u) => u.content)
    .filter((c) => /^\s*bind\s+\S*:80\b/m.test(c));
  if (onPort80.length === 0 || !/\bcertbot\b/.test(guide.body)) return [];
  const finding = (detail: string) => [{ guide: guide.slug, rule: 'acme-behind-haproxy' as const, detail }];
  const config = onPort80.join('\n');
  if (!/acme-challenge/.test(config))
    return finding(
      'HAProxy binds port 80 but sends no /.well-known/acme-challenge/ requests to certbot: the first renewal cannot bind port 80 and fails',
    );
  const ports = new Set(
    [...config.matchAll(/^\s*server\s+\S+\s+(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)/gm)].map((m) => m[1]),
  );
  const certbot = [...shellText(blocks).matchAll(/\bcertbot\b[^\n]*(?:\\\n[^\n]*)*/g)]
    .map((m) => m[0])
    .filter((c) => /--standalone\b/.test(c));
  const onBackend = certbot.some((c) => ports.has(/--http-01-port[ =](\d+)/.exec(c)?.[1] ?? '80'));
  return onBackend
    ? []
    : finding(
        `no certbot --standalone command uses --http-01-port on the port HAProxy sends challenges to (${[...ports].join(', ') || 'none'}), so renewals keep trying port 80`,
      );
}

interface Requirement {
  product: string;
  requires: string;
  releases: { cycle: string; minimum: string }[];
}

const cycleKey = (c: string) =>
  c
    .split('.')
    .map((n) => n.padStart(6, '0'))
    .join('.');

/**
 * A tutorial that runs a Minecraft Java server must install a Java the Minecraft release it targets can
 * run on: the release named in `verifiedWith.minecraft` or `writtenFor.minecraft`, or else the newest release the requirements
 * list (a reader downloads the current server jar).
 */
function javaForMinecraft(guide: GuideFile, blocks: CodeBlock[], requirements: Requirement[]): DayTwoFinding[] {
  const req = requirements.find((r) => r.product === 'minecraft' && r.requires === 'java');
  if (!req || !/\bminecraft\b/i.test(guide.body) || !/\b(?:paper|server)\.jar\b/.test(guide.body)) return [];
  const installed = [...shellText(blocks).matchAll(/\b(?:openjdk|temurin)-(\d+)-(?:jre|jdk)\b/g)].map((m) =>
    Number(m[1]),
  );
  if (installed.length === 0) return [];
  // The release the steps were written for, or ran with (no check here runs a Minecraft server).
  const versions = (field: string) => guide.front[field] as Record<string, string> | undefined;
  const verified = versions('verifiedWith')?.minecraft ?? versions('writtenFor')?.minecraft;
  const sorted = [...req.releases].sort((a, b) => cycleKey(b.cycle).localeCompare(cycleKey(a.cycle)));
  const target = verified ? sorted.find((r) => cycleKey(r.cycle) <= cycleKey(verified)) : sorted[0];
  if (!target) return [];
  const needed = Number(target.minimum);
  const short = installed.filter((v) => v < needed);
  return short.map((v) => ({
    guide: guide.slug,
    rule: 'java-for-minecraft' as const,
    detail: `installs Java ${v}, but Minecraft ${verified ?? target.cycle}${verified ? '' : ' (the newest release listed)'} needs Java ${needed}`,
  }));
}

/** ufw's stock application profiles (in /etc/ufw/applications.d on Debian and Ubuntu) as the ports they open. */
const UFW_PROFILES: Record<string, string[]> = {
  openssh: ['22/tcp'],
  'nginx full': ['80/tcp', '443/tcp'],
  'nginx http': ['80/tcp'],
  'nginx https': ['443/tcp'],
  'nginx quic': ['443/udp'],
  www: ['80/tcp'],
  'www secure': ['443/tcp'],
  'www full': ['80/tcp', '443/tcp'],
};

/** `22/tcp`, `22`, `OpenSSH`, `"Nginx Full"` -> the port/protocol pairs it matches (a bare port matches both protocols). */
function ufwPorts(spec: string): string[] | undefined {
  const name = spec.replace(/^["']|["']$/g, '').toLowerCase();
  if (UFW_PROFILES[name]) return UFW_PROFILES[name];
  const m = /^(\d+)(?:\/(tcp|udp))?$/.exec(name);
  if (!m) return undefined;
  return m[2] ? [`${m[1]}/${m[2]}`] : [`${m[1]}/tcp`, `${m[1]}/udp`];
}

/**
 * ufw checks its rules in order and the first match decides. A simple rule (`ufw allow|deny|reject|limit
 * SPEC`, SPEC a port or an application profile) written the same way as an earlier one replaces it; written
 * another way for the same port (`limit 22/tcp` after `allow OpenSSH`) it is appended below and never
 * fires. Rules with sources, interfaces or directions, and guides that delete rules by number, are not
 * simulated.
 */
function ufwShadowed(guide: GuideFile, blocks: CodeBlock[]): DayTwoFinding[] {
  const text = shellText(blocks);
  if (/\bufw\s+(?:--\S+\s+)*delete\s+\d/.test(text)) return [];
  const rules: { action: string; spec: string; ports: string[] }[] = [];
  const findings: DayTwoFinding[] = [];
  const command =
    /\bufw\s+(?:--\S+\s+)*(?:insert\s+(\d+)\s+)?(allow|deny|reject|limit)\s+("[^"]+"|'[^']+'|\S+)[ \t]*(?:#[^\n]*)?$/gm;
  for (const m of text.matchAll(command)) {
    const [, insertAt, action, rawSpec] = m;
    const ports = ufwPorts(rawSpec);
    if (!ports) continue;
    const spec = rawSpec.replace(/^["']|["']$/g, '').toLowerCase();
    const same = rules.findIndex((r) => r.spec === spec);
    if (same >= 0) {
      rules[same].action = action;
      continue;
    }
    const position = insertAt ? Math.min(Number(insertAt) - 1, rules.length) : rules.length;
    const before = rules.slice(0, position).find((r) => r.action !== action && ports.every((p) => r.ports.includes(p)));
    if (before) {
      findings.push({
        guide: guide.slug,
        rule: 'ufw-rule-shadowed',
        detail: `"ufw ${action} ${rawSpec}" is added below "ufw ${before.action} ${before.spec}" for the same port: ufw's first matching rule decides, so it never applies`,
      });
    }
    rules.splice(position, 0, { action, spec, ports });
  }
  return findings;
}

/** The requirements in data/software-releases.json (or another dataset directory's). */
export function readRequirements(dataDir = resolve('data')): Requirement[] {
  return (JSON.parse(readFileSync(join(dataDir, 'software-releases.json'), 'utf8')).requirements ??
    []) as Requirement[];
}

/** Every day-two gap of a guide. */
export function dayTwoFindings(guide: GuideFile, requirements: Requirement[] = readRequirements()): DayTwoFinding[] {
  const blocks = guideBlocks(guide);
  const checked = guideUnits(guide);
  return [
    ...neverEnabled(guide, blocks, checked),
    ...acmeBehindHaproxy(guide, blocks, checked),
    ...javaForMinecraft(guide, blocks, requirements),
    ...ufwShadowed(guide, blocks),
  ];
}
