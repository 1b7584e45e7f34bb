import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateGuides } from './generate';

/*
 * A generated guide's `updated` moves with the sources of the figures it quotes and with nothing else:
 * on a copy of the dataset whose sources were all read on one early day, reading one provider's pages
 * again moves the guides about that provider, and leaves the guides about others where they were.
 */
describe('the date of a generated guide', () => {
  let dir: string;
  // Both after every guide's publication (editorial dates are not after 2026-02-06), so the figures decide.
  const EARLY = '2026-03-01';
  const LATER = '2026-06-01';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guide-dates-'));
    await cp(resolve('data'), dir, { recursive: true, filter: (src) => !src.includes(`${join('data', 'releases')}`) });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Every source of every provider (record, lines, add-ons, tax) and the rates read on EARLY, then `edit`; the guides generated from that. */
  async function generateWith(edit: (providers: any[], rates: any) => void): Promise<Map<string, string>> {
    const providers = JSON.parse(await readFile(resolve('data', 'providers.json'), 'utf8'));
    const rates = JSON.parse(await readFile(resolve('data', 'exchange-rates.json'), 'utf8'));
    const redate = (value: any): void => {
      if (Array.isArray(value)) value.forEach(redate);
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) k === 'retrievedAt' ? (value[k] = EARLY) : redate(v);
    };
    redate(providers.providers);
    rates.date = EARLY;
    for (const code of Object.keys(rates.rateDates)) rates.rateDates[code] = EARLY;
    edit(providers.providers, rates);
    await writeFile(join(dir, 'providers.json'), JSON.stringify(providers));
    await writeFile(join(dir, 'exchange-rates.json'), JSON.stringify(rates));
    return generateGuides(dir);
  }
  const updated = (files: Map<string, string>, slug: string) => /^updated: "(.*)"$/m.exec(files.get(`${slug}.md`)!)![1];
  const published = (files: Map<string, string>, slug: string) =>
    /^published: "(.*)"$/m.exec(files.get(`${slug}.md`)!)![1];

  it("moves a comparison of A and B when A's prices are read again, and not when only C's are", async () => {
    // DigitalOcean and Linode bill in USD, so the rates date neither; Hetzner is the third provider.
    const base = await generateWith(() => {});
    const movedA = await generateWith(
      (ps) => (ps.find((p) => p.id === 'digitalocean').planLines[0].source.retrievedAt = LATER),
    );
    const movedC = await generateWith(
      (ps) => (ps.find((p) => p.id === 'hetzner').planLines[0].source.retrievedAt = LATER),
    );
    expect(updated(base, 'digitalocean-vs-linode')).toBe(EARLY);
    expect(updated(movedA, 'digitalocean-vs-linode')).toBe(LATER);
    expect(updated(movedC, 'digitalocean-vs-linode')).toBe(updated(base, 'digitalocean-vs-linode'));
    // The reviews follow their own provider only.
    expect(updated(movedA, 'digitalocean-review')).toBe(LATER);
    expect(updated(movedA, 'linode-review')).toBe(updated(base, 'linode-review'));
    expect(updated(movedC, 'hetzner-review')).toBe(LATER);
  });

  it("moves a review with its provider's support page, not with an add-on page that no guide quotes", async () => {
    const base = await generateWith(() => {});
    const support = await generateWith(
      (ps) =>
        (ps.find((p) => p.id === 'hetzner').sources.find((s: any) => s.url.includes('support')).retrievedAt = LATER),
    );
    const addOn = await generateWith((ps) => {
      const hetzner = ps.find((p) => p.id === 'hetzner');
      hetzner.addOns.backups.source.retrievedAt = LATER;
      for (const s of hetzner.sources) if (s.url === hetzner.addOns.backups.source.url) s.retrievedAt = LATER;
    });
    expect(updated(support, 'hetzner-review')).toBe(LATER);
    expect(updated(addOn, 'hetzner-review')).toBe(updated(base, 'hetzner-review'));
  });

  it('moves a guide that converts a price with the exchange rates, and one that converts nothing not', async () => {
    const base = await generateWith(() => {});
    // Guides compare in US dollars: the dollar's rate dates them, a rate they do not use does not.
    const rates = await generateWith((_, r) => (r.rateDates.USD = LATER));
    expect(updated(rates, 'hetzner-review')).toBe(LATER);
    const other = await generateWith((_, r) => (r.rateDates.AUD = LATER));
    expect(updated(other, 'hetzner-review')).toBe(updated(base, 'hetzner-review'));
    expect(updated(rates, 'digitalocean-vs-linode')).toBe(updated(base, 'digitalocean-vs-linode'));
    // A list ranked on ratings quotes no dated figure: it keeps its publication date.
    expect(updated(rates, 'best-vps-performance')).toBe(published(rates, 'best-vps-performance'));
  });
});
