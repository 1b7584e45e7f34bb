import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { guideUnits, type Unit } from './checks.js';
import { guideBlocks, SHELL_LANGS, type CodeBlock, type GuideFile } from './code-blocks.js';
import { guidesBefore } from './effective.js';

/*
 * Run-time gaps: steps that pass every syntax check and still fail when a reader runs them (issue #42).
 * A missing user or file, a permission, a PATH, a program never installed, a reload that should be a
 * restart, a script whose `set -e` does not stop it. Each rule reads what the guide defines and runs
 * (its blocks, the files its heredocs write, the guides its Prerequisites section links to) and reports
 * where a step depends on something no step provides. The executed runner (test/tutorial-steps) runs
 * the listed tutorials for real; these rules cover every tutorial, and the gaps no run here can reach.
 */

export type RunTimeRule =
  | 'dump-as-root'
  | 'set-e-and-list'
  | 'upstream-unused'
  | 'user-never-created'
  | 'file-never-written'
  | 'sudo-without-rule'
  | 'build-without-dev-deps'
  | 'reload-needs-restart'
  | 'socket-without-access'
  | 'pipe-to-shell'
  | 'never-installed'
  | 'not-on-login-path'
  | 'root-login-closed-first'
  | 'fail2ban-without-log'
  | 'fifo-as-file'
  | 'restore-not-backed-up'
  | 'aide-rule-on-symlink'
  | 'port-never-opened'
  | 'compose-env-unreadable';

export interface RunTimeFinding {
  guide: string;
  rule: RunTimeRule;
  /** The guide file's line the finding is about (0 when it is about the guide as a whole). */
  line: number;
  detail: string;
}

/** What the rules read of one guide, and of the guides a reader follows before it. */
interface Context {
  guide: GuideFile;
  blocks: CodeBlock[];
  units: Unit[];
  /** Shell blocks of this guide, then the file scripts its heredocs and path= blocks write. */
  shell: CodeBlock[];
  /** The text of this guide's shell blocks and of the guides before it (what the reader's server has been given). */
  providedText: string;
}

const isShell = (b: CodeBlock) => SHELL_LANGS.has(b.lang) && b.attrs.check !== 'none';

/** Lines of a block with their line in the guide file. */
function lines(b: CodeBlock): Array<{ text: string; line: number }> {
  return b.content.split('\n').map((text, i) => ({ text, line: b.line + 1 + i }));
}

/** The commands of a shell text, one per logical line (backslash continuations joined), comments cut. */
function commands(b: CodeBlock): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let pending: { text: string; line: number } | undefined;
  for (const l of lines(b)) {
    const text = l.text.replace(/(^|\s)#(?![!{]).*$/, '$1');
    pending = pending ? { text: pending.text + ' ' + text.trim(), line: pending.line } : { text, line: l.line };
    if (/\\\s*$/.test(text)) {
      pending.text = pending.text.replace(/\\\s*$/, '');
      continue;
    }
    out.push(pending);
    pending = undefined;
  }
  if (pending) out.push(pending);
  return out;
}

const finding = (ctx: Context, rule: RunTimeRule, line: number, detail: string): RunTimeFinding => ({
  guide: ctx.guide.slug,
  rule,
  line,
  detail,
});

// ---------------------------------------------------------------------------------------------------
// Databases and backups

/**
 * borgmatic runs as root. A `postgresql_databases` entry with no `username` makes psql and pg_dump
 * connect as role `root`, which a stock PostgreSQL does not have, so the backup fails; Debian's
 * `pg_hba.conf` lets only the OS user `postgres` in as `postgres` over the socket, so the entry needs
 * the dump commands run as that user (`pg_dump_command: runuser -u postgres -- pg_dump`), or a username
 * with a password over TCP.
 */
function dumpAsRoot(ctx: Context): RunTimeFinding[] {
  const out: RunTimeFinding[] = [];
  for (const u of ctx.units.filter((x) => x.kind === 'yaml' && /^\s*postgresql_databases:/m.test(x.content))) {
    let doc: Record<string, unknown>;
    try {
      doc = parse(u.content) as Record<string, unknown>;
    } catch {
      continue;
    }
    const entries = (doc?.postgresql_databases ??
      (doc?.hooks as Record<string, unknown> | undefined)?.postgresql_databases) as
      Array<Record<string, unknown>> | undefined;
    for (const e of entries ?? []) {
      const asPostgres = (c: unknown) =>
        typeof c === 'string' && /\b(runuser\s+-u\s+postgres|sudo\s+-u\s+postgres|su\s+postgres)\b/.test(c);
      const line = u.content.split('\n').findIndex((l) => /postgresql_databases:/.test(l)) + 1;
      // Without a format, `all` is one pg_dumpall, and a pg_dump_command replaces it with a pg_dump of the default database.
      if (e.name === 'all' && e.pg_dump_command !== undefined && e.format === undefined) {
        out.push(
          finding(
            ctx,
            'dump-as-root',
            u.line + line,
            `postgresql_databases entry "all" sets pg_dump_command without a format: borgmatic then runs that command in place of pg_dumpall, and the archive holds only the default database`,
          ),
        );
        continue;
      }
      // psql lists the databases of `all` (with a format); pg_dump dumps each.
      if (
        e.username !== undefined ||
        (asPostgres(e.pg_dump_command) && (e.name !== 'all' || asPostgres(e.psql_command)))
      )
        continue;
      out.push(
        finding(
          ctx,
          'dump-as-root',
          u.line + line,
          `postgresql_databases entry "${String(e.name)}" sets no username and no pg_dump_command/psql_command run as postgres: borgmatic runs as root, so the dump connects as role "root", which a stock PostgreSQL refuses`,
        ),
      );
    }
  }
  return out;
}

/** PostgreSQL settings that take effect only when the server starts (the "postmaster" context). */
const POSTMASTER_SETTINGS = [
  'listen_addresses',
  'port',
  'shared_buffers',
  'max_connections',
  'shared_preload_libraries',
  'wal_level',
  'max_wal_senders',
  'huge_pages',
  'ssl_library',
];

/** A guide that changes a start-only PostgreSQL setting and then reloads (rather than restarts) the server. */
function reloadNeedsRestart(ctx: Context): RunTimeFinding[] {
  const out: RunTimeFinding[] = [];
  let pending: { name: string; line: number } | undefined;
  for (const b of ctx.blocks) {
    for (const l of lines(b)) {
      const set = new RegExp(`^\\s*(${POSTMASTER_SETTINGS.join('|')})\\s*=`).exec(l.text);
      if (
        (set && (b.attrs.path ?? b.attrs['part-of'] ?? '').includes('postgresql')) ||
        (set && isShell(b) && /postgresql/.test(b.content))
      )
        pending = { name: set![1], line: l.line };
      const action =
        /\bsystemctl\s+(reload|restart)\s+postgresql\S*/.exec(l.text) ??
        /\bpg_ctlcluster\s+\S+\s+\S+\s+(reload|restart)\b/.exec(l.text);
      if (action && pending) {
        if (action[1] === 'reload')
          out.push(
            finding(
              ctx,
              'reload-needs-restart',
              l.line,
              `${pending.name} (line ${pending.line}) takes effect only when PostgreSQL starts, but the next step reloads it: the old value stays until a restart`,
            ),
          );
        pending = undefined;
      }
    }
  }
  return out;
}

/**
 * restic restores of a path (`restic restore --include P`, `restic dump SNAPSHOT P`) that no `restic
 * backup` of this guide or a guide it links saves (a path it backs up, or a `--stdin-filename`).
 */
function restoreNotBackedUp(ctx: Context, all: GuideFile[]): RunTimeFinding[] {
  const restores = ctx.shell.flatMap((b) =>
    commands(b).flatMap((c) => {
      if (/\brestic\s+restore\b/.test(c.text)) return [{ ...c, include: /--include[ =](\S+)/.exec(c.text)?.[1] }];
      const dump = /\brestic\s+dump\b(?:\s+--?\S+(?:\s+(?!\/)[^\s-]\S*)?)*\s+\S+\s+(\/\S+)/.exec(c.text);
      return dump ? [{ ...c, include: dump[1] }] : [];
    }),
  );
  if (!restores.some((r) => r.include)) return [];
  const linked = new Set([ctx.guide.slug, ...[...ctx.guide.body.matchAll(/\/guides\/([a-z0-9-]+)/g)].map((m) => m[1])]);
  const saved = all
    .filter((g) => linked.has(g.slug))
    .flatMap((g) =>
      guideBlocks(g)
        .filter(isShell)
        .flatMap((b) =>
          [...b.content.replace(/\\\n/g, ' ').matchAll(/\brestic\s+backup\b([^\n|]*)/g)].map((m) => m[1]),
        ),
    )
    .flatMap((args) => [
      ...args
        .split(/\s+/)
        .filter((w, i, ws) => w.startsWith('/') && !/^--(exclude|iexclude|exclude-file)$/.test(ws[i - 1] ?? '')),
      ...[...args.matchAll(/--stdin-filename[ =](\S+)/g)].map((m) => '/' + m[1].replace(/^\//, '')),
    ]);
  return restores
    .filter(
      (r) => r.include && !saved.some((p) => r.include === p || r.include!.startsWith(p.replace(/\/$/, '') + '/')),
    )
    .map((r) =>
      finding(
        ctx,
        'restore-not-backed-up',
        r.line,
        `restores ${r.include}, but no restic backup in this guide or the guides it links saves that path (they save ${[...new Set(saved)].join(' ') || 'nothing'})`,
      ),
    );
}

// ---------------------------------------------------------------------------------------------------
// Scripts

/**
 * Under `set -e` a failure of any command of an `a && b` list but the last is ignored: `nginx -t &&
 * systemctl reload nginx` does not stop the script when the test fails, and the next line runs. A test
 * (`[ ... ] && ...`) is exempt: there the failing branch is the intended flow. The last command of the
 * script is exempt too, since its status is the script's.
 */
function setEAndList(ctx: Context): RunTimeFinding[] {
  const out: RunTimeFinding[] = [];
  for (const b of ctx.shell) {
    if (!/^\s*set\s+-[a-z]*e|^\s*set\s+-o\s+errexit|^#!.*\s-e\b/m.test(b.content)) continue;
    const cmds = commands(b).filter((c) => c.text.trim());
    cmds.forEach((c, i) => {
      if (i === cmds.length - 1) return;
      // Quoted text and subshells are another shell's lists: a failing subshell fails as a whole.
      const t = topLevel(c.text.trim());
      if (/^(if|while|until|elif)\b/.test(t) || /\|\|/.test(t) || !/&&/.test(t)) return;
      const first = t
        .split('&&')[0]
        .trim()
        .replace(/^sudo\s+/, '');
      if (/^(\[|\[\[|test\b|!)/.test(first)) return;
      out.push(
        finding(
          ctx,
          'set-e-and-list',
          c.line,
          `under set -e, a failing "${first}" in "${t}" does not stop the script: the lines after it still run`,
        ),
      );
    });
  }
  return out;
}

/** A command with its quoted strings and parenthesised subshells blanked out. */
function topLevel(text: string): string {
  let out = text.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '""');
  for (let prev = ''; prev !== out;) {
    prev = out;
    out = out.replace(/\$?\([^()]*\)/g, '_');
  }
  return out;
}

/** `npm ci --omit=dev` (or --production) and then `npm run build`: most builds need the dev dependencies just left out. */
function buildWithoutDevDeps(ctx: Context): RunTimeFinding[] {
  return ctx.shell.flatMap((b) =>
    commands(b)
      .filter((c) =>
        /\bnpm\s+(ci|install)\b[^\n;&|]*(--omit[= ]dev|--production|--only[= ]prod)[\s\S]*\bnpm\s+run\s+build\b/.test(
          c.text,
        ),
      )
      .map((c) =>
        finding(
          ctx,
          'build-without-dev-deps',
          c.line,
          'installs without dev dependencies, then builds: a build that needs its dev dependencies (TypeScript, bundlers) fails; install all, build, then `npm prune --omit=dev`',
        ),
      ),
  );
}

/** A script the guide writes that calls sudo, in a guide that grants no sudo rule: run by a deploy user it asks a password or is refused. */
function sudoWithoutRule(ctx: Context): RunTimeFinding[] {
  if (/\/etc\/sudoers\.d\/|\bvisudo\b/.test(ctx.providedText)) return [];
  const scripts = ctx.shell.filter(
    (b) => (b.attrs.path || b.attrs['part-of']) && /^\s*[^#\n]*\bsudo\s/m.test(b.content),
  );
  return scripts
    .filter((b) =>
      /run as (the|a) (deploy|non-root|unprivileged)|as the deploy user|runs as \w+ and calls sudo/i.test(
        ctx.guide.body,
      ),
    )
    .map((b) =>
      finding(
        ctx,
        'sudo-without-rule',
        b.line,
        `${b.attrs.path ?? b.attrs['part-of']} calls sudo as a user the guide never grants a sudo rule: sudo asks for a password or refuses, and the script stops halfway`,
      ),
    );
}

/** A socket unit's FIFO written with `>` by a script: while the service is stopped the FIFO is absent, and `>` creates a regular file in its place. */
function fifoAsFile(ctx: Context): RunTimeFinding[] {
  const fifos = ctx.units
    .filter((u) => u.kind === 'systemd')
    .flatMap((u) => [...u.content.matchAll(/^\s*ListenFIFO\s*=\s*(\S+)/gm)].map((m) => m[1]));
  if (!fifos.length) return [];
  const scripts = ctx.shell.filter((b) => b.attrs.path || b.attrs['part-of'] || /<<['"]?\w+['"]?/.test(b.content));
  return scripts.flatMap((b) =>
    fifos.flatMap((fifo) => {
      if (new RegExp(`-p\\s+"?${fifo.replace(/[.]/g, '\\.')}`).test(b.content)) return [];
      return lines(b)
        .filter((l) => new RegExp(`>>?\\s*"?${fifo.replace(/[.]/g, '\\.')}`).test(l.text))
        .map((l) =>
          finding(
            ctx,
            'fifo-as-file',
            l.line,
            `writes ${fifo} with a redirection that creates a regular file when the FIFO is absent (service stopped): the socket unit then cannot start; test it with [ -p ${fifo} ] first`,
          ),
        );
    }),
  );
}

/** `curl ... | sh`: without -f an HTTP error page is run as a script, and nothing checks what was downloaded. */
function pipeToShell(ctx: Context): RunTimeFinding[] {
  return ctx.shell.flatMap((b) =>
    commands(b)
      .filter((c) => /\b(curl|wget)\b[^|]*\|\s*(sudo\s+(-\S+\s+)*)?(ba|da)?sh\b/.test(c.text))
      .map((c) =>
        finding(
          ctx,
          'pipe-to-shell',
          c.line,
          `"${c.text.trim()}" runs whatever the server sends${/\bcurl\b[^|]*\s-(\w*f|-fail)\b/.test(c.text) ? '' : ' (without -f, an error page too)'}, unchecked: download to a file with curl -fsSL, check it, then run it`,
        ),
      ),
  );
}

// ---------------------------------------------------------------------------------------------------
// Users, files, programs

/** Users Debian's base-passwd creates on every system, and users the packages a guide installs create. */
const BASE_USERS = new Set([
  'root',
  'daemon',
  'bin',
  'sys',
  'sync',
  'games',
  'man',
  'lp',
  'mail',
  'news',
  'uucp',
  'proxy',
  'www-data',
  'backup',
  'list',
  'irc',
  '_apt',
  'nobody',
]);
const PACKAGE_USERS: Record<string, string> = {
  postgres: 'postgresql',
  redis: 'redis-server',
  mysql: 'mariadb-server',
  caddy: 'caddy',
  prometheus: 'prometheus',
  'node-exporter': 'prometheus-node-exporter',
  grafana: 'grafana',
  haproxy: 'haproxy',
  _chrony: 'chrony',
  'systemd-network': 'systemd',
};

/** A unit's `User=` that is no stock user, no package's user, and that no step creates. */
function userNeverCreated(ctx: Context): RunTimeFinding[] {
  return (
    ctx.units
      .filter((u) => u.kind === 'systemd' && !/^\s*DynamicUser\s*=\s*(yes|true|1)/m.test(u.content))
      .flatMap((u) =>
        [...u.content.matchAll(/^\s*User\s*=\s*(\S+)/gm)].map((m) => ({
          u,
          user: m[1],
          at: u.content.slice(0, m.index).split('\n').length,
        })),
      )
      .filter(({ user }) => !BASE_USERS.has(user) && !user.includes('%') && !user.startsWith('$'))
      .filter(({ user }) => !(PACKAGE_USERS[user] && new RegExp(`\\b${PACKAGE_USERS[user]}\\b`).test(ctx.providedText)))
      .filter(({ user }) => !new RegExp(`\\b(useradd|adduser)\\b[^\\n]*\\s${user}\\b`).test(ctx.providedText))
      // A user the guide shows running a cron job already exists on the server it starts from.
      .filter(
        ({ user }) =>
          !ctx.blocks.some(
            (b) =>
              (b.attrs.path ?? '').startsWith('/etc/cron.d/') &&
              new RegExp(`^\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+${user}\\s`, 'm').test(b.content),
          ),
      )
      .map(({ u, user, at }) =>
        finding(
          ctx,
          'user-never-created',
          u.line + at,
          `${u.path ?? 'the unit'} runs as User=${user}, but no step creates that user: systemd refuses to start the unit ("Failed to determine user credentials")`,
        ),
      )
  );
}

/** The instance names a guide starts a template unit with (`api@blue` -> blue). */
function instances(ctx: Context, template: string): string[] {
  const base = template.replace(/@\.\w+$/, '');
  return [...new Set([...ctx.providedText.matchAll(new RegExp(`\\b${base}@([A-Za-z0-9_-]+)`, 'g'))].map((m) => m[1]))];
}

/**
 * `EnvironmentFile=` without `-` and `WorkingDirectory=` must exist when the unit starts: some step must
 * write or create the path (a path= block, a heredoc, or a shell command naming it or a file under it).
 */
function fileNeverWritten(ctx: Context): RunTimeFinding[] {
  const out: RunTimeFinding[] = [];
  const written = new Set<string>([
    ...(ctx.blocks.map((b) => b.attrs.path).filter(Boolean) as string[]),
    ...ctx.units.filter((u) => u.path).map((u) => u.path!),
  ]);
  const shellText = ctx.providedText;
  const mentioned = (p: string) => written.has(p) || shellText.includes(p);
  for (const u of ctx.units.filter((x) => x.kind === 'systemd' && x.path)) {
    const name = u.path!.split('/').pop()!;
    const names = name.includes('@.') ? instances(ctx, name) : [''];
    for (const m of u.content.matchAll(/^\s*(EnvironmentFile|WorkingDirectory)\s*=\s*(\S+)/gm)) {
      const [, key, raw] = m;
      if (raw.startsWith('-') || raw.startsWith('~') || /%[hSCLtT]/.test(raw)) continue;
      for (const i of names.length ? names : ['%i']) {
        const p = raw.replace(/%i/g, i);
        if (p.includes('%')) continue;
        if (!mentioned(p))
          out.push(
            finding(
              ctx,
              'file-never-written',
              u.line + u.content.slice(0, m.index).split('\n').length,
              `${key}=${p}${i && i !== '%i' ? ` (instance ${i})` : ''} is never created by any step: systemd refuses to start the unit`,
            ),
          );
      }
    }
  }
  return out;
}

/**
 * Programs that come from a package a minimal Debian or Ubuntu server does not have (the Debian package
 * each is in, or how it is installed): a guide that runs one needs a step that installs it, in itself or
 * in a guide its Prerequisites section links to.
 */
const NOT_PREINSTALLED: Record<string, { packages: string[]; other?: RegExp }> = {
  socat: { packages: ['socat'] },
  caddy: { packages: ['caddy'] },
  wp: { packages: ['wp-cli'], other: /\/usr\/local\/bin\/wp\b/ },
  borgmatic: { packages: ['borgmatic'], other: /pipx\s+install\s+borgmatic/ },
  restic: { packages: ['restic'], other: /\/usr\/local\/bin\/restic\b/ },
};

/** Commands the prose tells the reader to run, in inline code (`wp core update`, `sudo systemctl reload caddy`). */
function proseCommands(guide: GuideFile): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let fenced = false;
  guide.body.split('\n').forEach((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) fenced = !fenced;
    else if (!fenced) for (const m of l.matchAll(/`([^`]+)`/g)) out.push({ text: m[1], line: guide.bodyLine + i });
  });
  return out;
}

const installs = (text: string, pkg: string) =>
  new RegExp(`\\b(apt|apt-get)\\s+(-\\S+\\s+)*install\\b[^\\n]*?\\s${pkg.replace(/[.+]/g, '\\$&')}(\\s|$|=)`, 'm').test(
    text.replace(/\\\n/g, ' '),
  );

function neverInstalled(ctx: Context): RunTimeFinding[] {
  const out: RunTimeFinding[] = [];
  for (const [prog, how] of Object.entries(NOT_PREINSTALLED)) {
    if (how.packages.some((p) => installs(ctx.providedText, p)) || how.other?.test(ctx.providedText)) continue;
    // A service counts as used where the guide also writes its configuration (/etc/caddy/...).
    const service = ctx.blocks.some((b) => (b.attrs.path ?? '').startsWith(`/etc/${prog}/`))
      ? `|\\bsystemctl\\s+\\w+\\s+${prog}\\b`
      : '';
    const runs = new RegExp(`(^|[;&|({]\\s*|\\bsudo\\s+(-\\S+\\s+)*|\\bexec\\s+)${prog}\\s${service}`);
    const use = [...ctx.shell.filter((b) => !b.attrs['part-of']).flatMap(commands), ...proseCommands(ctx.guide)].find(
      (c) => runs.test(c.text.trim() + ' '),
    );
    if (use)
      out.push(
        finding(
          ctx,
          'never-installed',
          use.line,
          `runs ${prog}, which a minimal server lacks, and no step here or in the Prerequisites installs it (${how.packages.join(' or ')})`,
        ),
      );
  }
  return out;
}

/** The PATH Debian gives a non-root login shell (ENV_PATH of login.defs, which base-files/login ships). */
function loginPath(): string[] {
  try {
    const m = /^ENV_PATH\s+PATH=(\S+)/m.exec(readFileSync('/etc/login.defs', 'utf8'));
    if (m) return m[1].split(':');
  } catch {
    /* not a Debian machine: use Debian's default below */
  }
  return ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/games', '/usr/games'];
}

/** Programs that live only in an sbin directory of the package that ships them (postfix, exim: /usr/sbin/sendmail). */
const SBIN_ONLY: Record<string, string> = {
  sendmail: '/usr/sbin/sendmail',
  postqueue: '/usr/sbin/postqueue',
  postconf: '/usr/sbin/postconf',
};

/** A program typed at a prompt without sudo or its full path, where Debian's login PATH does not reach it. */
function notOnLoginPath(ctx: Context): RunTimeFinding[] {
  const supportsDebian = systemsOf(ctx.guide).some((s) => s.startsWith('debian')) || !systemsOf(ctx.guide).length;
  if (!supportsDebian) return [];
  const path = loginPath();
  return ctx.shell
    .filter((b) => !b.attrs.path && !b.attrs['part-of'])
    .flatMap(commands)
    .flatMap((c) =>
      Object.entries(SBIN_ONLY)
        .filter(
          ([prog, full]) =>
            !path.includes(full.slice(0, full.lastIndexOf('/'))) &&
            new RegExp(`(^|\\|\\s*)${prog}\\s`).test(c.text.trim() + ' '),
        )
        .map(([prog, full]) =>
          finding(
            ctx,
            'not-on-login-path',
            c.line,
            `runs ${prog} without sudo or its path: it is ${full}, which Debian's PATH for a non-root login (${path.join(':')}) does not include`,
          ),
        ),
    );
}

/** `curl --unix-socket P` without sudo, where P is in a unit's RuntimeDirectory, made by a socket mode only its user and group may use. */
function socketWithoutAccess(ctx: Context): RunTimeFinding[] {
  const runtime = ctx.units
    .filter((u) => u.kind === 'systemd')
    .flatMap((u) => {
      const dir = /^\s*RuntimeDirectory\s*=\s*(\S+)/m.exec(u.content)?.[1];
      const user = /^\s*User\s*=\s*(\S+)/m.exec(u.content)?.[1];
      return dir && user && user !== 'root' ? [{ dir: `/run/${dir}/`, user }] : [];
    });
  return ctx.shell.flatMap((b) =>
    commands(b).flatMap((c) => {
      const m = /^(?!\s*sudo\b)\s*curl\b[^\n]*--unix-socket[ =](\S+)/.exec(c.text);
      const r = m && runtime.find((x) => m[1].startsWith(x.dir));
      return r
        ? [
            finding(
              ctx,
              'socket-without-access',
              c.line,
              `${m![1]} belongs to ${r.user} and its group (mode 770 or stricter): curl as the reader's login user is refused ("Permission denied"); run it with sudo -u ${r.user}`,
            ),
          ]
        : [];
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Access and services

/** `PermitRootLogin no` written before any step (here or in the Prerequisites) creates a user that can sudo. */
function rootLoginClosedFirst(ctx: Context, before: Map<string, string[]>): RunTimeFinding[] {
  const prerequisites = before.get(ctx.guide.slug) ?? [];
  if (prerequisites.includes('create-sudo-user')) return [];
  const makesSudoer =
    /\b(usermod\s+-aG\s+sudo|adduser\s+\S+\s+sudo|useradd\b[^\n]*-G\s*sudo)\b|^\s*groups:\s*\[?\s*sudo\b|\/etc\/sudoers\.d\//m;
  const toldBefore = (line: number) =>
    ctx.guide.text
      .split('\n')
      .slice(0, line - 1)
      .some((l) => l.includes('/guides/create-sudo-user') || /assumes you already [^.]*(non-root )?sudo user/.test(l));
  for (const b of ctx.blocks) {
    if (makesSudoer.test(b.content)) return [];
    const l = lines(b).find((x) => /^\s*PermitRootLogin\s+no\b/i.test(x.text));
    if (l && !toldBefore(l.line))
      return [
        finding(
          ctx,
          'root-login-closed-first',
          l.line,
          'closes root login before any step (here or in the Prerequisites) creates a user that can sudo: on a fresh server whose only login is root, the next login is refused',
        ),
      ];
  }
  return [];
}

/**
 * fail2ban's sshd jail reads /var/log/auth.log unless a jail sets `backend = systemd`. Debian 12 logs to
 * the journal only (no rsyslog), and Debian 12's fail2ban sets no backend, so it exits at start ("Have
 * not found any log file for sshd jail"). Debian 13's package sets `backend = systemd` itself.
 */
function fail2banWithoutLog(ctx: Context): RunTimeFinding[] {
  const install = ctx.shell.flatMap(commands).find((c) => installs(c.text, 'fail2ban'));
  if (!install) return [];
  const systems = systemsOf(ctx.guide);
  if (systems.length && !systems.includes('debian-12')) return [];
  if (/^\s*backend\s*=\s*systemd/m.test(ctx.providedText) || /\brsyslog\b/.test(ctx.providedText)) return [];
  return [
    finding(
      ctx,
      'fail2ban-without-log',
      install.line,
      'installs fail2ban with its sshd jail reading /var/log/auth.log, which Debian 12 (journal only, no rsyslog) does not have: fail2ban exits at start; set backend = systemd in a jail.d file',
    ),
  ];
}

/** Ports a guide's HAProxy or nginx binds publicly, on a server whose ufw (here or in the Prerequisites) denies incoming by default. */
function portNeverOpened(ctx: Context, before: Map<string, string[]>, all: GuideFile[]): RunTimeFinding[] {
  const linked = new Set([
    ...(before.get(ctx.guide.slug) ?? []),
    ...[...ctx.guide.body.matchAll(/\/guides\/(ufw-[a-z0-9-]+)/g)].map((m) => m[1]),
  ]);
  const ufwText = [
    ctx.providedText,
    ...all
      .filter((g) => linked.has(g.slug))
      .map((g) =>
        guideBlocks(g)
          .filter(isShell)
          .map((b) => b.content)
          .join('\n'),
      ),
  ].join('\n');
  if (!/\bufw\b/.test(ufwText)) return [];
  const ports = new Set<string>();
  for (const u of ctx.units.filter((x) => x.kind === 'haproxy'))
    for (const m of u.content.matchAll(/^\s*bind\s+(?:\*|0\.0\.0\.0|::|\[::\])?:(\d+)\b/gm)) ports.add(m[1]);
  const allowed = (p: string) =>
    new RegExp(
      `\\bufw\\s+(allow|limit)\\s+(${p}(/tcp)?\\b|[\\d,]*\\b${p}\\b[\\d,]*/tcp|"?(Nginx Full|WWW Full)"?)`,
      'i',
    ).test(ctx.providedText) ||
    (['80', '443'].includes(p) && /ufw\s+allow\s+"?(Nginx Full|WWW Full)/i.test(ctx.providedText));
  const closed = [...ports].filter((p) => !allowed(p));
  return closed.length
    ? [
        finding(
          ctx,
          'port-never-opened',
          0,
          `binds port${closed.length > 1 ? 's' : ''} ${closed.join(', ')} on a server the ufw guide it follows closes by default, and no step opens ${closed.length > 1 ? 'them' : 'it'} (ufw allow)`,
        ),
      ]
    : [];
}

/** An AIDE rule on a path a tutorial creates as a symlink (a deploy's `current`): AIDE does not follow it, so the rule checks only the link. */
function aideRuleOnSymlink(ctx: Context, all: GuideFile[]): RunTimeFinding[] {
  const aide = ctx.blocks.filter((b) => /^\/etc\/aide\//.test(b.attrs.path ?? b.attrs['part-of'] ?? ''));
  if (!aide.length) return [];
  const links = new Set(
    all.flatMap((g) =>
      guideBlocks(g)
        .filter(isShell)
        .flatMap((b) =>
          [...b.content.matchAll(/\bln\s+-[a-z]*s[a-z]*\s+\S+\s+"?([^\s"]+)"?/g)].map(
            (m) => m[1].split('/').filter(Boolean).pop() ?? '',
          ),
        ),
    ),
  );
  return aide.flatMap((b) =>
    lines(b)
      .filter((l) => /^\s*\//.test(l.text))
      .flatMap((l) => {
        const path = l.text.trim().split(/\s+/)[0];
        const link = path
          .split('/')
          .filter(Boolean)
          .find((c) => links.has(c));
        return link
          ? [
              finding(
                ctx,
                'aide-rule-on-symlink',
                l.line,
                `${path}: "${link}" is a symlink the deploy guides create; AIDE does not follow symlinks, so this rule checks the link and none of the release's files`,
              ),
            ]
          : [];
      }),
  );
}

/** `docker compose` run without sudo in a project directory root created, holding a root-only `.env`. */
function composeEnvUnreadable(ctx: Context): RunTimeFinding[] {
  const dirs = [
    ...ctx.shell
      .map((b) => b.content)
      .join('\n')
      .matchAll(/\bsudo\s+mkdir\s+(?:-p\s+)?(\/[^\s;&|]+)/g),
  ].map((m) => m[1]);
  const dir = dirs.find((d) => ctx.blocks.some((b) => b.attrs.path === `${d}/.env`));
  if (!dir || !/mode 600|chmod 600|0600/.test(ctx.guide.body)) return [];
  const bare = ctx.shell.flatMap(commands).find((c) => /^\s*docker\s+compose\b/.test(c.text));
  return bare
    ? [
        finding(
          ctx,
          'compose-env-unreadable',
          bare.line,
          `runs docker compose without sudo in ${dir}, which root created and whose .env is root-only (mode 600): compose cannot read it, nor reach the Docker socket without the docker group`,
        ),
      ]
    : [];
}

/** An nginx upstream the guide defines that none of its nginx blocks sends requests to. */
function upstreamUnused(ctx: Context): RunTimeFinding[] {
  const nginx = ctx.units.filter((u) => u.kind === 'nginx');
  const text = nginx.map((u) => u.content).join('\n');
  // Whole files only: a part (part-of=) changes a file the guide has shown whole elsewhere.
  return nginx
    .filter((u) => u.path)
    .flatMap((u) =>
      [...u.content.matchAll(/\bupstream\s+([\w.-]+)\s*\{/g)]
        .filter(
          (m) => !new RegExp(`\\b(proxy|fastcgi|uwsgi|grpc|scgi)_pass\\s+(https?://|grpcs?://)?${m[1]}\\b`).test(text),
        )
        .map((m) =>
          finding(
            ctx,
            'upstream-unused',
            u.line + u.content.slice(0, m.index).split('\n').length,
            `upstream ${m[1]} is defined, but no server block of the guide proxies to it: a reader has no site that uses it`,
          ),
        ),
    );
}

// ---------------------------------------------------------------------------------------------------

/** The systems a tutorial names in `systems` (e.g. debian-13, ubuntu-24.04). */
export function systemsOf(guide: GuideFile): string[] {
  const s = guide.front.systems;
  return Array.isArray(s) ? s.map(String) : [];
}

/** Every run-time gap of a guide; `all` are the tutorials a reader may follow before it or link to. */
export function runTimeFindings(guide: GuideFile, all: GuideFile[]): RunTimeFinding[] {
  const before = guidesBefore(all.some((g) => g.slug === guide.slug) ? all : [...all, guide]);
  const blocks = guideBlocks(guide);
  const prior = all.filter((g) => (before.get(guide.slug) ?? []).includes(g.slug));
  const providedText = [guide, ...prior]
    .flatMap((g) =>
      guideBlocks(g)
        .filter(isShell)
        .map((b) => b.content),
    )
    .join('\n');
  const ctx: Context = { guide, blocks, units: guideUnits(guide), shell: blocks.filter(isShell), providedText };
  return [
    ...dumpAsRoot(ctx),
    ...setEAndList(ctx),
    ...upstreamUnused(ctx),
    ...userNeverCreated(ctx),
    ...fileNeverWritten(ctx),
    ...sudoWithoutRule(ctx),
    ...buildWithoutDevDeps(ctx),
    ...reloadNeedsRestart(ctx),
    ...socketWithoutAccess(ctx),
    ...pipeToShell(ctx),
    ...neverInstalled(ctx),
    ...notOnLoginPath(ctx),
    ...rootLoginClosedFirst(ctx, before),
    ...fail2banWithoutLog(ctx),
    ...fifoAsFile(ctx),
    ...restoreNotBackedUp(ctx, all),
    ...aideRuleOnSymlink(ctx, all),
    ...portNeverOpened(ctx, before, all),
    ...composeEnvUnreadable(ctx),
  ];
}
