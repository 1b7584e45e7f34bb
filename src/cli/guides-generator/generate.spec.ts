import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateGuides } from './generate';

describe('generateGuides', () => {
  it('reproduces every committed generated guide byte for byte (run npm run guides:generate after a data change)', async () => {
    const files = await generateGuides(resolve('data'));
    expect(files.size).toBeGreaterThanOrEqual(8 + 8 + 28 + 20);
    const stale: string[] = [];
    for (const [name, content] of files) {
      const committed = await readFile(join('data', 'guides', name), 'utf8').catch(() => '');
      if (committed !== content) stale.push(name);
    }
    expect(stale).toEqual([]);
  });

  it('is deterministic', async () => {
    const [a, b] = await Promise.all([generateGuides(resolve('data')), generateGuides(resolve('data'))]);
    expect([...a.entries()]).toEqual([...b.entries()]);
  });

  it("puts the data's prices in the prose, so a price change shows up in the guides", async () => {
    const files = await generateGuides(resolve('data'));
    const providers = JSON.parse(await readFile('data/providers.json', 'utf8')).providers;
    for (const p of providers) {
      const review = files.get(`${p.id}-review.md`)!;
      const discontinued = new Set(
        p.planLines.filter((l: { discontinued?: unknown }) => l.discontinued).map((l: { id: string }) => l.id),
      );
      // Every plan is in the table; one of a line no longer sold says so.
      for (const plan of p.plans)
        expect(review).toContain(discontinued.has(plan.line) ? `| ${plan.name} (discontinued) |` : `| ${plan.name} |`);
      expect(review).toContain(`${plan0(p).price.toFixed(2)} ${p.currency}`);
    }
  });

  it('marks every stale price it quotes with the day it was seen, and never picks a discontinued plan', async () => {
    const files = await generateGuides(resolve('data'));
    const providers = JSON.parse(await readFile('data/providers.json', 'utf8')).providers;
    const underTen = files.get('best-vps-under-10-dollars.md')!;
    const rows = underTen.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(rows.length).toBeGreaterThan(0);
    const staleRows = rows.filter((l) => l.includes('(stale: seen '));
    // Fresh rows come first: once a stale row appears, no fresh one follows.
    expect(rows.slice(rows.findIndex((l) => l.includes('(stale: seen ')))).toEqual(
      staleRows.length > 0 ? staleRows : rows.slice(rows.length),
    );
    for (const p of providers) {
      for (const line of p.planLines.filter((l: { discontinued?: unknown }) => l.discontinued)) {
        for (const plan of p.plans.filter((x: { line: string }) => x.line === line.id)) {
          for (const [name, content] of files) {
            if (name === `${p.id}-review.md`) continue;
            const picked = new RegExp(`(?<![\\w-])${plan.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at `);
            expect([name, plan.name, picked.test(content)]).toEqual([name, plan.name, false]);
          }
        }
      }
    }
  });
});

const plan0 = (p: { plans: { price: number }[] }) => p.plans.reduce((a, b) => (b.price < a.price ? b : a));
