import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';

/*
 * The code blocks of the tutorials, read from the markdown the way a reviewer reads them.
 *
 * The convention (docs/testing.md, "Tutorials checked by their tools"): a fence's info string is a
 * language followed by optional attributes `key=value` (a value with spaces in double quotes):
 *   ```nginx path=/etc/nginx/sites-available/example.com     the whole file at that path
 *   ```sshd part-of=/etc/ssh/sshd_config.d/20-totp.conf      a part of that file
 *   ```text check=none why="terminal output"                 not checked, and why
 * markdown-it shows readers only the first word (the language); the raw markdown keeps the rest.
 */

/** A fenced code block of a guide. */
export interface CodeBlock {
  /** The guide's slug (its file name without .md). */
  guide: string;
  /** The file the block is in, relative to the repository (for messages). */
  file: string;
  /** 1-based line of the opening fence in the file (front matter included). */
  line: number;
  /** The info string as written after the fence. */
  info: string;
  /** The first word of the info string, lower-cased ('' when there is none). */
  lang: string;
  /** The attributes after the language. */
  attrs: Record<string, string>;
  /** Problems reading the info string (an attribute that is not key=value, an unclosed quote). */
  infoErrors: string[];
  /** The block's text, without the fences, de-indented by the fence's own indentation, ending in a newline. */
  content: string;
}

/** A file that a shell block writes with a heredoc (`sudo tee /path <<'EOF'`, `cat > /path <<EOF`, `tee -a`). */
export interface HeredocFile {
  /** The path written, as typed (`~` and `$HOME` left as they are). */
  path: string;
  /** The text the heredoc feeds, ending in a newline. */
  content: string;
  /** True for `tee -a` and `>>`: the text is appended to the file. */
  append: boolean;
  /** The block the heredoc is in. */
  block: CodeBlock;
  /** 1-based line in the guide file of the command that starts the heredoc. */
  line: number;
  /** Whether the body is expanded by the shell (unquoted delimiter): `$x` in it is the shell's, not the file's. */
  expanded: boolean;
}

/** A guide of the dataset, as its file holds it. */
export interface GuideFile {
  slug: string;
  file: string;
  type: string;
  front: Record<string, unknown>;
  /** The whole file's text. */
  text: string;
  /** Line of the file where the body starts (1-based). */
  bodyLine: number;
  body: string;
}

/**
 * Splits an info string into language and attributes. `key=value`, `key="value with spaces"`; a bare word
 * after the language is reported (the convention has none).
 */
export function parseInfo(info: string): { lang: string; attrs: Record<string, string>; errors: string[] } {
  const attrs: Record<string, string> = {};
  const errors: string[] = [];
  const trimmed = info.trim();
  const m = /^(\S*)\s*([\s\S]*)$/.exec(trimmed)!;
  const lang = m[1].toLowerCase();
  let rest = m[2];
  while (rest.length > 0) {
    const attr = /^([A-Za-z][\w-]*)=(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))(?:\s+|$)/.exec(rest);
    if (!attr) {
      const word = /^\S+/.exec(rest)![0];
      errors.push(word.includes('"') ? `unclosed or misplaced quote in "${rest}"` : `"${word}" is not key=value`);
      rest = rest.slice(word.length).trimStart();
      continue;
    }
    const [whole, key, quoted, bare] = attr;
    if (key in attrs) errors.push(`attribute ${key} given twice`);
    attrs[key] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : bare;
    rest = rest.slice(whole.length);
  }
  return { lang, attrs, errors };
}

/**
 * Every fenced block of a markdown text, CommonMark's way: a fence is three or more backticks or tildes,
 * indented up to three spaces (more inside list items, whose indentation the content shares), closed by a
 * fence of the same character at least as long; an unclosed fence runs to the end of the text.
 * `firstLine` is the file line of the text's first line.
 */
export function codeBlocks(markdown: string, where: { guide: string; file: string; firstLine?: number }): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  const first = where.firstLine ?? 1;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    if (fence[0] === '`' && info.includes('`')) continue; // not a fence: inline code
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]); j++) body.push(lines[j]);
    const strip = (l: string) => {
      let k = 0;
      while (k < indent.length && l[k] === ' ') k++;
      return l.slice(k);
    };
    const { lang, attrs, errors } = parseInfo(info);
    blocks.push({
      guide: where.guide,
      file: where.file,
      line: first + i,
      info: info.trim(),
      lang,
      attrs,
      infoErrors: errors,
      content: body.map(strip).join('\n') + (body.length ? '\n' : ''),
    });
    i = j;
  }
  return blocks;
}

/** The guides of a directory (data/guides by default), read from their files. */
export function readGuides(dir = resolve('data', 'guides')): GuideFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readGuide(join(dir, f)));
}

/** One guide file: front matter and body, with the line where the body starts. */
export function readGuide(path: string): GuideFile {
  const text = readFileSync(path, 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  const front = m ? (parse(m[1]) as Record<string, unknown>) : {};
  const body = m ? m[2] : text;
  const bodyLine = m ? m[1].split('\n').length + 3 : 1;
  const rel = path.startsWith(resolve('.') + '/') ? path.slice(resolve('.').length + 1) : path;
  return {
    slug: String(front.slug ?? basename(path, '.md')),
    file: rel,
    type: String(front.type ?? ''),
    front,
    text,
    bodyLine,
    body,
  };
}

/** The code blocks of a guide file, with lines counted in the file. */
export function guideBlocks(guide: GuideFile): CodeBlock[] {
  return codeBlocks(guide.body, { guide: guide.slug, file: guide.file, firstLine: guide.bodyLine });
}

/**
 * The tutorials to check: every `type: tutorial` guide, or only the slugs in the TUTORIALS environment
 * variable (comma-separated), so an engineer can run the checks on the guides they are editing.
 */
export function tutorials(dir?: string, only = process.env.TUTORIALS): GuideFile[] {
  const all = readGuides(dir).filter((g) => g.type === 'tutorial');
  if (!only?.trim()) return all;
  const wanted = new Set(
    only
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const unknown = [...wanted].filter((s) => !all.some((g) => g.slug === s));
  if (unknown.length) throw new Error(`TUTORIALS names guides that are not tutorials: ${unknown.join(', ')}`);
  return all.filter((g) => wanted.has(g.slug));
}

/** Shell languages: what a reader types (`bash`, also `shell`/`console`-free forms) and POSIX scripts (`sh`). */
export const SHELL_LANGS = new Set(['bash', 'sh', 'shell', 'zsh']);

/**
 * The files that a shell block writes with a heredoc. Recognised forms (with or without `sudo`, any
 * redirection of tee's own output):
 *   tee [-a] PATH <<'EOF'          cat > PATH <<EOF        cat >> PATH <<EOF
 *   cat <<EOF > PATH               cat <<'EOF' | sudo tee [-a] PATH
 * `<<-` strips leading tabs, as the shell does. Heredocs that feed a command (not a file) are ignored.
 */
export function heredocFiles(block: CodeBlock): HeredocFile[] {
  const lines = block.content.split('\n');
  const found: HeredocFile[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const doc = /(?<!<)<<(?!<)(-?)\s*(['"]?)([A-Za-z_][\w]*)\2/.exec(line);
    if (!doc) continue;
    const [, dash, quote, delimiter] = doc;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = dash ? lines[j].replace(/^\t+/, '') : lines[j];
      if (l === delimiter) break;
      body.push(l);
    }
    const target = heredocTarget(line);
    if (target) {
      found.push({
        path: target.path,
        append: target.append,
        content: body.join('\n') + '\n',
        block,
        line: block.line + 1 + i,
        expanded: quote === '',
      });
    }
    i = j;
  }
  return found;
}

/** The file a heredoc command line writes, if it writes one. */
function heredocTarget(line: string): { path: string; append: boolean } | undefined {
  const word = `("[^"]+"|'[^']+'|[^\\s;|&<>]+)`;
  const unquote = (w: string) => w.replace(/^(["'])(.*)\1$/, '$2');
  const tee = new RegExp(`\\btee\\s+((?:-[a-z]+\\s+)*)${word}`).exec(line);
  if (tee) return { path: unquote(tee[2]), append: /-\w*a/.test(tee[1]) };
  const redirect = new RegExp(`\\bcat\\b[^|]*?(>>?)\\s*${word}`).exec(line);
  if (redirect && !/^\/dev\//.test(unquote(redirect[2])))
    return { path: unquote(redirect[2]), append: redirect[1] === '>>' };
  return undefined;
}
