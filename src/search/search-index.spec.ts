import { MAX_QUERY_LENGTH, SearchIndex } from './search-index';

interface Doc {
  slug: string;
  title: string;
  body: string;
}

describe(SearchIndex.name, () => {
  const docs: Doc[] = [
    { slug: 'vpn', title: 'WireGuard tunnel', body: 'Set up a private network between servers.' },
    { slug: 'backup', title: 'Nightly backups', body: 'Copy snapshots offsite; a wireguard link is optional.' },
    { slug: 'docker', title: 'Docker basics', body: 'Containers, images and volumes on a small server.' },
  ];
  const fields = { title: { text: (d: Doc) => d.title, boost: 3 }, body: { text: (d: Doc) => d.body, boost: 1 } };
  let index: SearchIndex<Doc>;
  beforeAll(() => {
    index = new SearchIndex(docs, { id: (d) => d.slug, fields });
  });
  const ids = (
    query: string,
    ...rest: Parameters<SearchIndex<Doc>['search']> extends [string, ...infer R] ? R : never
  ) => index.search(query, ...rest).map((h) => h.id);

  it('ranks a match in the boosted field above a match in the body, and reports the matched terms', () => {
    const hits = index.search('wireguard');
    expect(hits.map((h) => h.id)).toEqual(['vpn', 'backup']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(hits[0].terms).toEqual(['wireguard']);
  });

  it("multiplies a field's score by its boost", () => {
    // Mirror documents: each term once in a title and once in a body, so only the boost tells them apart.
    const mirror = new SearchIndex(
      [
        { slug: 'in-title', title: 'zebra', body: 'horse' },
        { slug: 'in-body', title: 'horse', body: 'zebra' },
      ],
      { id: (d) => d.slug, fields },
    );
    const [first, second] = mirror.search('zebra');
    expect([first.id, second.id]).toEqual(['in-title', 'in-body']);
    expect(first.score / second.score).toBeCloseTo(3, 5);
  });

  it('finds a document by either of two terms', () => {
    expect(ids('docker snapshots').sort()).toEqual(['backup', 'docker']);
  });

  it('matches prefixes of three characters or more, not shorter', () => {
    expect(ids('wir')).toEqual(['vpn', 'backup']);
    expect(ids('wi')).toEqual([]);
  });

  it('tolerates a typo in a term of five characters or more, not in a shorter one', () => {
    expect(ids('wiregard')).toEqual(['vpn', 'backup']);
    expect(ids('dockr')).toEqual(['docker']);
    expect(ids('imagez')).toEqual(['docker']);
    // One letter off "link" would match with tolerance; four letters are too few to guess from.
    expect(ids('lonk')).toEqual([]);
  });

  it('lets a caller turn typo tolerance off', () => {
    expect(ids('wiregard', undefined, { fuzzy: 0 })).toEqual([]);
  });

  it('keeps only the documents the filter accepts', () => {
    expect(ids('wireguard', (id) => id !== 'vpn')).toEqual(['backup']);
  });

  it(`reads only the first ${MAX_QUERY_LENGTH} characters of a query`, () => {
    const padding = ' '.repeat(MAX_QUERY_LENGTH - 'docker'.length - 1);
    expect(ids(`docker${padding} volumes`)).toEqual(['docker']);
    expect(ids(`${' '.repeat(MAX_QUERY_LENGTH)}docker`)).toEqual([]);
    expect(ids(`${' '.repeat(MAX_QUERY_LENGTH - 'docker'.length)}docker`)).toEqual(['docker']);
  });
});
