import { join } from 'node:path';
import { checkBorgmatic, checkUnits, CHECKS, guideUnits } from './support/tutorials/checks.js';
import {
  codeBlocks,
  guideBlocks,
  heredocFiles,
  parseInfo,
  readGuide,
  tutorials,
  type CodeBlock,
  type GuideFile,
} from './support/tutorials/code-blocks.js';
import {
  checkAnsible,
  checkNginxRefusals,
  checkSshdSite,
  commandUsers,
  guidesBefore,
} from './support/tutorials/effective.js';
import { verdict } from './support/tutorials/kinds.js';
import { parseNginx, probes, sampleRegex } from './support/tutorials/nginx-conf.js';
import {
  expectedVerifiedWith,
  guideSystems,
  isBorgmaticConfig,
  unitSystems,
  versionedTool,
} from './support/tutorials/systems.js';
import { CHECKED_SYSTEMS, withSystem, type CheckedSystem } from './support/tutorials/tools.js';
import { mergeVersions, readRanWith, verifiedWithProblems } from './support/tutorials/verified-with.js';

/*
 * Tutorials checked by their tools (issue #28 §2; docs/testing.md, "Tutorials checked by their tools").
 * Every code block of every `type: tutorial` guide is checked by the real program for its kind, or says
 * why not (check=none why="..."). TUTORIALS=slug1,slug2 restricts the run to those guides. Failures are
 * reported all at once, one per line, as `guide-file:line kind: tool output`.
 */

const GUIDES = tutorials();
const BLOCKS = GUIDES.flatMap(guideBlocks);
const UNITS = GUIDES.flatMap(guideUnits);
/** Every tutorial, whatever TUTORIALS says: the sshd check puts a guide's drop-ins with those of the guides it comes after. */
const ALL_GUIDES = tutorials(undefined, '');
const ALL_UNITS = ALL_GUIDES.flatMap(guideUnits);

/**
 * The units checked with a Debian release's tools: a unit whose tool's version verifiedWith states
 * (nginx, sshd, haproxy, Ansible, cloud-init, borgmatic) only for the tutorials checked on that release
 * (guideSystems); every other unit (shell, nft, systemd, JSON...) with this machine's tools, in the
 * Debian 12 pass.
 */
const systemsOf = new Map(ALL_GUIDES.map((g) => [g.slug, guideSystems(g)]));
const guideOf = new Map(ALL_GUIDES.map((g) => [g.slug, g]));
const unitsFor = (units: typeof UNITS, system: CheckedSystem) =>
  units.filter((u) =>
    versionedTool(u) ? unitSystems(u, guideOf.get(u.guide)!).includes(system) : system === 'debian-12',
  );
const guidesFor = (guides: GuideFile[], system: CheckedSystem) =>
  guides.filter((g) => (systemsOf.get(g.slug) ?? []).includes(system));

/** One failure line per finding, or '' when there are none (so the assertion shows them all). */
const report = (findings: string[]) => findings.join('\n');

describe('reading the code blocks', () => {
  it('splits an info string into a language and key=value attributes, quoted values with spaces', () => {
    expect(parseInfo('nginx path=/etc/nginx/sites-available/example.com')).toEqual({
      lang: 'nginx',
      attrs: { path: '/etc/nginx/sites-available/example.com' },
      errors: [],
    });
    expect(parseInfo('text check=none why="terminal output"')).toEqual({
      lang: 'text',
      attrs: { check: 'none', why: 'terminal output' },
      errors: [],
    });
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
  const block = (info: string, content = 'x\n'): CodeBlock => ({
    ...codeBlocks('```' + info + '\n' + content + '```\n', { guide: 'g', file: 'g.md' })[0],
  });

  it('knows a block by its language, or a generic one by its path', () => {
    expect(verdict(block('nginx'))).toEqual({ check: 'nginx', path: undefined, partOf: undefined });
    expect(verdict(block('text path=/etc/ssh/sshd_config.d/10-hardening.conf'))).toMatchObject({ check: 'sshd' });
    expect(verdict(block('ini path=/etc/systemd/system/app.service'))).toMatchObject({ check: 'systemd' });
    expect(verdict(block('ini part-of=/etc/systemd/system/app.service'))).toMatchObject({
      check: 'systemd',
      partOf: '/etc/systemd/system/app.service',
    });
    expect(verdict(block('text path=/usr/local/bin/job', '#!/bin/bash\necho\n'))).toMatchObject({ check: 'bash' });
    expect(verdict(block('ini', '[web]\nweb1 ansible_host=203.0.113.10\n'))).toMatchObject({
      check: 'ansible-inventory',
    });
  });

  it('skips a block that says why, and refuses one that does not', () => {
    expect(verdict(block('text check=none why="terminal output"'))).toEqual({ skip: 'terminal output' });
    expect(verdict(block('text'))).toHaveProperty('refuse');
    expect(verdict(block('ini path=/etc/php/8.3/fpm/php.ini'))).toHaveProperty('refuse');
    expect(verdict(block(''))).toEqual({ refuse: expect.stringContaining('no language') });
    expect(verdict(block('text check=none'))).toEqual({ refuse: expect.stringContaining('needs why=') });
    expect(verdict(block('text check=some why="x"'))).toEqual({
      refuse: expect.stringContaining('only value is none'),
    });
    expect(verdict(block('nginx pth=/etc/nginx/a.conf'))).toEqual({
      refuse: expect.stringContaining('unknown attribute pth='),
    });
    expect(verdict(block('nginx path=/a part-of=/b'))).toEqual({ refuse: expect.stringContaining('together') });
  });

  it(`holds for every block of the ${GUIDES.length} tutorials`, () => {
    expect(report(refusals(BLOCKS))).toBe('');
  });
});

/** The rule's refusals for a set of blocks. */
const refusals = (blocks: CodeBlock[]) =>
  blocks.flatMap((b) => {
    const v = verdict(b);
    return 'refuse' in v ? [`${b.file}:${b.line} ${b.lang || '(no language)'}: ${v.refuse}`] : [];
  });

describe.each(CHECKED_SYSTEMS)('checked by their tools, as %s ships them', (system) => {
  const units = unitsFor(UNITS, system);
  for (const [name, kinds] of Object.entries(CHECKS)) {
    if (!units.some((u) => (kinds as readonly string[]).includes(u.kind))) continue;
    it(`${name}: ${kinds.join(', ')} blocks and heredoc files pass`, async () => {
      expect(report(await withSystem(system, () => checkUnits(units, kinds)))).toBe('');
    }, 300_000);
  }
});

describe("borgmatic, with each Debian release's borgmatic", () => {
  const config = (file: string) => guideUnits(readGuide(file)).find(isBorgmaticConfig)!;

  it("refuses the borgmatic guide as it was (fdf64a3): Debian 12's 1.7.7 has no config action and requires the sectioned layout", async () => {
    const found = await withSystem('debian-12', () =>
      checkBorgmatic(config(join(__dirname, 'fixtures', 'tutorial-day-two', 'before-42', 'borgmatic-backups.md'))),
    );
    expect(found.join('\n')).toMatch(/borgmatic 1\.7\.7 has no 'config' action/);
    expect(found.join('\n')).toMatch(/'location' is a required property/);
  });

  it("refuses a misspelt option with Debian 13's 1.9, and takes today's guide", async () => {
    const today = config(join('data', 'guides', 'borgmatic-backups.md'));
    expect(await withSystem('debian-13', () => checkBorgmatic(today))).toEqual([]);
    const misspelt = { ...today, content: today.content.replace('keep_daily:', 'keep_dayly:') };
    expect((await withSystem('debian-13', () => checkBorgmatic(misspelt))).join('\n')).toMatch(
      /borgmatic config validate: .*keep_dayly/,
    );
  });
});

describe('verifiedWith states the versions the checks ran with', () => {
  it("names the systems of every tutorial, and in verifiedWith exactly the versions the checker's tools and the executed runner ran, never an Ubuntu release", async () => {
    const record = readRanWith();
    const problems: string[] = [];
    for (const g of GUIDES) {
      if (guideSystems(g).length === 0) problems.push(`${g.file}: systems names no system the checks can run for`);
      const stated = g.front.verifiedWith as Record<string, string> | undefined;
      // A tutorial without verifiedWith claims no version (and carries no reviewed day).
      if (!stated) continue;
      const ran = mergeVersions(await expectedVerifiedWith(g, ALL_UNITS), record.tutorials[g.slug] ?? {});
      problems.push(...verifiedWithProblems(g.file, stated, ran));
    }
    expect(report(problems)).toBe('');
  }, 120_000);
});

/** The effective checks of a set of guides (the sshd one with the drop-ins of the guides each comes after, from `all`). */
async function effective(
  guides: GuideFile[],
  all: GuideFile[],
  allUnits: typeof UNITS,
  system: CheckedSystem = 'debian-12',
) {
  const units = (g: GuideFile) =>
    allUnits.filter((u) => u.guide === g.slug && (!u.systems || unitSystems(u, g).includes(system)));
  return withSystem(system, async () => ({
    nginx: (await Promise.all(guides.map((g) => checkNginxRefusals(units(g))))).flat(),
    sshd: await checkSshdSite(allUnits, all, new Set(guides.map((g) => g.slug))),
    ansible: (await Promise.all(guides.map((g) => checkAnsible(g, units(g))))).flat(),
  }));
}

describe.each(CHECKED_SYSTEMS)('effective results, where order decides, with the tools of %s', (system) => {
  let results: Awaited<ReturnType<typeof effective>>;
  beforeAll(async () => {
    results = await effective(guidesFor(GUIDES, system), ALL_GUIDES, ALL_UNITS, system);
  }, 300_000);

  it('nginx: every path a refusing location (deny all, return 403) matches is refused by a real nginx, not taken by an earlier regex location', () => {
    expect(report(results.nginx)).toBe('');
  });
  it("sshd: with the drop-ins of the guides a guide comes after, sshd -t passes and sshd -T shows the guide's own settings", () => {
    expect(report(results.sshd)).toBe('');
  });
  it('ansible: -u names the user Ansible connects as, and a play that closes root login leaves its user a way to become root', () => {
    expect(report(results.ansible)).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------------
// The fixtures: each check fails on its broken form (and the good forms pass)

const FIXTURES = join(__dirname, 'fixtures', 'tutorial-configs');
const FIXTURE_GUIDES = tutorials(FIXTURES, '');
const FIXTURE_UNITS = FIXTURE_GUIDES.flatMap(guideUnits);

describe('fixtures: every check fails on a broken example', () => {
  let findings: Map<string, string[]>;
  beforeAll(async () => {
    const eff = await effective(FIXTURE_GUIDES, FIXTURE_GUIDES, FIXTURE_UNITS);
    const all = [
      ...refusals(FIXTURE_GUIDES.flatMap(guideBlocks)),
      ...(await checkUnits(FIXTURE_UNITS, Object.values(CHECKS).flat())),
      ...eff.nginx,
      ...eff.sshd,
      ...eff.ansible,
    ];
    findings = new Map(
      FIXTURE_GUIDES.map((g) => [g.slug, all.filter((f) => f.startsWith(g.file + ':') || f.startsWith(g.file + ' '))]),
    );
  }, 300_000);

  for (const g of FIXTURE_GUIDES) {
    const expected = (g.front.expect as string[] | undefined) ?? [];
    it(`${g.slug}: ${expected.length ? expected.length + ' expected finding' + (expected.length > 1 ? 's' : '') : 'no findings'}, and nothing else`, () => {
      const got = findings.get(g.slug)!;
      const missing = expected.filter((p) => !got.some((f) => new RegExp(p).test(f)));
      const unexpected = got.filter((f) => !expected.some((p) => new RegExp(p).test(f)));
      expect({ missing, unexpected, got: missing.length || unexpected.length ? got : [] }).toEqual({
        missing: [],
        unexpected: [],
        got: [],
      });
    });
  }

  it('has a failing example for every check and every effective check', () => {
    const all = [...findings.values()].flat().join('\n');
    const checks = [
      ': no language after the fence',
      'check=none needs why',
      'the suite cannot check',
      'bash: bash -n:',
      'bash: shellcheck',
      'sh: shellcheck',
      'nginx: nginx -t (with the guide',
      'nginx: nginx -t (block in a',
      "nginx: the heredoc's delimiter is unquoted",
      'nginx: GET ',
      'sshd: sshd -t:',
      'sshd: sshd -t with the drop-ins of the guides it comes after',
      'nft: nft -c:',
      'yaml: YAML:',
      'yaml: cloud-init schema:',
      'yaml: ansible-playbook --syntax-check:',
      'yaml: compose:',
      'json: JSON.parse:',
      'hcl: HCL:',
      'python: python3 compile:',
      'systemd: systemd-analyze verify:',
      'haproxy: haproxy -c:',
      'ssh-config: ssh -G:',
      'ansible-inventory: ansible-inventory:',
      'but Ansible connects as',
      'Missing sudo password',
    ];
    expect(checks.filter((c) => !all.includes(c))).toEqual([]);
  });
});

describe('helpers of the effective checks', () => {
  it('samples a request path from a location regex, and probes prefix and exact locations', () => {
    expect(sampleRegex('/wp-content/uploads/.*\\.php$')).toBe('/wp-content/uploads/probe.php');
    expect(sampleRegex('/\\.(?!well-known)')).toBe('/.probe');
    expect(sampleRegex('^/(status|ping)$')).toBe('/status');
    const locations = parseNginx(
      'server { location = /xmlrpc.php { deny all; } location /private/ { deny all; } location ~* ^/a[0-9]+\\.txt$ { return 403; } }',
    )[0].block!;
    expect(locations.map(probes)).toEqual([
      ['/xmlrpc.php'],
      ['/private/probe.html', '/private/probe.php'],
      ['/a0.txt'],
    ]);
  });

  it('orders guides by their Prerequisites sections only', () => {
    const g = (slug: string, body: string) => ({
      slug,
      file: slug + '.md',
      type: 'tutorial',
      front: {},
      text: body,
      bodyLine: 1,
      body,
    });
    const order = guidesBefore([
      g('a', '## Prerequisites\n- [b](/guides/b)\n## Next steps\n[c](/guides/c)\n'),
      g('b', '## Prerequisites\n[c](/guides/c)\n'),
      g('c', 'Intro [a](/guides/a)\n'),
    ]);
    expect(Object.fromEntries(order)).toEqual({ a: ['b', 'c'], b: ['c'], c: [] });
  });

  it('reads the users a guide says to connect as with -u, not one it says does not work', () => {
    const g = (text: string) => ({
      slug: 'x',
      file: 'x.md',
      type: 'tutorial',
      front: {},
      text,
      bodyLine: 1,
      body: text,
    });
    expect(commandUsers(g('Run the first time with `-u root`, then switch.\n'))).toEqual([{ user: 'root', line: 1 }]);
    expect(commandUsers(g('`-u root` does not work here: the inventory wins.\n'))).toEqual([]);
    expect(commandUsers(g('```bash\nansible-playbook base.yml -u root # first run\nssh -u x\n```\n'))).toEqual([
      { user: 'root', line: 2 },
    ]);
  });
});
