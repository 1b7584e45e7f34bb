import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { guideBlocks, readGuide, SHELL_LANGS, type CodeBlock } from './code-blocks.js';
import { run } from './tools.js';
import { aptInstalled } from './verified-with.js';

/*
 * The executed runner (issue #42): a tutorial's steps run in order on a fresh, throwaway Debian 13 root.
 *
 * Provisioning (once, cached under node_modules/.cache/tutorial-steps): `debootstrap --variant=minbase`
 * of Debian 13 from the mirror this machine's apt uses, then the packages the planned tutorials install,
 * with apt-get inside the root (network allowed only here). A policy-rc.d that refuses every service
 * start keeps the packages' maintainer scripts from starting daemons during installation.
 *
 * A run: the cached root is the lower layer of an overlay mount whose upper layer is a fresh temporary
 * directory, in a private mount namespace, a network namespace with only a loopback interface (the steps
 * reach nothing) and a PID namespace (every process a step starts dies with the run). Each step runs as
 * root in `chroot`: a shell block as one `bash -e` script (the reader's sudo is the root's sudo), a file
 * block is written to its path. There is no systemd in a chroot, so a plan starts the services a step
 * needs directly (`pg_ctlcluster 17 main start`), says so, and skips the steps that need a booted
 * systemd (`systemctl enable --now`), each with the reason. Every step has an expected outcome: exit 0 by
 * default, or what the plan states (a failing exit, files that must or must not exist afterwards).
 */

export const STEPS_CACHE = resolve('node_modules', '.cache', 'tutorial-steps');
const ROOT = join(STEPS_CACHE, 'debian-13', 'root');
const STAMP = join(STEPS_CACHE, 'debian-13', 'ready.json');
/** Bump when PACKAGES change, so the cached root is rebuilt. */
const LAYOUT = 2;
/** What the planned tutorials install (or expect on the server they start from), installed once. */
export const PACKAGES = [
  'sudo',
  'openssl',
  'openssh-client',
  'ca-certificates',
  'curl',
  'jq',
  'iproute2',
  // borgmatic-backups, postgresql-on-a-vps, restore-drills
  'postgresql',
  'borgbackup',
  'borgmatic',
  'restic',
  // zero-downtime-deploys, python-app-gunicorn-nginx
  'nginx',
  'git',
  'nodejs',
  'npm',
  'python3-venv',
  'python3-dev',
  'build-essential',
  // Debian's Flask and gunicorn, packed as wheels for pip in place of PyPI (see step-plans.ts)
  'python3-flask',
  'python3-gunicorn',
  // server-hardening-checklist
  'openssh-server',
  'ufw',
  'fail2ban',
  'python3-systemd',
  'unattended-upgrades',
  // self-host-nextcloud (compose config only: no Docker daemon runs here)
  'docker-cli',
  'docker-compose',
  'caddy',
];

/** The Debian mirror this machine's apt uses. */
function mirror(): string {
  for (const f of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(f)) continue;
    const m =
      /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(readFileSync(f, 'utf8')) ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(readFileSync(f, 'utf8'));
    if (m) return m[1];
  }
  return 'http://deb.debian.org/debian';
}

const sh = (script: string, timeoutMs = 1_200_000) =>
  spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });

/** The cached Debian 13 root, built when missing; returns its path and how long provisioning took (0 when cached). */
export function provisionRoot(): { root: string; seconds: number } {
  if (existsSync(STAMP) && JSON.parse(readFileSync(STAMP, 'utf8')).layout === LAYOUT) return { root: ROOT, seconds: 0 };
  const started = Date.now();
  rmSync(dirname(ROOT), { recursive: true, force: true });
  mkdirSync(dirname(ROOT), { recursive: true });
  if (spawnSync('sh', ['-c', 'command -v debootstrap'], { stdio: 'ignore' }).status !== 0) {
    const r = sh('apt-get install -y -qq debootstrap || (apt-get update -qq && apt-get install -y -qq debootstrap)');
    if (r.status !== 0) throw new Error(`apt-get install debootstrap failed: ${r.stderr}`);
  }
  const boot = sh(`debootstrap --variant=minbase trixie '${ROOT}' '${mirror()}'`);
  if (boot.status !== 0) throw new Error(`debootstrap failed: ${boot.stdout.slice(-2000)}${boot.stderr.slice(-2000)}`);
  // Maintainer scripts must not start services while the packages install (invoke-rc.d asks policy-rc.d).
  writeFileSync(join(ROOT, 'usr', 'sbin', 'policy-rc.d'), '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  const install = sh(
    `unshare --mount --propagation private sh -c 'mount -t proc proc "${ROOT}/proc" && mount --rbind /dev "${ROOT}/dev" && ` +
      `cp /etc/resolv.conf "${ROOT}/etc/resolv.conf" && chroot "${ROOT}" apt-get install -y -qq --no-install-recommends ${PACKAGES.join(' ')}'`,
  );
  if (install.status !== 0)
    throw new Error(`apt-get install in the root failed: ${install.stdout.slice(-2000)}${install.stderr.slice(-2000)}`);
  sh(`chroot '${ROOT}' apt-get clean`);
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(STAMP, JSON.stringify({ layout: LAYOUT, packages: PACKAGES, provisionedSeconds: seconds }, null, 2));
  return { root: ROOT, seconds };
}

/** What a step must do. */
export interface Expect {
  /** 'ok' (exit 0, the default) or 'fail' (a non-zero exit). */
  exit?: 'ok' | 'fail';
  /** Paths in the root that must exist afterwards. */
  present?: string[];
  /** Paths in the root that must not exist afterwards. */
  absent?: string[];
  /** A pattern the step's output must match. */
  output?: RegExp;
  /** What the reader types at the step's prompts (its standard input; empty when not given). */
  input?: string;
}

/** How one tutorial is run: the root it starts from, what stands in for the outside world, and what each step must do. */
export interface StepPlan {
  slug: string;
  /** The guide file (data/guides/<slug>.md unless a fixture). */
  file?: string;
  /** Host files or directories copied into the root before the first step, each with why (a fixture app). */
  copy?: Array<{ from: string; to: string; why: string }>;
  /** Commands that make the server the tutorial starts from, each with why (run before the first step). */
  before: Array<{ run: string; why: string }>;
  /**
   * Parts of files (`part-of=` blocks) the run adds, each found by a text it contains: appended to the end of
   * the file, which is where the reader adds a line to a file whose last setting wins (postgresql.conf, pg_hba.conf).
   */
  append?: string[];
  /** Text replaced in the guide's blocks before they run, each with why (the outside world a step cannot reach); a RegExp must be global. */
  replace: Array<{ from: string | RegExp; to: string; why: string }>;
  /** Steps, each found by a text its block contains: skipped (why), or an expectation other than exit 0. */
  steps: Array<{ block: string } & ({ skip: string } | Expect)>;
  /**
   * Commands run after the block that contains `after`: those the guide gives in prose (inline code), or,
   * with a why, what stands in for the reader's own part (their app's table).
   */
  prose?: Array<{ after: string; run: string; why?: string }>;
  /** Checks after the last step that the tutorial reached its result, each with why (each must exit 0). */
  verify?: Array<{ run: string; why: string }>;
}

/** One run of a tutorial: a result per step, and the software its steps installed, at the root's versions. */
export interface TutorialRun {
  results: StepResult[];
  /** The Debian packages the guide's own steps name in `apt install` (the steps that ran; the plan's stand-ins aside). */
  installed: string[];
  /** Every package in the run's root after the last step -> its Debian version (dpkg-query). */
  packages: Record<string, string>;
}

export interface StepResult {
  line: number;
  kind: 'shell' | 'file' | 'prose' | 'before' | 'verify' | 'skipped';
  code: number;
  output: string;
  problems: string[];
}

/**
 * The steps of a tutorial, in order: shell blocks to run, whole files to write. A file is a step whether or
 * not a tool checks it (`check=none` is about checking); a shell block marked `check=none` is not a command.
 */
function stepsOf(blocks: CodeBlock[]): CodeBlock[] {
  return blocks.filter((b) =>
    SHELL_LANGS.has(b.lang) && !b.attrs.path ? b.attrs.check !== 'none' : Boolean(b.attrs.path),
  );
}

/** The runner's systemctl (docs/testing.md): copied over the run's /usr/bin/systemctl, never into the cached root. */
const SYSTEMCTL_SHIM = join(__dirname, 'systemctl-shim.py');

/** Runs a tutorial by its plan in a throwaway overlay of the cached root: a result per step, what it installed. */
export async function runTutorial(plan: StepPlan, root: string): Promise<TutorialRun> {
  const guide = readGuide(plan.file ?? join('data', 'guides', `${plan.slug}.md`));
  const work = mkdtempSync(join(tmpdir(), `tutorial-steps-${plan.slug}-`));
  try {
    const replaced = (text: string) =>
      plan.replace.reduce(
        (t, r) => (typeof r.from === 'string' ? t.split(r.from).join(r.to) : t.replace(r.from, r.to)),
        text,
      );
    const script: string[] = ['set -u', `M=${work}/merged`, `O=${work}/out`];
    script.push(`mkdir -p $M ${work}/upper ${work}/work $O`);
    script.push(`mount -t overlay overlay -o lowerdir=${root},upperdir=${work}/upper,workdir=${work}/work $M`);
    script.push(
      'mount -t proc proc $M/proc',
      'mount -t tmpfs tmpfs $M/run',
      'mount -t tmpfs tmpfs $M/tmp',
      'mount --rbind /dev $M/dev',
      'ip link set lo up',
    );
    // A server's /etc/hosts names the server itself (sudo looks its name up).
    script.push('echo "127.0.1.1 $(hostname)" >> $M/etc/hosts');
    // No systemd in a chroot: the runner's stand-in serves the steps' systemctl from the real unit files.
    script.push(`install -m 755 ${SYSTEMCTL_SHIM} $M/usr/bin/systemctl`);
    for (const c of plan.copy ?? [])
      script.push(`mkdir -p "$M${dirname(c.to)}" && cp -a ${resolve(c.from)} "$M${c.to}"`);
    const order: Array<{ id: string; line: number; kind: StepResult['kind']; expect: Expect; why?: string }> = [];
    /** The shell text of the guide's own steps that run (what `installed` is read from). */
    const guideShell: string[] = [];
    // One terminal session: each step starts where the previous one left off (`cd` carries over), at root's home first.
    const session = 'cd -- "$(cat /root/.step.cwd 2>/dev/null || echo /root)"\ntrap \'pwd > /root/.step.cwd\' EXIT\n';
    const runStep = (id: string, text: string, input = '') => {
      writeFileSync(join(work, `${id}.sh`), session + text);
      writeFileSync(join(work, `${id}.in`), input);
      script.push(
        `cp ${work}/${id}.sh $M/root/.step.sh; chroot $M /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 /bin/bash -e /root/.step.sh < ${work}/${id}.in > $O/${id}.log 2>&1; echo $? > $O/${id}.rc`,
      );
    };
    const check = (id: string, e: Expect) => {
      for (const p of e.present ?? [])
        script.push(`[ -e "$M${p}" ] && echo present >> $O/${id}.present.${Buffer.from(p).toString('hex')} || true`);
      for (const p of e.absent ?? [])
        script.push(`[ -e "$M${p}" ] && echo present >> $O/${id}.present.${Buffer.from(p).toString('hex')} || true`);
    };
    plan.before.forEach((b, i) => {
      runStep(`b${i}`, b.run + '\n');
      order.push({ id: `b${i}`, line: 0, kind: 'before', expect: {} });
    });
    const appended = (b: CodeBlock) =>
      Boolean(b.attrs['part-of']) && (plan.append ?? []).some((a) => b.content.includes(a));
    const blocks = guideBlocks(guide).filter((b) => stepsOf([b]).length > 0 || appended(b));
    for (const a of plan.append ?? [])
      if (!blocks.some((b) => appended(b) && b.content.includes(a)))
        throw new Error(`${plan.slug}: the plan appends "${a}", which no part-of block of the guide contains`);
    for (const s of [...plan.steps.map((x) => x.block), ...(plan.prose ?? []).map((p) => p.after)]) {
      if (blocks.filter((b) => b.content.includes(s)).length !== 1)
        throw new Error(`${plan.slug}: the plan's "${s}" must be in exactly one step of the guide`);
    }
    for (const b of blocks) {
      const planned = plan.steps.find((x) => b.content.includes(x.block));
      const id = `s${b.line}`;
      if (planned && 'skip' in planned) {
        order.push({ id, line: b.line, kind: 'skipped', expect: {}, why: planned.skip });
        continue;
      }
      const expect = (planned as Expect | undefined) ?? {};
      if (SHELL_LANGS.has(b.lang) && !b.attrs.path) {
        guideShell.push(replaced(b.content));
        runStep(id, replaced(b.content), expect.input);
        order.push({ id, line: b.line, kind: 'shell', expect });
      } else {
        // A path takes the plan's plain-text replacements (a version in it), not its patterns (meant for commands).
        const path = plan.replace.reduce(
          (t, r) => (typeof r.from === 'string' ? t.split(r.from).join(r.to) : t),
          b.attrs.path ?? b.attrs['part-of']!,
        );
        const file = join(work, `${id}.file`);
        writeFileSync(file, replaced(b.content));
        script.push(
          b.attrs.path
            ? `mkdir -p "$M${dirname(path)}" && cp ${file} "$M${path}"; echo $? > $O/${id}.rc; : > $O/${id}.log`
            : `cat ${file} >> "$M${path}"; echo $? > $O/${id}.rc; : > $O/${id}.log`,
        );
        order.push({ id, line: b.line, kind: 'file', expect });
      }
      check(id, expect);
      for (const [i, p] of (plan.prose ?? []).filter((x) => b.content.includes(x.after)).entries()) {
        const pid = `p${b.line}-${i}`;
        if (!p.why) guideShell.push(replaced(p.run));
        runStep(pid, replaced(p.run) + '\n');
        // A stand-in (with a why) is reported at the block it follows; a prose command at its sentence.
        const line = p.why
          ? b.line
          : guide.text.split('\n').findIndex((l) => l.includes(p.run.split('\n')[0].replace(/^sudo /, ''))) + 1;
        order.push({ id: pid, line, kind: p.why ? 'before' : 'prose', expect: {} });
      }
    }
    (plan.verify ?? []).forEach((v, i) => {
      runStep(`v${i}`, v.run + '\n');
      order.push({ id: `v${i}`, line: 0, kind: 'verify', expect: {} });
    });
    // The services' output (the shim's stand-in for the journal) lives in the run's /run: kept for reading.
    script.push('cp -r $M/run/systemctl-shim $O/services 2>/dev/null; true');
    // What the run ran with: every package of the root after the last step, at its version.
    script.push("chroot $M dpkg-query -W -f '${Package}\\t${Version}\\n' > $O/packages.tsv 2>/dev/null; true");
    writeFileSync(join(work, 'run.sh'), script.join('\n') + '\n');
    // A new mount, network and PID namespace: nothing outside the loopback is reachable, nothing outlives the run.
    const ran = await run(
      'unshare',
      ['--mount', '--propagation', 'private', '--net', '--pid', '--fork', 'bash', join(work, 'run.sh')],
      { timeoutMs: 900_000 },
    );
    if (ran.code !== 0 && !existsSync(join(work, 'out'))) throw new Error(`the runner did not start: ${ran.stderr}`);
    const tsv = join(work, 'out', 'packages.tsv');
    const packages = Object.fromEntries(
      (existsSync(tsv) ? readFileSync(tsv, 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t') as [string, string]),
    );
    const results = order.map(({ id, line, kind, expect, why }): StepResult => {
      if (kind === 'skipped') return { line, kind, code: 0, output: why!, problems: [] };
      const rcFile = join(work, 'out', `${id}.rc`);
      const code = existsSync(rcFile) ? Number(readFileSync(rcFile, 'utf8').trim()) : -1;
      const output = existsSync(join(work, 'out', `${id}.log`))
        ? readFileSync(join(work, 'out', `${id}.log`), 'utf8')
        : '';
      const problems: string[] = [];
      const wantFail = expect.exit === 'fail';
      if (code === -1) problems.push('did not run');
      else if (wantFail ? code === 0 : code !== 0)
        problems.push(
          wantFail ? 'exited 0, but must fail' : `exited ${code}: ${output.trim().split('\n').slice(-6).join(' | ')}`,
        );
      const isPresent = (p: string) => existsSync(join(work, 'out', `${id}.present.${Buffer.from(p).toString('hex')}`));
      for (const p of expect.present ?? []) if (!isPresent(p)) problems.push(`${p} is missing afterwards`);
      for (const p of expect.absent ?? []) if (isPresent(p)) problems.push(`${p} exists afterwards, but must not`);
      if (expect.output && !expect.output.test(output))
        problems.push(`output does not match ${expect.output}: ${output.trim().split('\n').slice(-8).join(' | ')}`);
      return { line, kind, code, output, problems };
    });
    return { results, installed: aptInstalled(guideShell.join('\n')), packages };
  } finally {
    spawnSync('sh', ['-c', `umount -R '${work}/merged' 2>/dev/null; true`]);
    // TUTORIAL_STEPS_KEEP=1 keeps the run's directory (scripts, logs, the overlay's upper layer) to read.
    if (process.env.TUTORIAL_STEPS_KEEP) console.log(`${plan.slug}: the run is kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}
