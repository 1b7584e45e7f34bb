import { basename } from 'node:path';
import { SHELL_LANGS, heredocFiles, type CodeBlock, type HeredocFile } from './code-blocks.js';

/*
 * What checks a block: its language, or, for a generic language (text, ini, conf), the kind of file its
 * path= or part-of= names. A block the suite cannot check must say so with check=none why="...".
 */

export type Kind =
  | 'bash'
  | 'sh'
  | 'nginx'
  | 'sshd'
  | 'nft'
  | 'yaml'
  | 'json'
  | 'systemd'
  | 'haproxy'
  | 'hcl'
  | 'ssh-config'
  | 'python'
  | 'ansible-inventory';

/** The attributes of the convention; any other key is a typo. */
export const ATTRIBUTES = new Set(['path', 'part-of', 'check', 'why', 'systems']);

/** Languages that name their own checker. */
const BY_LANG: Record<string, Kind> = {
  bash: 'bash',
  shell: 'bash',
  zsh: 'bash',
  sh: 'sh',
  nginx: 'nginx',
  sshd: 'sshd',
  nft: 'nft',
  nftables: 'nft',
  yaml: 'yaml',
  yml: 'yaml',
  json: 'json',
  haproxy: 'haproxy',
  hcl: 'hcl',
  terraform: 'hcl',
  tf: 'hcl',
  'ssh-config': 'ssh-config',
  python: 'python',
  py: 'python',
  systemd: 'systemd',
};

/** Languages that say nothing about the file; the path decides. */
const GENERIC = new Set(['text', 'ini', 'conf', 'config', 'cfg', 'plaintext', 'txt', 'toml', 'properties', '']);

/** The kind of file at a path, when the suite knows how to check that kind. */
export function kindOfPath(path: string): Kind | undefined {
  const p = path.replace(/^~/, '/root');
  const name = basename(p);
  if (p === '/etc/ssh/sshd_config' || /^\/etc\/ssh\/sshd_config\.d\/[^/]+\.conf$/.test(p)) return 'sshd';
  if (
    p === '/etc/ssh/ssh_config' ||
    /^\/etc\/ssh\/ssh_config\.d\/[^/]+\.conf$/.test(p) ||
    /\/\.ssh\/config(\.d\/[^/]+)?$/.test(p)
  )
    return 'ssh-config';
  if (p.startsWith('/etc/nginx/')) return 'nginx';
  if (p === '/etc/nftables.conf' || name.endsWith('.nft')) return 'nft';
  if (
    /^(\/etc|\/usr\/lib|\/lib|\/run)\/systemd\/system\/[^/]+\.(service|timer|socket|path)$/.test(p) ||
    /\/\.config\/systemd\/user\/[^/]+\.(service|timer|socket|path)$/.test(p)
  )
    return 'systemd';
  if (/^\/etc\/haproxy\/[^/]+\.cfg$/.test(p)) return 'haproxy';
  if (/\.ya?ml$/.test(name) || /^\/etc\/cloud\/cloud\.cfg(\.d\/[^/]+\.cfg)?$/.test(p)) return 'yaml';
  if (name.endsWith('.json')) return 'json';
  if (/\.(tf|hcl)$/.test(name)) return 'hcl';
  if (name.endsWith('.py')) return 'python';
  if (name.endsWith('.sh')) return 'bash';
  if (/^(inventory|hosts)(\.ini)?$/.test(name)) return 'ansible-inventory';
  return undefined;
}

/** A shell script's kind from its first line, for files with no telling extension (/usr/local/bin/x). */
export function kindOfScript(content: string): Kind | undefined {
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(content);
  if (!shebang) return undefined;
  const interp = basename(shebang[1]) === 'env' ? (shebang[2] ?? '') : basename(shebang[1]);
  if (interp === 'bash') return 'bash';
  if (interp === 'sh' || interp === 'dash') return 'sh';
  if (/^python3?(\.\d+)?$/.test(interp)) return 'python';
  return undefined;
}

/** What the suite does with a block: check it as a kind, skip it for a stated reason, or refuse it. */
export type Verdict = { check: Kind; path?: string; partOf?: string } | { skip: string } | { refuse: string };

/** The rule: every block is checked by its tool or says why not. */
export function verdict(block: CodeBlock): Verdict {
  const problems = [...block.infoErrors];
  for (const key of Object.keys(block.attrs))
    if (!ATTRIBUTES.has(key))
      problems.push(`unknown attribute ${key}= (the convention has path, part-of, check, why, systems)`);
  if (block.attrs.systems !== undefined && !/^[a-z]+-[\d.]+(,[a-z]+-[\d.]+)*$/.test(block.attrs.systems))
    problems.push(
      `systems= "${block.attrs.systems}" is not a comma-separated list of systems (debian-12,ubuntu-24.04)`,
    );
  const { path, check, why } = block.attrs;
  const partOf = block.attrs['part-of'];
  if (path !== undefined && partOf !== undefined)
    problems.push('path= and part-of= together (a block is a whole file or a part of one)');
  for (const [key, value] of [
    ['path', path],
    ['part-of', partOf],
  ] as const) {
    if (value !== undefined && (value === '' || /\s/.test(value))) problems.push(`${key}= "${value}" is not a path`);
  }
  if (check !== undefined && check !== 'none') problems.push(`check=${check}: the only value is none`);
  if (why !== undefined && check !== 'none') problems.push('why= without check=none');
  if (check === 'none' && !why?.trim())
    problems.push('check=none needs why="..." (a few words on why the suite cannot check it)');
  if (!block.lang) problems.push('no language after the fence');
  if (problems.length) return { refuse: problems.join('; ') };
  if (check === 'none') return { skip: why! };

  const file = path ?? partOf;
  const byLang = BY_LANG[block.lang];
  if (byLang) return { check: byLang, path, partOf };
  if (GENERIC.has(block.lang) && file) {
    const byPath = kindOfPath(file) ?? kindOfScript(block.content);
    if (byPath) return { check: byPath, path, partOf };
  }
  if (block.lang === 'ini' && looksLikeInventory(block.content)) return { check: 'ansible-inventory', path, partOf };
  return {
    refuse:
      `the suite cannot check this ${block.lang} block` +
      (file ? ` (${file} is not a kind of file it knows)` : '') +
      ': give it a checkable language or path=, or say why not with check=none why="..."',
  };
}

/** An INI block that is an Ansible inventory: host lines with ansible_* variables. */
export function looksLikeInventory(content: string): boolean {
  return /^\S+\s+ansible_\w+=/m.test(content) || /^\[[\w:-]+:vars\]\s*$/m.test(content);
}

/** The kind a heredoc's file is checked as, from its path (or its shebang); undefined when no tool checks it. */
export function heredocKind(doc: HeredocFile): Kind | undefined {
  return kindOfPath(doc.path) ?? kindOfScript(doc.content);
}

/** The heredoc files of a shell block (other blocks write none). */
export function blockHeredocs(block: CodeBlock): HeredocFile[] {
  return SHELL_LANGS.has(block.lang) && block.attrs.check !== 'none' ? heredocFiles(block) : [];
}
