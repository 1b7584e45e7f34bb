/*
 * Just enough of nginx's configuration syntax to find server blocks and their locations: directives,
 * arguments (quoted or not), blocks, comments, with the line and text span of each directive.
 */

export interface Directive {
  name: string;
  args: string[];
  /** 1-based line of the directive's name. */
  line: number;
  /** Offsets in the text: from the name to the `;` or the closing `}` (inclusive). */
  start: number;
  end: number;
  block?: Directive[];
}

export function parseNginx(text: string): Directive[] {
  let i = 0;
  let line = 1;
  const tokens: Array<{ t: string; line: number; start: number; end: number; quoted: boolean }> = [];
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ t: c, line, start: i, end: i + 1, quoted: false });
      i++;
    } else if (c === '"' || c === "'") {
      const start = i++;
      let value = '';
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) value += text[++i];
        else value += text[i];
        if (text[i] === '\n') line++;
        i++;
      }
      i++;
      tokens.push({ t: value, line, start, end: i, quoted: true });
    } else {
      const start = i;
      while (i < text.length && !/[\s;{}]/.test(text[i])) i++;
      // (nginx, too, needs a regex with { or ; in quotes.)
      tokens.push({ t: text.slice(start, i), line, start, end: i, quoted: false });
    }
  }
  let k = 0;
  const parseList = (): Directive[] => {
    const list: Directive[] = [];
    while (k < tokens.length && !(tokens[k].t === '}' && !tokens[k].quoted)) {
      const head = tokens[k++];
      const args: string[] = [];
      while (k < tokens.length && !(['{', ';', '}'].includes(tokens[k].t) && !tokens[k].quoted))
        args.push(tokens[k++].t);
      const d: Directive = { name: head.t, args, line: head.line, start: head.start, end: head.end };
      if (k < tokens.length && tokens[k].t === ';') d.end = tokens[k++].end;
      else if (k < tokens.length && tokens[k].t === '{') {
        k++;
        d.block = parseList();
        d.end = k < tokens.length ? tokens[k].end : text.length;
        k++;
      }
      list.push(d);
    }
    return list;
  };
  return parseList();
}

/** Every server block, at any depth (a file of server blocks, or a whole nginx.conf with http {}). */
export function serverBlocks(tree: Directive[]): Directive[] {
  return tree.flatMap((d) =>
    d.name === 'server' && d.block ? [d] : d.block && d.name !== 'server' ? serverBlocks(d.block) : [],
  );
}

/** What a location refuses unconditionally: `deny all` with no `allow` (403), or `return 403|404|410`. */
export function refusal(location: Directive): number | undefined {
  const body = location.block ?? [];
  if (body.some((d) => d.name === 'deny' && d.args[0] === 'all') && !body.some((d) => d.name === 'allow')) return 403;
  const ret = body.find((d) => d.name === 'return' && /^(403|404|410)$/.test(d.args[0] ?? ''));
  return ret ? Number(ret.args[0]) : undefined;
}

/**
 * A request path that a location's pattern matches, for a probe: `= /x` → /x; a prefix → the prefix
 * and a PHP file under it; a regex → a string built from it (`.*`, `.+` → "probe", a class → its
 * first character, alternatives → the first, lookarounds dropped) and kept only if the regex matches it.
 */
export function probes(location: Directive): string[] {
  const [a, b] = location.args;
  if (a === '=' && b) return [b];
  if (a === '^~' && b) return prefixProbes(b);
  if ((a === '~' || a === '~*') && b) {
    const sample = sampleRegex(b);
    let re: RegExp;
    try {
      re = new RegExp(b.replace(/\(\?<(\w+)>/g, '(?<$1>'), a === '~*' ? 'i' : '');
    } catch {
      return [];
    }
    return sample && re.test(sample) && sample.startsWith('/') ? [sample] : [];
  }
  if (a && !b && a.startsWith('/')) return prefixProbes(a);
  return [];
}

function prefixProbes(prefix: string): string[] {
  return prefix.endsWith('/') ? [prefix + 'probe.html', prefix + 'probe.php'] : [prefix];
}

/** One string a (simple) PCRE matches; undefined when the pattern is beyond this sampler. */
export function sampleRegex(pattern: string, top = true): string | undefined {
  let out = '';
  let i = 0;
  const anchoredEnd = pattern.endsWith('$') && !pattern.endsWith('\\$');
  const atom = (): string | undefined => {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[i + 1];
      i += 2;
      if (n === 'd') return '1';
      if (n === 'w') return 'a';
      if (n === 's') return ' ';
      return n;
    }
    if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) return undefined;
      const cls = pattern.slice(i + 1, close);
      i = close + 1;
      if (cls.startsWith('^')) return cls.includes('x') ? 'y' : 'x';
      return cls.startsWith('\\') ? cls[1] : cls[0];
    }
    if (c === '(') {
      let depth = 0;
      let j = i;
      for (; j < pattern.length; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')' && --depth === 0) break;
      }
      let inner = pattern.slice(i + 1, j);
      i = j + 1;
      if (/^\?[=!]|^\?<[=!]/.test(inner)) return '';
      inner = inner.replace(/^\?:|^\?<\w+>|^\?P<\w+>/, '');
      const first = splitAlternatives(inner)[0];
      return sampleRegex(first, false);
    }
    if (c === '.') {
      i++;
      return 'x';
    }
    if (c === '^' || c === '$') {
      i++;
      return '';
    }
    i++;
    return c;
  };
  while (i < pattern.length) {
    const a = atom();
    if (a === undefined) return undefined;
    const q = pattern[i];
    if (q === '*' || q === '?') {
      i++;
      if (pattern[i] === '?' || pattern[i] === '+') i++;
      out += a === 'x' && q === '*' ? 'probe' : '';
    } else if (q === '+') {
      i++;
      if (pattern[i] === '?' || pattern[i] === '+') i++;
      out += a === 'x' ? 'probe' : a;
    } else if (q === '{') {
      const m = /^\{(\d+)(?:,\d*)?\}/.exec(pattern.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      out += a.repeat(Number(m[1]));
    } else out += a;
  }
  return anchoredEnd || !top ? out : out + 'probe';
}

function splitAlternatives(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      cur += c + s[++i];
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === '|' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}
