import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGuide, tutorials } from './support/tutorials/code-blocks.js';
import { dayTwoFindings, readRequirements } from './support/tutorials/day-two.js';

/*
 * Day-two steps (issue #28 §1 and §4): a unit the guide starts is enabled, so a reboot brings it back;
 * certbot behind HAProxy renews through HAProxy; a Minecraft server gets the Java its release needs; a
 * ufw rule is not added below another for the same port, where it would never apply.
 * The fixtures are the tutorials as they were before the fix (at commit 845ef12), with the block tags
 * of today's convention added where a rule reads a file (the unit, the HAProxy configuration); each must
 * be caught.
 */
const FIXTURES = join(__dirname, 'fixtures', 'tutorial-day-two');
const show = (f: { guide: string; rule: string; detail: string }) => `${f.guide} [${f.rule}] ${f.detail}`;

describe('day-two steps of the tutorials', () => {
  const requirements = readRequirements();

  it('finds no gap in any tutorial', () => {
    expect(tutorials().flatMap((g) => dayTwoFindings(g, requirements)).map(show)).toEqual([]);
  });

  it.each([
    ['zero-downtime-deploys.md', 'unit-never-enabled', /api@\.service is started but never enabled/],
    ['haproxy-load-balancing.md', 'acme-behind-haproxy', /sends no \/\.well-known\/acme-challenge\//],
    ['minecraft-server-setup.md', 'java-for-minecraft', /installs Java 21, but Minecraft 26\.1 \(the newest release listed\) needs Java 25/],
    ['ufw-firewall-basics.md', 'ufw-rule-shadowed', /"ufw limit 22\/tcp" is added below "ufw allow openssh"/],
  ])('catches the gap %s had before its fix (%s)', (file, rule, detail) => {
    const findings = dayTwoFindings(readGuide(join(FIXTURES, file)), requirements);
    expect(findings.map((f) => f.rule)).toContain(rule);
    expect(findings.map(show).join('\n')).toMatch(detail);
  });

  it("reads today's tutorials too: each fixed guide is caught again when its fix is taken out", () => {
    const dir = mkdtempSync(join(tmpdir(), 'day-two-'));
    try {
      const without = (slug: string, drop: RegExp) => {
        const file = join(dir, `${slug}.md`);
        const text = readFileSync(join('data', 'guides', `${slug}.md`), 'utf8');
        const broken = text.split('\n').filter((line) => !drop.test(line)).join('\n');
        expect(broken).not.toBe(text);
        writeFileSync(file, broken);
        return dayTwoFindings(readGuide(file), requirements).map((f) => f.rule);
      };
      expect(without('zero-downtime-deploys', /systemctl (enable|disable)/)).toContain('unit-never-enabled');
      expect(without('haproxy-load-balancing', /acme/)).toContain('acme-behind-haproxy');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has a fixture for every rule, and reads the requirement from the data', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(['haproxy-load-balancing.md', 'minecraft-server-setup.md', 'ufw-firewall-basics.md', 'zero-downtime-deploys.md']);
    expect(requirements.find((r) => r.product === 'minecraft')?.releases.length).toBeGreaterThan(0);
  });
});
