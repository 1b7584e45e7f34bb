import { rawAuthors, rawGuides, rawMeta, rawProviders, rawUseCases } from './support/raw-data';

/** The rules the guide corpus is held to, checked on the files themselves. */
describe('guide corpus', () => {
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  const ids = rawProviders.providers.map((p: any) => p.id);

  it('holds at least 200 guides', () => {
    expect(rawGuides.length).toBeGreaterThanOrEqual(200);
  });

  it('gives every guide at least 300 words of body', () => {
    const short = rawGuides.filter((g) => words(g.body).length < 300).map((g) => `${g.slug}: ${words(g.body).length}`);
    expect(short).toEqual([]);
  });

  it('has a review and an alternatives guide per provider, a comparison per pair and a workload guide per use case', () => {
    const slugsOf = (type: string) => new Set(rawGuides.filter((g) => g.type === type).map((g) => g.slug));
    expect([...slugsOf('review')].sort()).toEqual(ids.map((id: string) => `${id}-review`).sort());
    expect([...slugsOf('alternatives')].sort()).toEqual(ids.map((id: string) => `${id}-alternatives`).sort());
    const comparisons = [...slugsOf('comparison')].map((s) => s.split('-vs-').sort().join('|'));
    for (const [i, a] of ids.entries())
      for (const b of ids.slice(i + 1)) expect(comparisons).toContain([a, b].sort().join('|'));
    expect(comparisons.filter((c) => c.split('|').length > 2).length).toBeGreaterThanOrEqual(3);
    const workloads = slugsOf('workload');
    for (const u of rawUseCases.useCases) expect(workloads).toContain(`best-vps-for-${u.slug}`);
    expect(slugsOf('best-of').size).toBeGreaterThanOrEqual(15);
    expect(slugsOf('tutorial').size).toBeGreaterThanOrEqual(40);
  });

  it('dates every guide realistically: real days, none after the dataset version, spread over its life', () => {
    const dates = rawGuides.map((g) => g.published as string);
    for (const d of dates) {
      expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d <= rawMeta.version).toBe(true);
      expect(d >= '2024-01-01').toBe(true);
    }
    const months = new Set(dates.map((d) => d.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(18);
  });

  it('credits every guide to a known author, and every author writes', () => {
    const authors = new Set(rawAuthors.authors.map((a: any) => a.id));
    for (const g of rawGuides) expect(authors).toContain(g.author);
    for (const a of authors) expect(rawGuides.some((g) => g.author === a)).toBe(true);
  });

  it('gives every guide several distinct keywords', () => {
    for (const g of rawGuides) {
      expect(g.keywords.length).toBeGreaterThanOrEqual(3);
      expect(new Set(g.keywords.map((k: string) => k.toLowerCase())).size).toBe(g.keywords.length);
    }
  });

  it('has no two guides sharing more than half of their word 5-grams', () => {
    const grams = rawGuides.map((g) => {
      const w = words(g.body);
      const set = new Set<string>();
      for (let i = 0; i + 5 <= w.length; i++) set.add(w.slice(i, i + 5).join(' '));
      return { slug: g.slug, set };
    });
    const offenders: string[] = [];
    let worst = 0;
    for (let i = 0; i < grams.length; i++) {
      for (let j = i + 1; j < grams.length; j++) {
        const [small, large] = grams[i].set.size <= grams[j].set.size ? [grams[i], grams[j]] : [grams[j], grams[i]];
        let shared = 0;
        for (const g of small.set) if (large.set.has(g)) shared++;
        const ratio = shared / Math.max(1, small.set.size);
        worst = Math.max(worst, ratio);
        if (ratio > 0.5) offenders.push(`${grams[i].slug} ~ ${grams[j].slug}: ${(ratio * 100).toFixed(0)}%`);
      }
    }
    expect(offenders).toEqual([]);
    expect(worst).toBeLessThanOrEqual(0.5);
  });
});
