import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One HTTP message as docs/mcp.md writes it in an `http` block. */
interface HttpRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body: string;
}
interface HttpAnswer {
  status: number;
  headers: [string, string][];
  body: unknown;
}

/** The headers of an `http` block: the lines after the first, up to the blank line. */
const headersOf = (lines: string[]): [string, string][] =>
  lines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });

/**
 * The request and answer pairs of the section "A 2026-07-28 exchange" in docs/mcp.md: each request
 * block (`POST /mcp HTTP/1.1`, headers, blank line, body) followed by its answer block (status line,
 * headers, blank line, a JSON body in which `…` marks what was cut).
 */
export function documentedExchange(): { method: string; request: HttpRequest; answer: HttpAnswer }[] {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'mcp.md'), 'utf8');
  const section = doc.split(/^#+ A 2026-07-28 exchange$/m)[1]?.split(/^#/m)[0] ?? '';
  const blocks = [...section.matchAll(/```http\n([\s\S]*?)\n```/g)].map((m) => {
    const [head, ...rest] = m[1].split('\n\n');
    const [start, ...headerLines] = head.split('\n');
    return { start, headers: headersOf(headerLines), body: rest.join('\n\n') };
  });
  const pairs = [];
  for (let i = 0; i + 1 < blocks.length; i += 2) {
    const [method, path] = blocks[i].start.split(' ');
    const status = Number(blocks[i + 1].start.split(' ')[1]);
    const request = { method, path, headers: blocks[i].headers, body: blocks[i].body };
    pairs.push({
      method: JSON.parse(request.body).method as string,
      request,
      answer: { status, headers: blocks[i + 1].headers, body: JSON.parse(blocks[i + 1].body) },
    });
  }
  if (pairs.length === 0) throw new Error('docs/mcp.md has no request and answer blocks under "A 2026-07-28 exchange"');
  return pairs;
}

const CUT = '…';

/**
 * Where `actual` differs from a documented JSON value, as paths with what was expected. A string
 * ending in `…` stands for any string that starts with the rest; a `"…": "…"` member allows members
 * not shown; an array ending in `"…"` allows more items; everything else must be equal, arrays item
 * by item, objects member by member (no member beyond those shown).
 */
export function shapeProblems(documented: unknown, actual: unknown, path = '$'): string[] {
  if (typeof documented === 'string' && documented.endsWith(CUT)) {
    return typeof actual === 'string' && actual.startsWith(documented.slice(0, -CUT.length))
      ? []
      : [`${path}: expected a string starting ${JSON.stringify(documented.slice(0, -1))}`];
  }
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array`];
    const open = documented.at(-1) === CUT;
    const shown = open ? documented.slice(0, -1) : documented;
    const problems = open
      ? actual.length < shown.length
        ? [`${path}: expected at least ${shown.length} items`]
        : []
      : actual.length !== shown.length
        ? [`${path}: expected ${shown.length} items, got ${actual.length}`]
        : [];
    return [...problems, ...shown.flatMap((item, i) => shapeProblems(item, actual[i], `${path}[${i}]`))];
  }
  if (documented !== null && typeof documented === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: expected an object`];
    const shown = Object.entries(documented).filter(([key]) => key !== CUT);
    const open = CUT in documented;
    const extra = open
      ? []
      : Object.keys(actual)
          .filter((key) => !(key in documented))
          .map((key) => `${path}.${key}: not in the documentation`);
    return [
      ...extra,
      ...shown.flatMap(([key, value]) =>
        key in actual
          ? shapeProblems(value, (actual as Record<string, unknown>)[key], `${path}.${key}`)
          : [`${path}.${key}: missing`],
      ),
    ];
  }
  return Object.is(documented, actual)
    ? []
    : [`${path}: expected ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
}
