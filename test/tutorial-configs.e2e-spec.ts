import { codeBlocks, guideBlocks, heredocFiles, parseInfo, tutorials, type CodeBlock } from './support/tutorials/code-blocks';
import { verdict } from './support/tutorials/kinds';

/*
 * Tutorials checked by their tools (issue #28 §2; docs/testing.md, "Tutorials checked by their tools").
 * Every code block of every `type: tutorial` guide is checked by the real program for its kind, or says
 * why not (check=none why="..."). TUTORIALS=slug1,slug2 restricts the run to those guides. Failures are
 * reported all at once, one per line, as `guide-file:line kind: tool output`.
 */

const GUIDES = tutorials();
const BLOCKS = GUIDES.flatMap(guideBlocks);

/** One failure line per finding, or '' when there are none (so the assertion shows them all). */
const report = (findings: string[]) => findings.join('\n');

describe('reading the code blocks', () => {
  it('splits an info string into a language and key=value attributes, quoted values with spaces', () => {
    expect(parseInfo('nginx path=/etc/nginx/sites-available/example.com')).toEqual({ lang: 'nginx', attrs: { path: '/etc/nginx/sites-available/example.com' }, errors: [] });
    expect(parseInfo('text check=none why="terminal output"')).toEqual({ lang: 'text', attrs: { check: 'none', why: 'terminal output' }, errors: [] });
    expect(parseInfo('Bash')).toEqual({ lang: 'bash', attrs: {}, errors: [] });
    expect(parseInfo('')).toEqual({ lang: '', attrs: {}, errors: [] });
    expect(parseInfo('text why="say \\"no\\"" check=none').attrs).toEqual({ why: 'say "no"', check: 'none' });
  });

  it('reports what is not key=value: a bare word, an unclosed quote, a key given twice', () => {
    expect(parseInfo('nginx sites').errors).toEqual(['"sites" is not key=value']);
    expect(parseInfo('text check=none why="terminal output').errors[0]).toMatch(/quote/);
    expect(parseInfo('text path=/a path=/b').errors).toEqual(['attribute path given twice']);
  });

  it('lists fenced blocks with their file line, language, attributes and content (backticks, tildes, longer fences, list indentation)', () => {
    const md = [
      'Intro', // 10
      '```bash', // 11
      'echo hi', // 12
      '```', // 13
      '', // 14
      '1. Step', // 15
      '   ~~~nginx path=/etc/nginx/conf.d/a.conf', // 16
      '   server {', // 17
      '       listen 80;', // 18
      '   }', // 19
      '   ~~~', // 20
      '````text check=none why="shows a fence"', // 21
      '```', // 22
      '````', // 23
      'inline ```not a fence``` here', // 24
      '```', // 25
    ].join('\n');
    const blocks = codeBlocks(md, { guide: 'g', file: 'data/guides/g.md', firstLine: 10 });
    expect(blocks.map((b) => [b.line, b.lang, b.attrs, b.content])).toEqual([
      [11, 'bash', {}, 'echo hi\n'],
      [16, 'nginx', { path: '/etc/nginx/conf.d/a.conf' }, 'server {\n    listen 80;\n}\n'],
      [21, 'text', { check: 'none', why: 'shows a fence' }, '```\n'],
      [25, '', {}, ''],
    ]);
  });

  it('finds the files bash heredocs write: tee, tee -a, cat >, cat <<EOF >, piped into tee; not heredocs fed to a command', () => {
    const block = codeBlocks(
      [
        '```bash',
        "sudo tee /etc/ssh/sshd_config.d/20-totp.conf >/dev/null <<'EOF'",
        'UsePAM yes',
        'EOF',
        'echo "x" | sudo tee -a /etc/hosts',
        'sudo tee -a /etc/fstab <<EOF',
        'UUID=$uuid /mnt ext4 defaults 0 2',
        'EOF',
        'cat > ~/.ssh/config <<"END"',
        'Host a',
        'END',
        "cat <<'EOF' >> /tmp/x.sh",
        '#!/bin/sh',
        'EOF',
        "cat <<'EOF' | sudo tee /etc/nginx/conf.d/a.conf",
        'map $a $b {}',
        'EOF',
        "psql <<'SQL'",
        'select 1;',
        'SQL',
        "sudo tee /etc/a.conf <<-'EOF'",
        '\tindented',
        '\tEOF',
        'grep <<< "$x" y',
        '```',
      ].join('\n'),
      { guide: 'g', file: 'g.md', firstLine: 1 },
    )[0];
    expect(heredocFiles(block).map((h) => [h.path, h.append, h.expanded, h.line, h.content])).toEqual([
      ['/etc/ssh/sshd_config.d/20-totp.conf', false, false, 2, 'UsePAM yes\n'],
      ['/etc/fstab', true, true, 6, 'UUID=$uuid /mnt ext4 defaults 0 2\n'],
      ['~/.ssh/config', false, false, 9, 'Host a\n'],
      ['/tmp/x.sh', true, false, 12, '#!/bin/sh\n'],
      ['/etc/nginx/conf.d/a.conf', false, false, 15, 'map $a $b {}\n'],
      ['/etc/a.conf', false, false, 21, 'indented\n'],
    ]);
  });
});

describe('the rule: a block is checked by its tool or says why not', () => {
  const block = (info: string, content = 'x\n'): CodeBlock => ({ ...codeBlocks('```' + info + '\n' + content + '```\n', { guide: 'g', file: 'g.md' })[0] });

  it('knows a block by its language, or a generic one by its path', () => {
    expect(verdict(block('nginx'))).toEqual({ check: 'nginx', path: undefined, partOf: undefined });
    expect(verdict(block('text path=/etc/ssh/sshd_config.d/10-hardening.conf'))).toMatchObject({ check: 'sshd' });
    expect(verdict(block('ini path=/etc/systemd/system/app.service'))).toMatchObject({ check: 'systemd' });
    expect(verdict(block('ini part-of=/etc/systemd/system/app.service'))).toMatchObject({ check: 'systemd', partOf: '/etc/systemd/system/app.service' });
    expect(verdict(block('text path=/usr/local/bin/job', '#!/bin/bash\necho\n'))).toMatchObject({ check: 'bash' });
    expect(verdict(block('ini', '[web]\nweb1 ansible_host=203.0.113.10\n'))).toMatchObject({ check: 'ansible-inventory' });
  });

  it('skips a block that says why, and refuses one that does not', () => {
    expect(verdict(block('text check=none why="terminal output"'))).toEqual({ skip: 'terminal output' });
    expect(verdict(block('text'))).toHaveProperty('refuse');
    expect(verdict(block('ini path=/etc/php/8.3/fpm/php.ini'))).toHaveProperty('refuse');
    expect(verdict(block(''))).toEqual({ refuse: expect.stringContaining('no language') });
    expect(verdict(block('text check=none'))).toEqual({ refuse: expect.stringContaining('needs why=') });
    expect(verdict(block('text check=some why="x"'))).toEqual({ refuse: expect.stringContaining('only value is none') });
    expect(verdict(block('nginx pth=/etc/nginx/a.conf'))).toEqual({ refuse: expect.stringContaining('unknown attribute pth=') });
    expect(verdict(block('nginx path=/a part-of=/b'))).toEqual({ refuse: expect.stringContaining('together') });
  });

  it(`holds for every block of the ${GUIDES.length} tutorials`, () => {
    const refused = BLOCKS.flatMap((b) => {
      const v = verdict(b);
      return 'refuse' in v ? [`${b.file}:${b.line} ${b.lang || '(no language)'}: ${v.refuse}`] : [];
    });
    expect(report(refused)).toBe('');
  });
});
