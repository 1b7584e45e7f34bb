import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { guideBlocks, type CodeBlock, type GuideFile } from './code-blocks.js';
import { checkCompose, looksLikeCompose } from './compose.js';
import { blockHeredocs, heredocKind, verdict, type Kind } from './kinds.js';
import { isBorgmaticConfig } from './systems.js';
import {
  Scratch,
  debianSshdConfigTemplate,
  inNetns,
  inScratch,
  mapLimit,
  program,
  run,
  runSshd,
  systemNginxEtc,
  type Ran,
} from './tools.js';

/*
 * The checks by kind. A "unit" is a text the suite checks: a code block, or a file a bash heredoc
 * writes. Each finding is one line, `guide-file:line kind: what the tool said`, with the line in the
 * guide's markdown file where the tool's line falls.
 */

export interface Unit {
  guide: string;
  kind: Kind;
  content: string;
  /** The file the text is (path=, or the heredoc's target), or the file it is part of. */
  path?: string;
  partOf?: string;
  /** The guide file and the file line just before the text's first line (the fence, or the heredoc command). */
  file: string;
  line: number;
  /** 'block' or 'heredoc' (a file written by a bash block). */
  from: 'block' | 'heredoc';
  /** For a heredoc, whether the shell expands the body ($x, $(cmd)) before writing it. */
  expanded?: boolean;
  /** The systems the block is written for, when it says (systems=debian-12): only those systems' tools check it. */
  systems?: string[];
}

/** The units of a guide: its checked blocks, and the heredoc files of its shell blocks that a tool checks. */
export function guideUnits(guide: GuideFile): Unit[] {
  const units: Unit[] = [];
  for (const b of guideBlocks(guide)) units.push(...blockUnits(b));
  return units;
}

export function blockUnits(b: CodeBlock): Unit[] {
  const units: Unit[] = [];
  const v = verdict(b);
  const systems = b.attrs.systems ? { systems: b.attrs.systems.split(',') } : {};
  if ('check' in v)
    units.push({
      guide: b.guide,
      kind: v.check,
      content: b.content,
      path: v.path,
      partOf: v.partOf,
      file: b.file,
      line: b.line,
      from: 'block',
      ...systems,
    });
  if ('check' in v) {
    for (const h of blockHeredocs(b)) {
      const kind = heredocKind(h);
      if (!kind) continue;
      units.push({
        guide: b.guide,
        kind,
        content: h.content,
        path: h.append ? undefined : h.path,
        partOf: h.append ? h.path : undefined,
        file: b.file,
        line: h.line,
        from: 'heredoc',
        expanded: h.expanded,
        ...systems,
      });
    }
  }
  return units;
}

/** `file:line kind: message`, with the unit's own line n mapped to the guide file. */
export function finding(unit: { file: string; line: number; kind: string }, message: string, lineInUnit = 0): string {
  return `${unit.file}:${unit.line + Math.max(lineInUnit, 0)} ${unit.kind}: ${message.trim().replace(/\s*\n\s*/g, ' | ')}`;
}

const where = (u: Unit) =>
  u.from === 'heredoc' ? `heredoc ${u.path ?? u.partOf}` : u.path ? u.path : u.partOf ? `part of ${u.partOf}` : 'block';

// ---------------------------------------------------------------------------------------------------
// Shell: bash -n and shellcheck -S warning

/**
 * Codes left out for `bash` blocks, which are commands a reader types one by one rather than scripts:
 * SC2164 (`cd` without `|| exit`): at a prompt a failed cd is seen at once. Scripts (sh, heredoc and
 * path= scripts) get every warning.
 */
const TYPED_COMMANDS_EXCLUDE = ['SC2164'];

export async function checkShell(units: Unit[]): Promise<string[]> {
  if (!units.length) return [];
  return inScratch('shell', async (s) => {
    const findings: string[] = [];
    const files = units.map((u, i) => s.write(`u${i}.${u.kind}`, u.content));
    await mapLimit(units, 4, async (u, i) => {
      const r = await run(program(u.kind === 'sh' ? 'dash' : 'bash'), ['-n', files[i]]);
      if (r.code !== 0) {
        // bash prints the error and then the offending line: one finding for both.
        const byLine = new Map<number, string[]>();
        for (const line of r.stderr.trim().split('\n')) {
          const m = /line (\d+): (.*)$/.exec(line);
          const n = m ? Number(m[1]) : 0;
          byLine.set(n, [...(byLine.get(n) ?? []), m ? m[2] : line]);
        }
        for (const [n, texts] of byLine) findings.push(finding(u, `${u.kind} -n: ${texts.join(' in ')}`, n));
      }
    });
    for (const dialect of ['bash', 'sh'] as const) {
      for (const typed of [true, false]) {
        const idx = units
          .map((u, i) => i)
          .filter(
            (i) =>
              units[i].kind === dialect && (units[i].from === 'block' && !units[i].path && !units[i].partOf) === typed,
          );
        for (let k = 0; k < idx.length; k += 150) {
          const chunk = idx.slice(k, k + 150);
          const args = [
            '-s',
            dialect,
            '-S',
            'warning',
            '-f',
            'json1',
            ...(typed && dialect === 'bash' ? ['-e', TYPED_COMMANDS_EXCLUDE.join(',')] : []),
            ...chunk.map((i) => files[i]),
          ];
          const r = await run(program('shellcheck'), args, { cwd: s.dir, timeoutMs: 120_000 });
          let comments: Array<{ file: string; line: number; code: number; level: string; message: string }> = [];
          try {
            comments = JSON.parse(r.stdout || '{"comments":[]}').comments;
          } catch {
            findings.push(`shellcheck failed: ${r.stderr.slice(0, 500)}`);
          }
          for (const c of comments) {
            const i = files.indexOf(join(s.dir, basename(c.file)));
            if (i >= 0) findings.push(finding(units[i], `shellcheck SC${c.code} (${c.level}): ${c.message}`, c.line));
          }
        }
      }
    }
    return findings;
  });
}

// ---------------------------------------------------------------------------------------------------
// Simple parsers: JSON, YAML (with cloud-config, Ansible playbooks and compose files), HCL, Python

export function checkJson(u: Unit): string[] {
  try {
    JSON.parse(u.content);
    return [];
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const line = pos ? u.content.slice(0, Number(pos[1])).split('\n').length : 0;
    return [finding(u, `JSON.parse: ${msg}`, line)];
  }
}

/** A YAML document that is an Ansible playbook: a list of plays with hosts and tasks, roles or imports. */
export function looksLikePlaybook(docs: unknown[]): boolean {
  return docs.some(
    (d) =>
      Array.isArray(d) &&
      d.length > 0 &&
      d.every(
        (p) =>
          p &&
          typeof p === 'object' &&
          ('hosts' in p || 'import_playbook' in p || 'ansible.builtin.import_playbook' in p),
      ),
  );
}

export async function checkYaml(u: Unit): Promise<string[]> {
  const docs = parseAllDocuments(u.content, { prettyErrors: false, uniqueKeys: true });
  const errors = docs.flatMap((d) =>
    d.errors.map((e) => finding(u, `YAML: ${e.message.split('\n')[0]}`, e.linePos?.[0].line ?? 0)),
  );
  if (errors.length) return errors;
  const values = docs.map((d) => d.toJS());
  if (isBorgmaticConfig(u)) return checkBorgmatic(u);
  if (/^#cloud-config\s*$/m.test(u.content.split('\n')[0] ?? '')) return checkCloudConfig(u);
  if (looksLikePlaybook(values)) return checkPlaybook(u);
  if (looksLikeCompose(u, values))
    return checkCompose(u, values).map((m) => finding(u, `compose: ${m.message}`, m.line));
  return [];
}

/**
 * borgmatic's own validation of its configuration, with the current system's borgmatic: `borgmatic config
 * validate` (1.7.15 and later). A borgmatic without the `config` action (Debian 12's 1.7.7) is itself a
 * finding, since the guide's `borgmatic config ...` steps fail there; its own validator then says what it
 * thinks of the file.
 */
export async function checkBorgmatic(u: Unit): Promise<string[]> {
  return inScratch('borgmatic', async (s) => {
    const file = s.write('config.yaml', u.content);
    const env = { HOME: s.dir, XDG_STATE_HOME: s.path('state'), XDG_RUNTIME_DIR: s.dir, BORG_BASE_DIR: s.dir };
    const r = await run(program('borgmatic'), ['config', 'validate', '-c', file], { env });
    const tidy = (t: string) =>
      t
        .split(s.dir + '/')
        .join('')
        .split('\n')
        .filter(
          (l) =>
            l.trim() &&
            !/^(summary:|Need some help|Message:|Arguments:|--- Logging error|Traceback|\s+File |\s{4})/.test(l),
        )
        .slice(0, 4)
        .join(' ');
    if (r.code === 0) return [];
    if (!/invalid choice: 'config'/.test(r.stderr + r.stdout))
      return [finding(u, `borgmatic config validate: ${tidy(r.stdout + '\n' + r.stderr)}`)];
    const version = (await run(program('borgmatic'), ['--version'], { env })).stdout.trim();
    const old = await run(program('validate-borgmatic-config'), ['-c', file], { env });
    return [
      finding(
        u,
        `borgmatic ${version} has no 'config' action: "borgmatic config generate" and "borgmatic config validate" stop with "invalid choice"`,
      ),
      ...(old.code === 0
        ? []
        : [finding(u, `validate-borgmatic-config (borgmatic ${version}): ${tidy(old.stdout + '\n' + old.stderr)}`)]),
    ];
  });
}

export async function checkCloudConfig(u: Unit): Promise<string[]> {
  return inScratch('cloud-config', async (s) => {
    const file = s.write('user-data.yaml', u.content);
    const r = await run(program('cloud-init'), ['schema', '-c', file], { env: { HOME: s.dir } });
    if (r.code === 0) return [];
    const out = (r.stdout + '\n' + r.stderr)
      .split('\n')
      .filter((l) => l.trim() && !/^Cloud config schema deprecations:\s*$/.test(l));
    return [finding(u, `cloud-init schema: ${out.join(' ').slice(0, 800)}`)];
  });
}

/**
 * `ansible-playbook --syntax-check`. ansible-core ships only ansible.builtin: modules named from other
 * collections (community.general.ufw) are given stand-ins in a temporary collections path, so the check
 * reads every task and keyword but cannot tell a misspelt module of those collections.
 */
export async function checkPlaybook(u: Unit): Promise<string[]> {
  return inScratch('ansible', async (s) => {
    const file = s.write('playbook.yml', u.content);
    stubCollections(s, u.content);
    for (const name of referencedFiles(u.content))
      if (!existsSync(s.path(name)))
        s.write(name, name.endsWith('.j2') ? '' : name.endsWith('.yml') || name.endsWith('.yaml') ? '[]\n' : '');
    const r = await run(program('ansible-playbook'), ['--syntax-check', '-i', 'localhost,', file], {
      cwd: s.dir,
      env: ansibleEnv(s),
    });
    if (r.code === 0) return [];
    const text = (r.stderr || r.stdout)
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split(s.dir + '/')
      .join('');
    const line = /line (\d+), column/.exec(text);
    return [
      finding(
        u,
        `ansible-playbook --syntax-check: ${text
          .split('\n')
          .filter((l) => l.trim())
          .slice(0, 3)
          .join(' ')}`,
        line ? Number(line[1]) : 0,
      ),
    ];
  });
}

export function ansibleEnv(s: Scratch): Record<string, string> {
  return {
    ANSIBLE_HOME: s.path('.ansible'),
    ANSIBLE_LOCAL_TEMP: s.path('.ansible/tmp'),
    ANSIBLE_COLLECTIONS_PATH: s.path('collections'),
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_FORCE_COLOR: '0',
    ANSIBLE_RETRY_FILES_ENABLED: '0',
    ANSIBLE_CONFIG: s.path('no-ansible.cfg'),
  };
}

/** Stand-in modules for every namespace.collection.module a playbook names outside ansible.builtin. */
export function stubCollections(s: Scratch, content: string): void {
  for (const [, ns, coll, mod] of content.matchAll(
    /^\s*-?\s*([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*):/gm,
  )) {
    if (ns === 'ansible' && (coll === 'builtin' || coll === 'legacy')) continue;
    s.write(
      `collections/ansible_collections/${ns}/${coll}/plugins/modules/${mod}.py`,
      '#!/usr/bin/python\n# A stand-in: the suite checks playbook syntax, not this module.\n',
    );
    s.write(
      `collections/ansible_collections/${ns}/${coll}/galaxy.yml`,
      `namespace: ${ns}\nname: ${coll}\nversion: 0.0.0\n`,
    );
  }
}

/** Files a playbook reads at parse time by a relative name (vars_files, include/import tasks). */
function referencedFiles(content: string): string[] {
  return [
    ...content.matchAll(
      /^\s*-?\s*(?:vars_files:\s*\[?\s*|-\s+|(?:ansible\.builtin\.)?(?:import_tasks|include_tasks|include_vars):\s*)["']?([\w./-]+\.(?:ya?ml|j2))["']?/gm,
    ),
  ]
    .map((m) => m[1])
    .filter((p) => !p.startsWith('/') && !p.includes('..'));
}

export async function checkHcl(u: Unit): Promise<string[]> {
  // HashiCorp's HCL 2 parser, compiled to WebAssembly inside the package: no binary, no network.
  const { parse } = await import('@cdktf/hcl2json');
  try {
    await parse(basename(u.path ?? u.partOf ?? 'main.tf'), u.content);
    return [];
  } catch (e) {
    const text = (e as Error).message.replace(/^parse config: \[|\]$/g, '');
    const line = /:(\d+),\d+-/.exec(text);
    return [finding(u, `HCL: ${text.replace(/^[^:]*:\d+,\d+-(?:\d+,)?\d+: /, '')}`, line ? Number(line[1]) : 0)];
  }
}

export async function checkPython(u: Unit): Promise<string[]> {
  const r = await run(program('python3'), ['-c', 'import sys; compile(sys.stdin.read(), "block.py", "exec")'], {
    input: u.content,
  });
  if (r.code === 0) return [];
  const line = /line (\d+)/.exec(r.stderr);
  return [finding(u, `python3 compile: ${r.stderr.trim().split('\n').slice(-1)[0]}`, line ? Number(line[1]) : 0)];
}

// ---------------------------------------------------------------------------------------------------
// nftables, haproxy, systemd, ssh client config, Ansible inventories

export async function checkNft(u: Unit): Promise<string[]> {
  return inScratch('nft', async (s) => {
    const wrapped =
      u.partOf && !/^\s*(table|flush|include|define|add|#!)/m.test(u.content)
        ? `table inet tutorial_check {\n  chain input {\n    type filter hook input priority 0; policy accept;\n${u.content}  }\n}\n`
        : u.content;
    const file = s.write('ruleset.nft', wrapped);
    const r = await run(program('unshare'), ['-n', program('nft'), '-c', '-f', file]);
    if (r.code === 0) return [];
    const offset = wrapped === u.content ? 0 : -3;
    return r.stderr
      .split('\n')
      .filter((l) => /Error:/.test(l))
      .map((l) => {
        const m = /:(\d+):\d+(?:-\d+)?: Error: (.*)$/.exec(l);
        return finding(u, `nft -c: ${m ? m[2] : l}`, m ? Number(m[1]) + offset : 0);
      });
  });
}

export async function checkHaproxy(u: Unit): Promise<string[]> {
  return inScratch('haproxy', async (s) => {
    const content = await rootPaths(s, u.content, HAPROXY_FILE_WORDS);
    const file = s.write('haproxy.cfg', content);
    const r = await inNetns(program('haproxy'), ['-c', '-f', file]);
    if (r.code === 0) return [];
    const lines = (r.stdout + r.stderr).split('\n').filter((l) => /\[ALERT\]/.test(l));
    // The summary lines ("Error(s) found", "Fatal errors found") say nothing the others do not.
    const specific = lines.filter(
      (l) => !/Error\(s\) found in configuration file|Fatal errors found in configuration/.test(l),
    );
    return (specific.length ? specific : lines).map((l) => {
      const m = /haproxy\.cfg:(\d+)\]?\s*:?\s*(.*)$/.exec(l);
      return finding(
        u,
        `haproxy -c: ${(m ? m[2] : l.replace(/^.*?\[ALERT\]\s*\(\d+\)\s*:\s*/, ''))
          .split(s.dir + '/root')
          .join('')
          .split(s.dir)
          .join('')}`,
        m ? Number(m[1]) : 0,
      );
    });
  });
}

const HAPROXY_FILE_WORDS = [
  'crt',
  'ca-file',
  'crt-list',
  'errorfile',
  'chroot',
  'stats socket',
  'pidfile',
  'server-state-file',
  'lua-load',
];

/** Unit file paths that systemd-analyze verify cannot judge on a machine that is not the reader's server. */
const MISSING_ELSEWHERE =
  /Command .* is not executable: No such file or directory|Failed to (?:prepare filename|load) .*(?:No such file|not found)|Unit \S+ not found/;

export async function checkSystemd(u: Unit, siblings: Unit[] = []): Promise<string[]> {
  return inScratch('systemd', async (s) => {
    const name = basename(u.path ?? u.partOf ?? 'tutorial-check.service');
    let content = u.content;
    let offset = 0;
    if (u.partOf) {
      // A part of a unit: checked in a unit that has the sections a whole one needs.
      const type = name.split('.').pop()!;
      if (!/^\[Unit\]/m.test(content)) {
        content = `[Unit]\nDescription=wrapper for a part of ${name}\n` + content;
        offset = -2;
      }
      if (type === 'service' && !/^\[Service\]/m.test(content)) content += '\n[Service]\nExecStart=/bin/true\n';
      else if (type === 'service' && !/^\s*ExecStart=/m.test(content) && !/^\s*Type=oneshot/m.test(content))
        content = content.replace(/^\[Service\]\s*$/m, '[Service]\nExecStart=/bin/true');
    }
    const dir = s.path('etc/systemd/system');
    s.write(`etc/systemd/system/${name}`, content);
    // The guide's other units (a timer's service, a socket's service) are there too, as on the server.
    for (const sib of siblings)
      if (sib !== u && sib.path) s.write(`etc/systemd/system/${basename(sib.path)}`, sib.content);
    const r = await run(
      program('systemd-analyze'),
      ['verify', '--man=no', '--generators=no', '--recursive-errors=no', join(dir, name)],
      { env: { SYSTEMD_LOG_COLOR: '0', SYSTEMD_LOG_LOCATION: '0' } },
    );
    const lines = (r.stdout + r.stderr).split('\n').filter((l) => l.trim() && !MISSING_ELSEWHERE.test(l));
    if (r.code === 0 && lines.length === 0) return [];
    if (lines.length === 0) return [];
    return lines.map((l) => {
      const m = new RegExp(`${name.replace(/[.@]/g, '\\$&')}:(\\d+): (.*)$`).exec(l);
      return finding(u, `systemd-analyze verify: ${m ? m[2] : l.replace(s.dir, '')}`, m ? Number(m[1]) + offset : 0);
    });
  });
}

export async function checkSshConfig(u: Unit): Promise<string[]> {
  return inScratch('ssh-config', async (s) => {
    const file = s.write('.ssh/config', u.content.replace(/^(\s*Include\s+)~\//gim, `$1${s.dir}/`));
    const hosts = [...u.content.matchAll(/^\s*Host\s+(.+)$/gim)]
      .flatMap((m) => m[1].split(/\s+/))
      .filter((h) => h && !/[*?!]/.test(h));
    const results: string[] = [];
    for (const host of hosts.length ? hosts.slice(0, 5) : ['example.com']) {
      const r = await inNetns(program('ssh'), ['-G', '-F', file, host], { env: { HOME: s.dir } });
      if (r.code !== 0) {
        for (const l of r.stderr
          .split('\n')
          .filter((x) => x.trim() && !/terminating, \d+ bad configuration options/.test(x))) {
          const m = /line (\d+): (.*)$/.exec(l);
          results.push(finding(u, `ssh -G: ${m ? m[2] : l.replace(s.dir, '~')}`, m ? Number(m[1]) : 0));
        }
        break;
      }
    }
    return [...new Set(results)];
  });
}

export async function checkInventory(u: Unit): Promise<string[]> {
  return inScratch('inventory', async (s) => {
    const file = s.write('inventory.ini', u.content);
    const r = await run(program('ansible-inventory'), ['-i', file, '--list'], {
      env: { ...ansibleEnv(s), ANSIBLE_INVENTORY_UNPARSED_FAILED: 'True', ANSIBLE_INVENTORY_ENABLED: 'ini' },
    });
    if (r.code === 0) return [];
    const text = r.stderr
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split(s.dir + '/')
      .join('');
    return [
      finding(
        u,
        `ansible-inventory: ${text
          .split('\n')
          .filter((l) => l.trim())
          .slice(0, 3)
          .join(' ')}`,
      ),
    ];
  });
}

// ---------------------------------------------------------------------------------------------------
// Paths in configs that tools open: moved under a scratch root, with stand-ins for files a real server has

/** A self-signed certificate and key, and RFC 7919 ffdhe2048 parameters (PEM texts), made once for the run. */
let stubs: Promise<{ cert: string; key: string; dh: string }> | undefined;
function stubCrypto(): Promise<{ cert: string; key: string; dh: string }> {
  stubs ??= inScratch('tls-stubs', async (s) => {
    await run(program('openssl'), [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=example.com',
      '-days',
      '2',
      '-keyout',
      s.path('key.pem'),
      '-out',
      s.path('cert.pem'),
    ]);
    await run(program('openssl'), [
      'genpkey',
      '-genparam',
      '-algorithm',
      'DH',
      '-pkeyopt',
      'group:ffdhe2048',
      '-out',
      s.path('dh.pem'),
    ]);
    return {
      cert: readFileSync(s.path('cert.pem'), 'utf8'),
      key: readFileSync(s.path('key.pem'), 'utf8'),
      dh: readFileSync(s.path('dh.pem'), 'utf8'),
    };
  });
  return stubs;
}

/** Certbot's options-ssl-nginx.conf as certbot-nginx writes it (the directives that matter for duplicates). */
const CERTBOT_NGINX_OPTIONS = `ssl_session_cache shared:le_nginx_SSL:10m;
ssl_session_timeout 1440m;
ssl_session_tickets off;
ssl_protocols TLSv1.2 TLSv1.3;
ssl_prefer_server_ciphers off;
ssl_ciphers "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384";
`;

/** Writes a stand-in for a file a config names when it is not in the scratch root: certificates, keys, DH parameters, certbot's nginx options. */
async function standIn(s: Scratch, abs: string, directive: string): Promise<void> {
  const target = s.path('root' + abs);
  if (existsSync(target) || abs.includes('*')) return;
  const c = await stubCrypto();
  if (abs.endsWith('/')) {
    // A directory of certificates (haproxy's crt /etc/haproxy/certs/): one PEM with certificate and key.
    s.write('root' + abs + 'example.com.pem', c.cert + c.key);
    return;
  }
  const name = basename(abs);
  if (/dhparam/.test(directive) || /dhparam/.test(name)) s.write('root' + abs, c.dh);
  else if (/key/.test(directive) || /privkey|\.key$/.test(name)) s.write('root' + abs, c.key);
  else if (/certificate|crt|ca-file/.test(directive) || /\.(pem|crt)$/.test(name)) {
    // haproxy's crt takes one PEM with the certificate and the key.
    s.write('root' + abs, c.cert + (directive === 'crt' ? c.key : ''));
  } else if (name === 'options-ssl-nginx.conf') s.write('root' + abs, CERTBOT_NGINX_OPTIONS);
}

/**
 * Rewrites the absolute paths that follow the given directive words to paths under `<scratch>/root`, and
 * writes stand-ins for those that do not exist there yet. /usr and /lib stay as they are (read-only).
 */
async function rootPaths(s: Scratch, content: string, words: string[]): Promise<string> {
  const out: string[] = [];
  for (const line of content.split('\n')) {
    const trimmed = line.trim();
    const word = words.find((w) => trimmed.startsWith(w + ' ') || trimmed.includes(` ${w} `));
    if (!word || trimmed.startsWith('#')) {
      out.push(line);
      continue;
    }
    const replaced: string[] = [];
    const next = line.replace(
      /(^|[\s=])(\/(?:etc|var|run|srv|home|opt|tmp|root)\/[^\s;"']*)/g,
      (_, pre: string, abs: string) => {
        replaced.push(abs);
        return pre + s.path('root' + abs);
      },
    );
    for (const abs of replaced) await standIn(s, abs, word);
    out.push(next);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// nginx: the guide's files in a throwaway copy of Debian's /etc/nginx, `nginx -t`

/** Directives whose absolute path arguments nginx opens or creates at `nginx -t`. */
export const NGINX_FILE_DIRECTIVES = [
  'include',
  'ssl_certificate',
  'ssl_certificate_key',
  'ssl_trusted_certificate',
  'ssl_client_certificate',
  'ssl_dhparam',
  'ssl_crl',
  'ssl_password_file',
  'ssl_stapling_file',
  'ssl_session_ticket_key',
  'access_log',
  'error_log',
  'pid',
  'lock_file',
  'client_body_temp_path',
  'proxy_temp_path',
  'fastcgi_temp_path',
  'uwsgi_temp_path',
  'scgi_temp_path',
  'proxy_cache_path',
  'fastcgi_cache_path',
  'uwsgi_cache_path',
  'scgi_cache_path',
  'geoip_country',
  'geoip_city',
  'working_directory',
];

/** A file of the site: where it lives on the server, its text, and where it came from. */
export interface SiteFile {
  path: string;
  content: string;
  unit?: Unit;
}

/**
 * A throwaway nginx: Debian's /etc/nginx (without the default site) under `<scratch>/root`, the given
 * files at their paths (sites-available ones also enabled), file paths moved under the root, and
 * stand-ins for certificates. Returns the path of nginx.conf and a function that maps a path in nginx's
 * messages back to the unit and line.
 */
export async function nginxTree(
  s: Scratch,
  files: SiteFile[],
): Promise<{ conf: string; locate: (path: string, line: number) => { unit?: Unit; line: number } }> {
  const etc = s.path('root/etc/nginx');
  const stock = systemNginxEtc();
  if (existsSync(join(stock, 'nginx.conf')))
    cpSync(stock, etc, {
      recursive: true,
      dereference: true,
      filter: (src) => !/\/sites-enabled\/./.test(src) && !/\/modules-enabled\/./.test(src),
    });
  for (const m of existsSync(join(stock, 'modules-enabled')) ? readdirSync(join(stock, 'modules-enabled')) : []) {
    const src = join(stock, 'modules-enabled', m);
    if (existsSync(src)) s.write(`root/etc/nginx/modules-enabled/${m}`, readFileSync(src, 'utf8'));
  }
  const origin = new Map<string, Unit | undefined>();
  for (const f of files) {
    const rel = 'root' + f.path;
    s.write(rel, await rootPaths(s, f.content, NGINX_FILE_DIRECTIVES));
    origin.set(s.path(rel), f.unit);
    if (f.path.startsWith('/etc/nginx/sites-available/')) {
      const enabled = 'root' + f.path.replace('/sites-available/', '/sites-enabled/');
      s.write(enabled, readFileSync(s.path(rel), 'utf8'));
      origin.set(s.path(enabled), f.unit);
    }
  }
  // Debian's own files name /etc, /var and /run paths too.
  for (const rel of ['nginx.conf']) {
    const p = join(etc, rel);
    if (existsSync(p) && !files.some((f) => f.path === '/etc/nginx/' + rel))
      s.write('root/etc/nginx/' + rel, await rootPaths(s, readFileSync(p, 'utf8'), NGINX_FILE_DIRECTIVES));
  }
  for (const dir of ['var/log/nginx', 'var/lib/nginx', 'run', 'var/www/html']) s.write(`root/${dir}/.keep`, '');
  const locate = (path: string, line: number) => ({ unit: origin.get(path), line });
  return { conf: join(etc, 'nginx.conf'), locate };
}

/** `nginx -t` on a tree; each [emerg]/[warn] line with the file and line it names. */
export async function nginxTest(
  s: Scratch,
  conf: string,
): Promise<{ ok: boolean; messages: Array<{ text: string; path?: string; line: number }> }> {
  const r = await inNetns(program('nginx'), ['-t', '-q', '-p', s.path('root') + '/', '-e', 'stderr', '-c', conf]);
  const messages = r.stderr
    .split('\n')
    .filter((l) => /\[(emerg|alert|crit|error|warn)\]/.test(l))
    .map((l) => {
      const m = / in (\/\S+):(\d+)$/.exec(l);
      const text = l
        .replace(/^.*?nginx: /, '')
        .replace(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d (\[\w+\]) \d+#\d+: /, '$1 ')
        .replace(/ in \/\S+:\d+$/, '')
        .replace(new RegExp(s.path('root'), 'g'), '');
      return { text, path: m?.[1], line: m ? Number(m[2]) : 0 };
    });
  return { ok: r.code === 0 && !messages.some((m) => /\[warn\]/.test(m.text)), messages };
}

/** Nginx contexts a fragment (a block with no whole-file path) may be written for, outermost first. */
const NGINX_WRAPPERS: Array<{ name: string; wrap: (c: string) => string; offset: number }> = [
  { name: 'http', wrap: (c) => c, offset: 0 },
  {
    name: 'server',
    wrap: (c) => `server {\n    listen 127.0.0.1:8081;\n    server_name fragment.invalid;\n${c}}\n`,
    offset: -3,
  },
  {
    name: 'location',
    wrap: (c) =>
      `server {\n    listen 127.0.0.1:8081;\n    server_name fragment.invalid;\n    location /fragment/ {\n${c}    }\n}\n`,
    offset: -4,
  },
];

/** Errors that come of checking a part apart from what it needs, and what to do about them. */
const FRAGMENT_HINT =
  /unknown ".*" variable|zero size shared memory zone|no "ssl_certificate" is defined|already bound|is duplicate|host not found in upstream/;
const FRAGMENT_ADVICE =
  " (a block without path= is checked in a tree of the guide's whole files, those with path= or written by a heredoc: give the file that defines what it uses a path=, or give this block the whole file's text with path=)";

/** Whether an nginx file path is a whole configuration file nginx reads in the http context by default. */
const httpLevel = (p: string) => /^\/etc\/nginx\/(conf\.d\/[^/]+\.conf|sites-(available|enabled)\/[^/]+)$/.test(p);

/**
 * The nginx checks of one guide: its whole files (path=, heredocs) together in one tree, as a reader's
 * server has them after following it; then each fragment inside that tree, in the outermost context it
 * fits (http, server, location).
 */
export async function checkNginxGuide(units: Unit[]): Promise<string[]> {
  const nginxUnits = units.filter((u) => u.kind === 'nginx');
  if (!nginxUnits.length) return [];
  const whole = nginxUnits.filter((u) => u.path);
  const fragments = nginxUnits.filter((u) => !u.path);
  const findings: string[] = [];
  for (const u of nginxUnits) {
    if (u.from === 'heredoc' && u.expanded && /\$[a-z_]/.test(u.content))
      findings.push(
        finding(
          u,
          `the heredoc's delimiter is unquoted, so the shell replaces nginx variables ($host, $uri...) before the file is written: quote it (<<'EOF')`,
        ),
      );
  }
  const files: SiteFile[] = whole.map((u) => ({ path: u.path!, content: u.content, unit: u }));
  let treeOk = true;
  await inScratch('nginx', async (s) => {
    const { conf, locate } = await nginxTree(s, files);
    const r = await nginxTest(s, conf);
    if (!r.ok) {
      treeOk = false;
      for (const m of r.messages) {
        const at = m.path ? locate(m.path, m.line) : { unit: undefined, line: 0 };
        const u = at.unit ?? whole[0];
        findings.push(
          u
            ? finding(
                u,
                `nginx -t (with the guide's ${files.length} nginx file${files.length === 1 ? '' : 's'}): ${m.text}`,
                at.unit ? at.line : 0,
              )
            : `${units[0].file} nginx: ${m.text}`,
        );
      }
    }
  });
  for (const u of fragments) {
    const base = treeOk ? files : [];
    const attempts: string[][] = [];
    // A part of one of the guide's whole http-level files changes that file: it is read before the file,
    // and the file's lines nginx then refuses as duplicates are the ones the part replaces.
    const target = base.find((f) => f.path === u.partOf && httpLevel(f.path));
    for (const w of NGINX_WRAPPERS) {
      const result = await inScratch('nginx', async (s) => {
        const path =
          target && w.name === 'http'
            ? `/etc/nginx/conf.d/0-part-${u.line}.conf`
            : `/etc/nginx/conf.d/zz-fragment-${u.line}.conf`;
        let targetLines = target?.content.split('\n');
        for (let tries = 0; ; tries++) {
          const tree = base.map((f) => (f === target && targetLines ? { ...f, content: targetLines.join('\n') } : f));
          const { conf } = await nginxTree(s, [...tree, { path, content: w.wrap(u.content), unit: u }]);
          const r = await nginxTest(s, conf);
          if (r.ok) return [];
          const replaced =
            target && w.name === 'http' && tries < 10
              ? r.messages.find(
                  (m) =>
                    m.path?.endsWith(target.path.replace('/etc/nginx/', '/')) &&
                    /is already bound|is duplicate|duplicate/.test(m.text),
                )
              : undefined;
          if (replaced && targetLines) {
            targetLines = targetLines.map((l, i) => (i === replaced.line - 1 ? '# (replaced by the part)' : l));
            continue;
          }
          return r.messages.map((m) =>
            finding(
              u,
              `nginx -t (${where(u)} in a ${w.name} context${base.length ? ", with the guide's whole nginx files" : ''}): ${m.text}${FRAGMENT_HINT.test(m.text) ? FRAGMENT_ADVICE : ''}`,
              m.path?.endsWith(path.replace('/etc/nginx/', '/')) ? m.line + w.offset : 0,
            ),
          );
        }
      });
      attempts.push(result);
      if (result.length === 0) break;
    }
    if (attempts[attempts.length - 1].length === 0) continue;
    // The context the fragment was written for is the first one that does not refuse it for being in the wrong place.
    const WRONG_PLACE = /is not allowed here|is outside location|directive is not terminated by|unexpected end of file/;
    findings.push(...(attempts.find((a) => !a.some((f) => WRONG_PLACE.test(f))) ?? attempts[0]));
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------------
// sshd: -t and -T on drop-ins assembled as Debian's sshd_config includes them

/** Debian's main sshd_config (Include of sshd_config.d/*.conf at the top), pointed at the scratch directory. */
export function mainSshdConfig(s: Scratch): string {
  const template = debianSshdConfigTemplate();
  const text = template
    ? readFileSync(template, 'utf8')
    : 'Include /etc/ssh/sshd_config.d/*.conf\nKbdInteractiveAuthentication no\nUsePAM yes\nX11Forwarding yes\nPrintMotd no\nAcceptEnv LANG LC_*\nSubsystem sftp /usr/lib/openssh/sftp-server\n';
  return text.replace(
    /^Include \/etc\/ssh\/sshd_config\.d\/\*\.conf$/m,
    `Include ${s.path('sshd_config.d')}/*.conf\nHostKey ${s.path('host_ed25519')}`,
  );
}

let hostKey: string | undefined;
export async function sshdHostKey(s: Scratch): Promise<void> {
  if (!hostKey) {
    const k = new Scratch('hostkey');
    await run(program('ssh-keygen'), ['-q', '-t', 'ed25519', '-N', '', '-f', k.path('key')]);
    hostKey = readFileSync(k.path('key'), 'utf8');
    k.remove();
  }
  s.write('host_ed25519', hostKey);
  await run('chmod', ['600', s.path('host_ed25519')]);
}

/** sshd -t (and -T when asked) on a set of drop-ins; each message with the drop-in and line it names. */
export async function sshdRun(
  dropIns: Array<{ name: string; content: string }>,
  flags: string[] = ['-t'],
  main?: (s: Scratch) => string,
): Promise<{ ran: Ran; messages: Array<{ text: string; name?: string; line: number }> }> {
  return inScratch('sshd', async (s) => {
    await sshdHostKey(s);
    s.write('sshd_config.d/.keep', '');
    for (const d of dropIns)
      s.write(
        `sshd_config.d/${d.name}`,
        d.content.replace(/^(\s*HostKey\s+)\/etc\/ssh\/\S+/gim, `$1${s.path('host_ed25519')}`),
      );
    const conf = s.write('sshd_config', (main ?? mainSshdConfig)(s));
    const ran = await runSshd([...flags, '-f', conf]);
    const messages = ran.stderr
      .replace(/\r/g, '')
      .split('\n')
      .filter((l) => l.trim() && !/terminating, \d+ bad configuration options/.test(l))
      .map((l) => {
        const m = /(\S+) line (\d+): (.*)$/.exec(l);
        const name = m ? basename(m[1]) : undefined;
        return {
          text: (m ? m[3] : l).replace(new RegExp(s.dir, 'g'), ''),
          name: name === 'sshd_config' ? undefined : name,
          line: m ? Number(m[2]) : 0,
        };
      });
    return { ran, messages };
  });
}

/** A block or heredoc that is (part of) an sshd config file: checked alone with Debian's main config. */
export async function checkSshdUnit(u: Unit): Promise<string[]> {
  const target = u.path ?? u.partOf ?? '/etc/ssh/sshd_config.d/tutorial.conf';
  const isMain = target === '/etc/ssh/sshd_config';
  const content = u.content.replace(
    /^\s*Include\s+\/etc\/ssh\/sshd_config\.d\/\*\.conf\s*$/gim,
    '# (Include of sshd_config.d, checked apart)',
  );
  const { ran, messages } = isMain
    ? await sshdRun([], ['-t'], (s) => `HostKey ${s.path('host_ed25519')}\n${content}`)
    : await sshdRun([{ name: basename(target), content }]);
  if (ran.code === 0) return [];
  return messages.map((m) => finding(u, `sshd -t: ${m.text}`, isMain ? Math.max(m.line - 1, 0) : m.name ? m.line : 0));
}

// ---------------------------------------------------------------------------------------------------
// All checks of a set of units, by kind

/** The kinds each check covers (the spec runs one test per entry). */
export const CHECKS = {
  shell: ['bash', 'sh'],
  nginx: ['nginx'],
  sshd: ['sshd'],
  nft: ['nft'],
  'yaml, json, hcl, python': ['yaml', 'json', 'hcl', 'python'],
  systemd: ['systemd'],
  haproxy: ['haproxy'],
  'ssh-config': ['ssh-config'],
  'ansible-inventory': ['ansible-inventory'],
} as const satisfies Record<string, readonly Kind[]>;

/** Runs the checks for the given kinds over the units; nginx is checked per guide (a guide's files together). */
export async function checkUnits(units: Unit[], kinds: readonly Kind[]): Promise<string[]> {
  const mine = units.filter((u) => kinds.includes(u.kind));
  const findings: string[] = [];
  const shell = mine.filter((u) => u.kind === 'bash' || u.kind === 'sh');
  findings.push(...(await checkShell(shell)));
  const byGuide = new Map<string, Unit[]>();
  for (const u of mine) byGuide.set(u.guide, [...(byGuide.get(u.guide) ?? []), u]);
  if (kinds.includes('nginx')) for (const [, us] of byGuide) findings.push(...(await checkNginxGuide(us)));
  const single: Partial<Record<Kind, (u: Unit) => Promise<string[]> | string[]>> = {
    sshd: checkSshdUnit,
    nft: checkNft,
    yaml: checkYaml,
    json: checkJson,
    hcl: checkHcl,
    python: checkPython,
    haproxy: checkHaproxy,
    'ssh-config': checkSshConfig,
    'ansible-inventory': checkInventory,
  };
  const results = await mapLimit(mine, 4, async (u) => {
    if (u.kind === 'systemd')
      return checkSystemd(
        u,
        (byGuide.get(u.guide) ?? []).filter((x) => x.kind === 'systemd'),
      );
    const check = single[u.kind];
    return check ? check(u) : [];
  });
  findings.push(...results.flat());
  return findings;
}
