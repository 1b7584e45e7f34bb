import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { InvalidDatasetError } from '../src/dataset/dataset-loader';
import { releaseDataset, ReleaseRefusedError } from '../src/cli/releases/release-dataset';
import { run } from './support/processes';
import { DATA_DIR, rawGuides, rawMeta, rawProviders } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

const NEXT = '2026-12-01';
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
const writeJson = (path: string, value: unknown) => writeFile(path, `${JSON.stringify(value, null, 2)}\n`);

async function copyData(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vpsapi-release-'));
  await cp(DATA_DIR, dir, { recursive: true });
  return dir;
}

/**
 * The edits of a release, made on a copy of the embedded dataset: a new version, one plan repriced,
 * one plan removed, one provider fact changed, one guide added and one re-dated. Returns what the
 * changelog entry must say, written from the edits themselves.
 */
async function editForNextRelease(dir: string) {
  const meta = await readJson(join(dir, 'meta.json'));
  meta.version = NEXT;
  await writeJson(join(dir, 'meta.json'), meta);

  const data = await readJson(join(dir, 'providers.json'));
  const hetzner = data.providers.find((p: any) => p.id === 'hetzner');
  const repriced = hetzner.plans[1];
  const oldPrice = repriced.price;
  repriced.price = Math.round((oldPrice + 1.25) * 100) / 100;
  // A plan that is not its provider's cheapest and shares its line with another plan, so the dataset stays valid.
  const vultr = data.providers.find((p: any) => p.id === 'vultr');
  const cheapest = Math.min(...vultr.plans.map((p: any) => p.price));
  const removedIndex = vultr.plans.findIndex(
    (p: any) => p.price !== cheapest && vultr.plans.filter((q: any) => q.line === p.line).length > 1,
  );
  const [removed] = vultr.plans.splice(removedIndex, 1);
  const contabo = data.providers.find((p: any) => p.id === 'contabo');
  const oldSupport = contabo.support;
  contabo.support = 'Tickets around the clock; phone on weekdays (test edit).';
  await writeJson(join(dir, 'providers.json'), data);

  const newGuide = { slug: 'release-test-guide', title: 'A guide added in a release', published: '2026-11-30' };
  await writeFile(
    join(dir, 'guides', `${newGuide.slug}.md`),
    `---\nslug: ${newGuide.slug}\ntitle: "${newGuide.title}"\ndescription: "A guide the release test adds."\ntype: tutorial\nkeywords: [test]\npublished: "${newGuide.published}"\nauthor: marcus-okafor\nsystems: [debian-13]\n---\n${'Words to read. '.repeat(120)}\n`,
  );
  const swap = rawGuides.find((g) => g.slug === 'swap-file')!;
  const swapFile = join(dir, 'guides', 'swap-file.md');
  await writeFile(
    swapFile,
    (await readFile(swapFile, 'utf8')).replace(/^published: .*$/m, (line) => `${line}\nupdated: "2026-11-29"`),
  );

  return {
    version: NEXT,
    date: NEXT,
    summary: '1 plan removed, 1 plan repriced, 1 provider fact changed, 1 guide added, 1 guide updated',
    changes: {
      providersAdded: [],
      providersRemoved: [],
      plansAdded: [],
      // Matched by the provider's id of the size where the plan has one.
      plansRemoved: [
        {
          providerId: 'vultr',
          planName: removed.name,
          providerPlanId: removed.providerPlanId,
          price: removed.price,
          currency: removed.currency,
        },
      ],
      plansRepriced: [
        {
          providerId: 'hetzner',
          planName: repriced.name,
          oldPrice,
          newPrice: repriced.price,
          oldCurrency: 'EUR',
          currency: 'EUR',
        },
      ],
      providerFacts: [{ providerId: 'contabo', field: 'support', oldValue: oldSupport, newValue: contabo.support }],
      guidesAdded: [{ slug: newGuide.slug, title: newGuide.title, date: newGuide.published }],
      guidesUpdated: [{ slug: 'swap-file', title: swap.title, date: '2026-11-29' }],
    },
  };
}

describe('releasing the dataset (npm run data:release)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await copyData();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('records the first release of the embedded dataset as initial, every plan and guide of it added, and the served version as the last', async () => {
    const changelog = await readJson(join(DATA_DIR, 'changelog.json'));
    const [first] = changelog.releases;
    expect(first).toMatchObject({ summary: 'initial release' });
    const firstProviders = await readJson(join(DATA_DIR, 'releases', first.version, 'providers.json'));
    const plans = firstProviders.providers.flatMap((p: any) =>
      p.plans.map((plan: any) => ({
        providerId: p.id,
        planName: plan.name,
        price: plan.price,
        currency: plan.currency,
      })),
    );
    expect(first.changes.plansAdded).toEqual(plans);
    expect(first.changes.guidesAdded).toHaveLength(
      (await readJson(join(DATA_DIR, 'releases', first.version, 'guides.json'))).guides.length,
    );
    expect(changelog.releases.at(-1).version).toBe(rawMeta.version);
    expect(await readJson(join(DATA_DIR, 'releases', rawMeta.version, 'providers.json'))).toEqual(rawProviders);
    expect(rawGuides.length).toBeGreaterThan(0);
  });

  it('makes an initial release of a dataset that has never been released', async () => {
    await rm(join(dir, 'changelog.json'));
    await rm(join(dir, 'releases'), { recursive: true });
    const release = await releaseDataset(dir, { date: '2026-11-27' });
    expect(release).toMatchObject({ version: rawMeta.version, date: '2026-11-27', summary: 'initial release' });
    expect(release.changes.plansAdded).toHaveLength(
      rawProviders.providers.reduce((n: number, p: any) => n + p.plans.length, 0),
    );
    expect(release.changes.providersAdded).toEqual(rawProviders.providers.map((p: any) => p.id));
    expect((await readJson(join(dir, 'changelog.json'))).releases).toEqual([release]);
  });

  it('appends exactly what changed since the last release, and keeps a snapshot of the new one', async () => {
    const expected = await editForNextRelease(dir);
    const before = await readJson(join(dir, 'changelog.json'));
    const release = await releaseDataset(dir, { date: NEXT });
    expect(release).toEqual(expected);
    expect(await readJson(join(dir, 'changelog.json'))).toEqual({ releases: [...before.releases, expected] });
    const snapshot = join(dir, 'releases', NEXT);
    expect((await readdir(snapshot)).sort()).toEqual([
      'authors.json',
      'exchange-rates.json',
      'guides.json',
      'meta.json',
      'providers.json',
      'use-cases.json',
    ]);
    expect(await readJson(join(snapshot, 'providers.json'))).toEqual(await readJson(join(dir, 'providers.json')));
    expect((await readJson(join(snapshot, 'guides.json'))).guides).toContainEqual({
      slug: 'swap-file',
      title: expected.changes.guidesUpdated[0].title,
      published: '2025-01-07',
      updated: '2026-11-29',
    });
  });

  it('refuses a version that is already released, and an invalid dataset, writing nothing', async () => {
    const before = await readFile(join(dir, 'changelog.json'), 'utf8');
    const releasedBefore = await readdir(join(dir, 'releases'));
    await expect(releaseDataset(dir, { date: NEXT })).rejects.toThrow(ReleaseRefusedError);
    await editForNextRelease(dir);
    const data = await readJson(join(dir, 'providers.json'));
    data.providers[0].plans[0].price = 'cheap';
    await writeJson(join(dir, 'providers.json'), data);
    await expect(releaseDataset(dir, { date: NEXT })).rejects.toThrow(InvalidDatasetError);
    expect(await readFile(join(dir, 'changelog.json'), 'utf8')).toBe(before);
    expect(await readdir(join(dir, 'releases'))).toEqual(releasedBefore);
  });

  it('runs as a command that says what it released or why it refused', async () => {
    const refused = await run('node', ['dist/cli/releases/release-cli.js', dir, '--date', NEXT]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Not released: meta.json version ${rawMeta.version} is already released`);
    await editForNextRelease(dir);
    const ok = await run('node', ['dist/cli/releases/release-cli.js', dir, '--date', NEXT]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`released ${NEXT} (${NEXT}): 1 plan removed, 1 plan repriced`);
  });

  describe('served after a release', () => {
    let t: TestApp;
    let served: string;
    let expected: Awaited<ReturnType<typeof editForNextRelease>>;
    let previous: any[];
    /** A plan's price at each release that added or repriced it, from a changelog, oldest first. */
    const historyOf = (releases: any[], providerId: string, planName: string) =>
      releases.flatMap((r: any) =>
        [...r.changes.plansAdded.map((x: any) => ({ ...x, newPrice: x.price })), ...r.changes.plansRepriced]
          .filter((x: any) => x.providerId === providerId && x.planName === planName)
          .map((x: any) => ({ version: r.version, price: x.newPrice })),
      );
    beforeAll(async () => {
      previous = (await readJson(join(DATA_DIR, 'changelog.json'))).releases;
      served = await copyData();
      expected = await editForNextRelease(served);
      await releaseDataset(served, { date: NEXT });
      t = await startTestApp({ DATA_DIR: served, RATE_LIMIT_REQUESTS: '100000' });
    });
    afterAll(async () => {
      await t.close();
      await rm(served, { recursive: true, force: true });
    });

    it('lists the releases newest first in changes.json', async () => {
      const { body } = await t.http.get('/api/changes.json').expect(200);
      expect(body).toMatchObject({ version: NEXT, count: previous.length + 1, feed: `${TEST_BASE_URL}/changes.atom` });
      expect(body.releases.map((r: any) => r.version)).toEqual([
        NEXT,
        ...previous.map((r: any) => r.version).reverse(),
      ]);
      expect(body.releases[0]).toEqual(expected);
    });

    it('gives each plan its price history from the changelog, in plans.json and plans.csv', async () => {
      const [json, csv] = await Promise.all([t.http.get('/api/plans.json'), t.http.get('/api/plans.csv')]);
      const repricing = expected.changes.plansRepriced[0];
      const row = json.body.plans.find((r: any) => r.providerId === 'hetzner' && r.planName === repricing.planName);
      const before = historyOf(previous, 'hetzner', repricing.planName);
      expect(before.at(-1)).toEqual({ version: expect.any(String), price: repricing.oldPrice });
      expect(row.priceHistory).toEqual([...before, { version: NEXT, price: repricing.newPrice }]);
      const unchanged = json.body.plans.find((r: any) => r.providerId === 'upcloud');
      expect(unchanged.priceHistory).toEqual(historyOf(previous, 'upcloud', unchanged.planName));
      expect(unchanged.priceHistory.at(-1).price).toBe(unchanged.price);
      expect(
        json.body.plans.find(
          (r: any) => r.planName === expected.changes.plansRemoved[0].planName && r.providerId === 'vultr',
        ),
      ).toBeUndefined();
      const csvRow = parseCsv(csv.text, { columns: true }).find(
        (r: any) => r.providerId === 'hetzner' && r.planName === repricing.planName,
      );
      expect(csvRow.priceHistory).toBe(
        [...before, { version: NEXT, price: repricing.newPrice }].map((p) => `${p.version} ${p.price}`).join('; '),
      );
    });

    it('publishes the same releases as a valid Atom feed', async () => {
      const res = await t.http
        .get('/changes.atom')
        .expect(200)
        .expect('Content-Type', 'application/atom+xml; charset=utf-8');
      expect(XMLValidator.validate(res.text)).toBe(true);
      const { feed } = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(res.text);
      // Atom (RFC 4287): the namespace, and id, title and updated on the feed and on every entry.
      expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
      const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
      expect(feed.id).toBe(`${TEST_BASE_URL}/changes.atom`);
      expect(feed.title).toBeTruthy();
      expect(feed.updated).toMatch(rfc3339);
      expect(new Date(feed.updated).toISOString().slice(0, 10)).toBe(NEXT);
      const links = [feed.link].flat();
      expect(links).toContainEqual(
        expect.objectContaining({ '@rel': 'self', '@href': `${TEST_BASE_URL}/changes.atom` }),
      );
      const entries = [feed.entry].flat();
      expect(entries).toHaveLength(previous.length + 1);
      for (const entry of entries) {
        expect(entry.id).toBeTruthy();
        expect(entry.updated).toMatch(rfc3339);
        expect(entry.title).toBeTruthy();
        expect([entry.link].flat()[0]['@href']).toMatch(/^https:\/\//);
      }
      /** Text of an element that may carry attributes (`type="html"`). */
      const text = (el: any): string => (typeof el === 'string' ? el : el['#text']);
      expect(text(entries[0].title)).toBe(`Dataset ${NEXT}: ${expected.summary}`);
      const content = text(entries[0].content);
      const r = expected.changes.plansRepriced[0];
      expect(content).toContain(`hetzner ${r.planName}: ${r.oldPrice.toFixed(2)} EUR → ${r.newPrice.toFixed(2)} EUR`);
      expect(new Set(entries.map((e: any) => e.id)).size).toBe(previous.length + 1);
    });
  });
});
