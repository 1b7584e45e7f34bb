import { basename } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { GuideFile } from './code-blocks.js';
import { ansibleEnv, finding, looksLikePlaybook, nginxTree, sshdRun, type SiteFile, type Unit } from './checks.js';
import { parseNginx, probes, refusal, serverBlocks, type Directive } from './nginx-conf.js';
import { Scratch, inScratch, program, run } from './tools.js';

/*
 * Effective results, where order or precedence decides what a reader's server does:
 *  - nginx: a location that refuses (deny all, return 403) must answer the requests it matches, even
 *    when another regex location also matches them (nginx uses the first regex in file order);
 *  - sshd: with every drop-in the site's tutorials write, each guide's settings are the ones sshd uses
 *    (the first value read wins, files in lexical order, Debian including them at the top);
 *  - ansible: the user a command line names with -u is the one Ansible connects as, and a play that
 *    closes root login leaves its remote user able to become root on the next run.
 */

// ---------------------------------------------------------------------------------------------------
// nginx: request the refused paths from a real nginx

/** Replaces what hands a request to a backend with a `return` of a code that names the location. */
const HANDLERS = new Set(['fastcgi_pass', 'proxy_pass', 'uwsgi_pass', 'scgi_pass', 'grpc_pass']);

interface Probe {
  uri: string;
  host: string;
  expect: number;
  location: Directive;
}

/**
 * The server blocks of a guide's whole nginx files that refuse some paths, each run for real: the
 * server listens on 127.0.0.1:8080 inside a network namespace of its own, its backends are replaced by
 * `return 2xx` (one code per location, so the answer tells which location took the request), and every
 * path a refusing location matches is requested. A path answered by another location is a finding.
 */
export async function checkNginxRefusals(units: Unit[]): Promise<string[]> {
  const whole = units.filter((u) => u.kind === 'nginx' && u.path);
  const findings: string[] = [];
  for (const u of whole) {
    const tree = parseNginx(u.content);
    for (const server of tree.filter((d) => d.name === 'server' && d.block)) {
      const locations = (server.block ?? []).filter((d) => d.name === 'location' && d.block);
      const list: Probe[] = [];
      const host =
        server.block
          ?.find((d) => d.name === 'server_name')
          ?.args.find((n) => !n.startsWith('~') && !n.includes('*') && n !== '_') ?? 'localhost';
      for (const loc of locations) {
        const expect = refusal(loc);
        if (expect) for (const uri of probes(loc)) list.push({ uri, host, expect, location: loc });
      }
      if (!list.length) continue;
      // The server alone (the file's other server blocks would need their listeners), with one loopback
      // listener, and its backends answered by return codes that name their location.
      const codes = new Map<number, Directive>();
      const edits: Array<{ start: number; end: number; text: string }> = [];
      for (const d of server.block ?? [])
        if (d.name === 'listen' || d.name === 'http2' || d.name === 'http3' || d.name === 'quic_retry')
          edits.push({ start: d.start, end: d.end, text: '' });
      locations.forEach((loc, i) => {
        if (refusal(loc)) return;
        const code = 230 + i;
        for (const d of loc.block ?? []) {
          if (HANDLERS.has(d.name)) {
            edits.push({ start: d.start, end: d.end, text: `return ${code};` });
            codes.set(code, loc);
          }
        }
      });
      let text = u.content.slice(0, server.end);
      for (const e of edits.sort((a, b) => b.start - a.start))
        text = text.slice(0, e.start) + e.text + text.slice(e.end);
      const open = text.indexOf('{', server.start);
      const edited = text.slice(server.start, open + 1) + '\n    listen 127.0.0.1:8080;' + text.slice(open + 1);
      const rest = withoutServers(u.content);
      const others = whole.filter((w) => w !== u).map((w) => ({ path: w.path!, content: w.content, unit: w }));
      const answers = await serveAndRequest(
        [...others, { path: u.path!, content: `${rest}\n${edited}\n`, unit: u }],
        list,
      );
      if ('error' in answers) {
        findings.push(finding(u, `nginx (serving the refusing locations for real): ${answers.error}`, server.line));
        continue;
      }
      list.forEach((p, i) => {
        const got = answers.codes[i];
        if (got === p.expect) return;
        const by = codes.get(got);
        findings.push(
          finding(
            u,
            `GET ${p.uri} (Host: ${p.host}) answered ${got}` +
              (by ? ` from \`location ${by.args.join(' ')}\` (line ${u.line + by.line})` : '') +
              `, not ${p.expect} from \`location ${p.location.args.join(' ')}\`: nginx uses the first regex location that matches, in file order, so a refusing location must come before the ones it would lose to`,
            p.location.line,
          ),
        );
      });
    }
  }
  return findings;
}

/** A file's text without its server blocks (what is left: http-level maps, upstreams, zones). */
function withoutServers(text: string): string {
  let out = text;
  for (const s of serverBlocks(parseNginx(text)).sort((a, b) => b.start - a.start))
    out = out.slice(0, s.start) + out.slice(s.end);
  return out;
}

/** Starts nginx on the tree inside a new network namespace, requests each probe, stops nginx. */
async function serveAndRequest(files: SiteFile[], list: Probe[]): Promise<{ codes: number[] } | { error: string }> {
  return inScratch('nginx-run', async (s) => {
    const { conf } = await nginxTree(s, files);
    const client = s.write(
      'client.cjs',
      `const http = require('node:http');
const probes = ${JSON.stringify(list.map((p) => ({ uri: p.uri, host: p.host })))};
const get = (p) => new Promise((ok, ko) => { const r = http.get({ host: '127.0.0.1', port: 8080, path: p.uri, headers: { host: p.host } }, (res) => { res.resume(); ok(res.statusCode); }); r.on('error', ko); r.setTimeout(3000, () => r.destroy(new Error('timeout'))); });
(async () => {
  for (let i = 0; i < 100; i++) { try { await get({ uri: '/', host: 'probe.invalid' }); break; } catch { await new Promise((r) => setTimeout(r, 50)); } }
  const codes = [];
  for (const p of probes) codes.push(await get(p).catch(() => 0));
  console.log(JSON.stringify(codes));
})();
`,
    );
    const script = `${program('ip')} link set lo up
"$1" -p "$2" -e stderr -c "$3" -g 'daemon off; master_process off;' &
pid=$!
"$4" "$5"; status=$?
kill $pid 2>/dev/null; wait $pid 2>/dev/null
exit $status`;
    const r = await run(
      program('unshare'),
      ['-n', 'sh', '-c', script, 'sh', program('nginx'), s.path('root') + '/', conf, process.execPath, client],
      { timeoutMs: 30_000 },
    );
    const last = r.stdout.trim().split('\n').pop() ?? '';
    if (r.code !== 0 || !last.startsWith('['))
      return {
        error: (r.stderr || r.stdout)
          .replace(new RegExp(s.path('root'), 'g'), '')
          .trim()
          .split('\n')
          .slice(0, 3)
          .join(' | '),
      };
    return { codes: JSON.parse(last) as number[] };
  });
}

// ---------------------------------------------------------------------------------------------------
// sshd: the site's drop-ins together

/** A drop-in of the site: a whole file under /etc/ssh/sshd_config.d/, with the parts other blocks append to it. */
export interface DropIn {
  guide: string;
  name: string;
  content: string;
  unit: Unit;
}

/** Every drop-in the tutorials write, with their `part-of`/`tee -a` parts appended (in guide order). */
export function siteDropIns(units: Unit[]): DropIn[] {
  const list: DropIn[] = [];
  for (const u of units) {
    if (u.kind !== 'sshd') continue;
    const target = u.path ?? u.partOf;
    if (!target || !/^\/etc\/ssh\/sshd_config\.d\/[^/]+\.conf$/.test(target)) continue;
    const name = basename(target);
    const existing = list.find((d) => d.guide === u.guide && d.name === name);
    if (u.partOf && existing) existing.content += (existing.content.endsWith('\n') ? '' : '\n') + u.content;
    else if (!existing) list.push({ guide: u.guide, name, content: u.content, unit: u });
  }
  return list;
}

/** sshd -T's name for a keyword (its output is lower-case, and a few keywords are other names for one setting). */
const T_NAME: Record<string, string> = {
  challengeresponseauthentication: 'kbdinteractiveauthentication',
  pubkeyacceptedkeytypes: 'pubkeyacceptedalgorithms',
  hostbasedacceptedkeytypes: 'hostbasedacceptedalgorithms',
  skeyauthentication: 'kbdinteractiveauthentication',
  dsaauthentication: 'pubkeyauthentication',
};

/** The settings a drop-in states: keyword → the Match criteria they apply under ('' for global). */
function stated(content: string): Array<{ key: string; match: string; line: number }> {
  const out: Array<{ key: string; match: string; line: number }> = [];
  let match = '';
  content.split('\n').forEach((raw, i) => {
    const l = raw.replace(/#.*$/, '').trim();
    if (!l) return;
    const [kw, ...rest] = l.split(/\s+|=/);
    const key = kw.toLowerCase();
    if (key === 'match') {
      match = rest.join(' ');
      return;
    }
    if (key === 'include') return;
    out.push({ key: T_NAME[key] ?? key, match, line: i + 1 });
  });
  return out;
}

/** `sshd -T` arguments for a Match block: `-C user=x,...` for Match User (the first user), else none. */
function connectionFor(match: string): string[] | undefined {
  if (!match) return [];
  const m = /^user\s+([^\s,!*?]+)/i.exec(match);
  return m
    ? ['-C', `user=${m[1]},host=probe.example,addr=198.51.100.7,laddr=203.0.113.10,lport=22,rdomain=`]
    : undefined;
}

function tValues(out: string, key: string): string[] {
  return out
    .split('\n')
    .filter((l) => l.toLowerCase().startsWith(key + ' '))
    .map((l) => l.slice(key.length + 1).trim());
}

/**
 * The guides a reader has followed before each guide, as the guide says: the guides its Prerequisites
 * section (or "Before you start", "Requirements") links to, and theirs in turn; the nearest first.
 * (Links in "Next steps" or in passing are not an order: followed transitively they make every guide
 * come before every other.)
 */
export function guidesBefore(guides: GuideFile[]): Map<string, string[]> {
  const before = new Map<string, Set<string>>(guides.map((g) => [g.slug, new Set<string>()]));
  for (const g of guides) {
    for (const section of g.body.split(/^(?=## )/m)) {
      const heading = /^## (.*)$/m.exec(section)?.[1] ?? '';
      const links = [...section.matchAll(/\/guides\/([a-z0-9-]+)/g)]
        .map((m) => m[1])
        .filter((s) => s !== g.slug && before.has(s));
      if (/prerequisite|before you (start|begin)|requirements|what you need/i.test(heading))
        for (const h of links) before.get(g.slug)!.add(h);
    }
  }
  const order = new Map<string, string[]>();
  for (const g of guides) {
    const seen: string[] = [];
    let frontier = [g.slug];
    while (frontier.length) {
      const next: string[] = [];
      for (const f of frontier)
        for (const h of before.get(f) ?? [])
          if (h !== g.slug && !seen.includes(h)) {
            seen.push(h);
            next.push(h);
          }
      frontier = next;
    }
    order.set(g.slug, seen);
  }
  return order;
}

/**
 * For each guide that writes sshd drop-ins, the server of a reader who followed it after the guides it
 * comes after (guidesBefore): their drop-ins and its own (its own replace a file of the same name; of
 * two earlier guides writing one name, the nearer one's). That set must pass `sshd -t`, and each setting
 * the guide's drop-ins state must show in `sshd -T` as it does with the guide's drop-ins alone; when it
 * does not, the finding names the drop-in that sets it first.
 */
export async function checkSshdSite(allUnits: Unit[], guides: GuideFile[], only: Set<string>): Promise<string[]> {
  const dropIns = siteDropIns(allUnits);
  const order = guidesBefore(guides);
  const findings: string[] = [];
  for (const guide of [...new Set(dropIns.map((d) => d.guide))].filter((g) => only.has(g))) {
    const own = dropIns.filter((d) => d.guide === guide);
    const others: DropIn[] = [];
    for (const earlier of order.get(guide) ?? [])
      for (const d of dropIns.filter((x) => x.guide === earlier))
        if (!own.some((o) => o.name === d.name) && !others.some((o) => o.name === d.name)) others.push(d);
    const site = [...own, ...others];
    const siteFiles = site.map((d) => ({ name: d.name, content: d.content }));
    const alone = own.map((d) => ({ name: d.name, content: d.content }));
    const described = `with the drop-ins of the guides it comes after (${others.map((x) => `${x.name} from ${x.guide}`).join(', ') || 'none'})`;
    const t = await sshdRun(siteFiles, ['-t']);
    if (t.ran.code !== 0) {
      const aloneT = await sshdRun(alone, ['-t']);
      if (aloneT.ran.code !== 0) continue; // the guide's own drop-in fails alone: the sshd block check reports it
      for (const m of t.messages) {
        const d = site.find((x) => x.name === m.name);
        const u = d?.unit ?? own[0].unit;
        findings.push(
          finding(
            own[0].unit,
            `sshd -t ${described}: ${m.text}${d && d.guide !== guide ? ` (in ${d.name} from ${d.guide})` : ''}`,
            d === undefined || d.guide !== guide ? 0 : u === own[0].unit ? m.line : 0,
          ),
        );
      }
      continue;
    }
    if (!others.length) continue;
    const contexts = new Map<string, string[]>();
    for (const d of own)
      for (const st of stated(d.content)) if (connectionFor(st.match)) contexts.set(st.match, connectionFor(st.match)!);
    for (const [match, cflags] of contexts) {
      const [withSite, withOwn] = await Promise.all([
        sshdRun(siteFiles, ['-T', ...cflags]),
        sshdRun(alone, ['-T', ...cflags]),
      ]);
      if (withOwn.ran.code !== 0) continue;
      for (const d of own) {
        for (const st of stated(d.content).filter((x) => x.match === match)) {
          const want = tValues(withOwn.ran.stdout, st.key);
          const got = tValues(withSite.ran.stdout, st.key);
          if (!want.length || JSON.stringify(want) === JSON.stringify(got)) continue;
          const first = [...site]
            .sort((a, b) => (a.name < b.name ? -1 : 1))
            .find(
              (x) =>
                x !== d && stated(x.content).some((y) => y.key === st.key && (y.match === '' || y.match === match)),
            );
          findings.push(
            finding(
              d.unit,
              `${st.key} ${want.join(', ')} (${d.name}${match ? `, Match ${match}` : ''}) is not what sshd uses ${described}: sshd -T shows ${st.key} ${got.join(', ') || '(nothing)'}` +
                (first
                  ? `, set first by ${first.name} from ${first.guide} (sshd keeps the first value it reads; drop-ins are read in lexical order)`
                  : ''),
              st.line,
            ),
          );
        }
      }
    }
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------------
// Ansible: who the playbook connects as, and whether it can still become root on the next run

const USER_OPTION = /(?:^|\s)(?:-u\s*|--user[=\s]+)([a-z_][\w.-]*)/;
const NEGATED = /\b(?:not|never|cannot|instead of|rather than|loses?|ignored|overridden)\b|n't\b/i;

/**
 * The users the guide tells the reader to connect as with `-u X` / `--user X`: on an ansible or
 * ansible-playbook command in a code block or inline code, or as a bare inline `-u X` in a sentence that
 * does not say it does not work.
 */
export function commandUsers(guide: GuideFile): Array<{ user: string; line: number }> {
  const out: Array<{ user: string; line: number }> = [];
  let fence = false;
  guide.text.split('\n').forEach((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) {
      fence = !fence;
      return;
    }
    if (fence) {
      const m = /\bansible(?:-playbook)?\b/.test(l) ? USER_OPTION.exec(l.replace(/#.*$/, '')) : null;
      if (m) out.push({ user: m[1], line: i + 1 });
      return;
    }
    for (const sentence of l.split(/(?<=[.!?])\s+/)) {
      for (const span of sentence.matchAll(/`([^`]+)`/g)) {
        const code = span[1].trim();
        const m = USER_OPTION.exec(' ' + code);
        if (!m) continue;
        if (
          /\bansible(?:-playbook)?\b/.test(code) ||
          (/^(?:-u\s*|--user[=\s]+)\S+$/.test(code) && !NEGATED.test(sentence))
        )
          out.push({ user: m[1], line: i + 1 });
      }
    }
  });
  return out;
}

/** Whether the guide passes a become password (-K / --ask-become-pass, or ansible_become_password). */
const BECOME_PASSWORD = /(?:\s-K\b|--ask-become-pass|ansible_become_pass(?:word)?\b)/;

/** Tasks, including those in blocks and handlers, of every play. */
function tasks(plays: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const flat = (list: unknown): Array<Record<string, unknown>> =>
    Array.isArray(list)
      ? list.flatMap((t) =>
          t && typeof t === 'object'
            ? [
                t as Record<string, unknown>,
                ...flat((t as Record<string, unknown>).block),
                ...flat((t as Record<string, unknown>).rescue),
                ...flat((t as Record<string, unknown>).always),
              ]
            : [],
        )
      : [];
  return plays.flatMap((p) => [...flat(p.pre_tasks), ...flat(p.tasks), ...flat(p.post_tasks), ...flat(p.handlers)]);
}

/** A task that turns root's SSH login off (PermitRootLogin no, in a file it writes or a line it sets). */
const closesRootLogin = (t: Record<string, unknown>) =>
  /^\s*PermitRootLogin\s+no\b/im.test(JSON.stringify(t).replace(/\\n/g, '\n').replace(/"/g, '\n'));

/** A task that gives `user` a sudo rule without a password (a sudoers file or the sudoers module). */
function grantsNopasswd(t: Record<string, unknown>, user: string): boolean {
  const text = JSON.stringify(t).replace(/\\n/g, '\n');
  const sudoersModule = Object.keys(t).find((k) => /(^|\.)sudoers$/.test(k));
  if (sudoersModule) {
    const args = t[sudoersModule] as Record<string, unknown>;
    return (
      (args?.user === user || (typeof args?.user === 'string' && args.user.includes('{{'))) &&
      args?.nopassword !== false
    );
  }
  return (
    new RegExp(
      `(^|[\\n"])\\s*(${user}|%sudo|%wheel|%admin|\\{\\{[^}]*\\}\\})\\s+ALL\\s*=\\s*\\([^)]*\\)\\s*NOPASSWD:`,
      'm',
    ).test(text) && /sudoers/.test(text)
  );
}

/**
 * For a guide with an Ansible inventory and playbook:
 *  1. every `-u X` the guide tells the reader to use is what Ansible connects as: run
 *     `ansible -u X -m ping -vvv` against the inventory (hosts pointed at a closed loopback port in a
 *     network namespace) and read the user it opens the SSH connection as;
 *  2. a play that closes root login and becomes root must leave its remote user a passwordless sudo
 *     rule (or the guide must pass -K): otherwise the next run stops at "Missing sudo password".
 */
export async function checkAnsible(guide: GuideFile, units: Unit[]): Promise<string[]> {
  const inventories = units.filter((u) => u.kind === 'ansible-inventory');
  const playbooks = units
    .filter((u) => u.kind === 'yaml')
    .flatMap((u) => {
      try {
        const v = parseYaml(u.content);
        return looksLikePlaybook([v]) ? [{ u, plays: v as Array<Record<string, unknown>> }] : [];
      } catch {
        return [];
      }
    });
  if (!inventories.length || !playbooks.length) return [];
  const findings: string[] = [];
  const inv = inventories[0];
  const users = commandUsers(guide);
  const connectsAs = async (cliUser?: string) =>
    inScratch('ansible-run', async (s: Scratch) => {
      // The inventory as written, with every host sent to a closed port on loopback in a namespace with no other network.
      const file = s.write(
        'inventory.ini',
        inv.content.replace(/\bansible_host=\S+/g, 'ansible_host=127.0.0.1') + '\n[all:vars]\nansible_port=9\n',
      );
      const r = await run(
        program('unshare'),
        [
          '-n',
          program('ansible'),
          'all',
          '-i',
          file,
          '-m',
          'ansible.builtin.ping',
          '-vvv',
          ...(cliUser ? ['-u', cliUser] : []),
          '--limit',
          'all[0]',
        ],
        {
          env: { ...ansibleEnv(s), ANSIBLE_HOST_KEY_CHECKING: 'False', ANSIBLE_TIMEOUT: '2', ANSIBLE_SSH_RETRIES: '0' },
          timeoutMs: 60_000,
        },
      );
      return /ESTABLISH SSH CONNECTION FOR USER: (\S+)/.exec(r.stdout)?.[1];
    });
  for (const { user, line } of users) {
    const actual = await connectsAs(user);
    if (actual && actual !== user) {
      findings.push(
        finding(
          { file: guide.file, line: 0, kind: 'ansible' },
          `the guide says to run with -u ${user}, but Ansible connects as ${actual}: the inventory's ansible_user is a host variable, which wins over -u (run ansible -u ${user} -vvv against this inventory)`,
          line,
        ),
      );
    }
  }
  const remote = (await connectsAs()) ?? 'root';
  for (const { u, plays } of playbooks) {
    const all = tasks(plays);
    const closing = all.find(closesRootLogin);
    const becomes = plays.some((p) => p.become === true || p.become === 'yes') || all.some((t) => t.become === true);
    if (!closing || !becomes) continue;
    if (BECOME_PASSWORD.test(guide.text)) continue;
    const playUser = plays.map((p) => p.remote_user).find((x): x is string => typeof x === 'string');
    const next = playUser ?? remote;
    if (next === 'root') {
      findings.push(
        finding(
          u,
          `the play closes root's SSH login (task "${String(closing.name)}") but connects as root: the next run cannot log in`,
        ),
      );
    } else if (!all.some((t) => grantsNopasswd(t, next))) {
      findings.push(
        finding(
          u,
          `the play closes root's SSH login (task "${String(closing.name)}") and becomes root through sudo as ${next}, but no task gives ${next} a NOPASSWD sudo rule and the guide passes no become password (-K): the next run stops at "Missing sudo password"`,
        ),
      );
    }
  }
  return findings;
}
