import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/*
 * The programs that check the tutorials' code blocks, and how to run them without touching the machine.
 *
 * Provisioning is test/system-setup.cjs's: it apt-installs the Debian packages below when their programs
 * are missing, and unpacks an sshd binary from `apt-get download openssh-server` into SSHD_CACHE (never
 * installing the package, so no server is configured or started), creating the `sshd`
 * privilege-separation user the package's postinst would create. Here we only find the programs.
 *
 * Every runner writes its input into a fresh directory under the OS temporary directory, runs the tool
 * with a timeout, and removes the directory. nft runs only under `unshare -n`; nginx and `ssh -G` run in
 * a network namespace of their own too, so nothing they do reaches the network, and the one server this
 * suite starts (nginx, for the effective checks) listens on a loopback port inside that namespace.
 */

/** Where test/system-setup.cjs unpacks openssh-server when /usr/sbin/sshd is not there. */
export const SSHD_CACHE = resolve('node_modules', '.cache', 'tutorial-tools', 'openssh-server');

/**
 * The Debian releases whose tools the checks run with (issue #42). Debian 12's are this machine's;
 * test/system-setup.cjs unpacks Debian 13's (and Debian 12's borgmatic) under TOOLS_CACHE/<system>, with a bin/
 * of wrappers named like the programs. While a check runs inside withSystem(s, ...), program() and
 * sshdBinary() find the programs of s first, and nginx and sshd read that release's stock configuration.
 */
export type CheckedSystem = 'debian-12' | 'debian-13';
export const CHECKED_SYSTEMS: CheckedSystem[] = ['debian-12', 'debian-13'];
export const TOOLS_CACHE = resolve('node_modules', '.cache', 'tutorial-tools');
let activeSystem: CheckedSystem = 'debian-12';

/** Runs fn with the tools of a Debian release (checks inside must be awaited before it returns). */
export async function withSystem<T>(system: CheckedSystem, fn: () => Promise<T>): Promise<T> {
  const previous = activeSystem;
  activeSystem = system;
  try {
    return await fn();
  } finally {
    activeSystem = previous;
  }
}

/** The Debian release whose tools program() returns now. */
export const currentSystem = (): CheckedSystem => activeSystem;

/** The root a release's unpacked packages are in ('' for this machine's own, Debian 12). */
const systemRoot = (system: CheckedSystem) => (system === 'debian-12' ? '' : join(TOOLS_CACHE, system, 'root'));

/** A release's stock /etc/nginx (this machine's for Debian 12, nginx-common's files for Debian 13). */
export const systemNginxEtc = () => join(systemRoot(activeSystem) || '/', 'etc', 'nginx');

/** The versions of the packages test/system-setup.cjs unpacked for a release. */
export function unpackedVersions(system: CheckedSystem): Record<string, string> {
  const file = join(TOOLS_CACHE, system, 'tools.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).packages as Record<string, string>) : {};
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a program to its end (SIGKILL after timeoutMs), with optional standard input. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 30_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // sshd and ssh end their fatal messages with \r\n.
      resolvePromise({ code, stdout: stdout.replace(/\r\n/g, '\n'), stderr: stderr.replace(/\r\n/g, '\n'), timedOut });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh directory under the OS temporary directory; `write` takes paths relative to it. */
export class Scratch {
  readonly dir: string;
  constructor(label: string) {
    this.dir = mkdtempSync(join(tmpdir(), `tutorial-${label}-`));
  }
  path(rel: string): string {
    return join(this.dir, rel.replace(/^\/+/, ''));
  }
  write(rel: string, content: string): string {
    const p = this.path(rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    return p;
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs fn with a scratch directory and removes it afterwards. */
export async function inScratch<T>(label: string, fn: (s: Scratch) => Promise<T>): Promise<T> {
  const s = new Scratch(label);
  try {
    return await fn(s);
  } finally {
    s.remove();
  }
}

const found = new Map<string, string | undefined>();

/** The full path of a program on PATH (or the sbin directories), or undefined. */
export function which(name: string): string | undefined {
  if (!found.has(name)) {
    const r = spawnSync('sh', ['-c', `PATH="$PATH:/usr/sbin:/sbin"; command -v "$1"`, 'sh', name], {
      encoding: 'utf8',
    });
    found.set(name, r.status === 0 ? r.stdout.trim() : undefined);
  }
  return found.get(name);
}

/** The programs the suite needs and the Debian package of each (what test/system-setup.cjs installs). */
export const PROGRAMS: Record<string, string> = {
  bash: 'bash',
  dash: 'dash',
  shellcheck: 'shellcheck',
  nginx: 'nginx',
  nft: 'nftables',
  unshare: 'util-linux',
  ip: 'iproute2',
  haproxy: 'haproxy',
  'ansible-playbook': 'ansible-core',
  'ansible-inventory': 'ansible-core',
  ansible: 'ansible-core',
  'cloud-init': 'cloud-init',
  ssh: 'openssh-client',
  'ssh-keygen': 'openssh-client',
  'systemd-analyze': 'systemd',
  python3: 'python3',
  openssl: 'openssl',
};

/** A program's path (the current system's own first), or an error that says which package provides it. */
export function program(name: string): string {
  const own = join(TOOLS_CACHE, activeSystem, 'bin', name);
  if (existsSync(own)) return own;
  if (activeSystem !== 'debian-12' && SYSTEM_PROGRAMS.has(name))
    throw new Error(`${name} of ${activeSystem} is missing from ${own}: test/system-setup.cjs unpacks it`);
  const path = which(name);
  if (!path)
    throw new Error(
      `${name} is missing: install the Debian package ${PROGRAMS[name] ?? name} (test/system-setup.cjs does, as root)`,
    );
  return path;
}

/** Programs whose version a tutorial's verifiedWith states: each checked system must bring its own. */
const SYSTEM_PROGRAMS = new Set([
  'nginx',
  'sshd',
  'haproxy',
  'ansible-playbook',
  'ansible-inventory',
  'ansible',
  'cloud-init',
  'borgmatic',
  'validate-borgmatic-config',
]);

/** The sshd binary: the current system's, else $TUTORIAL_SSHD, the installed /usr/sbin/sshd, or the one test/system-setup.cjs unpacked. */
export function sshdBinary(): string {
  if (activeSystem !== 'debian-12') return program('sshd');
  for (const p of [process.env.TUTORIAL_SSHD, '/usr/sbin/sshd', join(SSHD_CACHE, 'usr', 'sbin', 'sshd')])
    if (p && existsSync(p)) return p;
  throw new Error(
    `no sshd binary: test/system-setup.cjs unpacks one into ${SSHD_CACHE} (apt-get download openssh-server), or set TUTORIAL_SSHD`,
  );
}

/** Debian's default /etc/ssh/sshd_config, as openssh-server installs it (from the package's own template). */
export function debianSshdConfigTemplate(): string | undefined {
  if (activeSystem !== 'debian-12') return join(systemRoot(activeSystem), 'usr', 'share', 'openssh', 'sshd_config');
  const sshd = sshdBinary();
  const root = sshd.replace(/\/usr\/sbin\/sshd$/, '');
  for (const p of [join(root, 'usr', 'share', 'openssh', 'sshd_config'), '/usr/share/openssh/sshd_config'])
    if (existsSync(p)) return p;
  return undefined;
}

/** Runs a command inside a new network namespace whose loopback is up (nothing else exists there). */
export function inNetns(command: string, args: string[], options: Parameters<typeof run>[2] = {}): Promise<Ran> {
  return run(
    program('unshare'),
    ['-n', 'sh', '-c', `${program('ip')} link set lo up && exec "$@"`, 'sh', command, ...args],
    options,
  );
}

/**
 * Runs sshd (which insists on its privilege-separation directory /run/sshd) without creating anything
 * outside the temporary directory: when /run/sshd is missing, in a private mount namespace with a tmpfs
 * on /run.
 */
export function runSshd(args: string[]): Promise<Ran> {
  const sshd = sshdBinary();
  if (existsSync('/run/sshd')) return run(sshd, args);
  return run(program('unshare'), [
    '-m',
    '--propagation',
    'private',
    'sh',
    '-c',
    'mount -t tmpfs tmpfs /run && mkdir -m 0755 /run/sshd && exec "$@"',
    'sh',
    sshd,
    ...args,
  ]);
}

/** Limits how many checks run at once (the machine has few cores). */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}
