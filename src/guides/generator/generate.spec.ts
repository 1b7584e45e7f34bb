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

  it('puts the data\'s prices in the prose, so a price change shows up in the guides', async () => {
    const files = await generateGuides(resolve('data'));
    const providers = JSON.parse(await readFile('data/providers.json', 'utf8')).providers;
    for (const p of providers) {
      const review = files.get(`${p.id}-review.md`)!;
      for (const plan of p.plans) expect(review).toContain(`| ${plan.name} |`);
      expect(review).toContain(`${plan0(p).price.toFixed(2)} ${p.currency}`);
    }
  });
});

const plan0 = (p: { plans: { price: number }[] }) => p.plans.reduce((a, b) => (b.price < a.price ? b : a));
