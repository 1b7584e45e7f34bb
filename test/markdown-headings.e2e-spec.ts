import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The prose a newcomer reads: every heading outline starts at `#` and descends one level at a time. */
const ROOT = join(__dirname, '..');
const FILES = [
  'README.md',
  'SECURITY.md',
  'bench/README.md',
  'data/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** What is wrong with a markdown file's heading outline (code blocks aside). */
function outlineProblems(text: string): string[] {
  const problems: string[] = [];
  let fenced = false;
  let previous = 0;
  text.split('\n').forEach((line, i) => {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6}) /.exec(line);
    if (!heading) return;
    const level = heading[1].length;
    if (previous === 0 && level !== 1) problems.push(`line ${i + 1}: the first heading is level ${level}, not 1`);
    else if (previous > 0 && level === 1) problems.push(`line ${i + 1}: a second level-1 heading`);
    else if (level > previous + 1) problems.push(`line ${i + 1}: level ${previous} to ${level}: ${line.slice(0, 60)}`);
    previous = level;
  });
  return problems;
}

describe('markdown heading outlines', () => {
  it('catches a skipped level, a late first heading and a second title', () => {
    expect(outlineProblems('# A\n### B\n')).toEqual(['line 2: level 1 to 3: ### B']);
    expect(outlineProblems('## A\n')).toEqual(['line 1: the first heading is level 2, not 1']);
    expect(outlineProblems('# A\n## B\n# C\n')).toEqual(['line 3: a second level-1 heading']);
    expect(outlineProblems('# A\n```\n### not a heading\n```\n## B\n### C\n')).toEqual([]);
  });

  it.each(FILES)('%s starts at # and descends one level at a time', (file) => {
    expect(outlineProblems(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });
});
