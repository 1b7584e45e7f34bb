import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { expectedPlanRows } from './support/independent-figures';
import { DATA_DIR, rawGuides, rawProviders, rawUseCases } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

describe('pages and markdown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
  });
  afterAll(() => t.close());

  it('resolves every url and markdownUrl the API hands out', async () => {
    const [guides, providers, useCases] = await Promise.all([
      t.http.get('/api/guides.json'),
      t.http.get('/api/providers.json'),
      t.http.get('/api/use-cases.json'),
    ]);
    const path = (url: string) => url.replace(TEST_BASE_URL, '');
    for (const g of guides.body.guides) {
      const page = await t.http.get(path(g.url));
      expect([g.slug, page.status, page.headers['content-type']]).toEqual([g.slug, 200, 'text/html; charset=utf-8']);
      const md = await t.http.get(path(g.markdownUrl));
      expect([g.slug, md.status, md.headers['content-type']]).toEqual([g.slug, 200, 'text/markdown; charset=utf-8']);
      expect(md.text.startsWith(`# ${g.title}\n\n`)).toBe(true);
    }
    for (const p of providers.body.providers)
      expect([p.id, (await t.http.get(path(p.url))).status]).toEqual([p.id, 200]);
    for (const u of useCases.body.useCases)
      expect([u.slug, (await t.http.get(path(u.url))).status]).toEqual([u.slug, 200]);
  });

  it('serves a guide page with its title, meta, canonical and alternate links, and Article data', async () => {
    const guide = rawGuides.find((g) => g.slug === 'restic-backups')!;
    const res = await t.http.get('/guides/restic-backups').expect(200);
    expect(res.text).toContain(`<h1>${guide.title}</h1>`);
    expect(res.text).toContain(`<link rel="canonical" href="${TEST_BASE_URL}/guides/restic-backups">`);
    expect(res.text).toContain('<link rel="alternate" type="text/markdown" href="/guides/restic-backups.md">');
    expect(res.headers.link).toBe(`<${TEST_BASE_URL}/guides/restic-backups.md>; rel="alternate"; type="text/markdown"`);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(res.text)![1]);
    expect(ld).toMatchObject({ '@type': 'Article', headline: guide.title, datePublished: guide.published });
  });

  it("names a tutorial's systems and the Debian release checked in place of an Ubuntu one; other guides name none", async () => {
    const tutorial = await t.http.get('/guides/borgmatic-backups').expect(200);
    expect(tutorial.text).toContain(
      'For Debian 13, Ubuntu 24.04; checked with the tools of Debian 13 (Debian 13 in place of Ubuntu 24.04)',
    );
    const both = await t.http.get('/guides/create-sudo-user').expect(200);
    expect(both.text).toContain(
      'For Debian 12, Ubuntu 24.04; checked with the tools of Debian 12 and Debian 13 (Debian 13 in place of Ubuntu 24.04)',
    );
    const review = await t.http.get('/guides/hetzner-review').expect(200);
    expect(review.text).not.toContain('checked with the tools of');
  });

  it('prints the versions a tutorial was verified with, and apart from them those it was only written for', async () => {
    const page = await t.http.get('/guides/postgresql-on-a-vps').expect(200);
    expect(page.text).toContain(
      '<br>Verified with postgresql 17; debian 12, 13<br>Written for postgresql 16 (not checked here)',
    );
    const md = await t.http.get('/guides/postgresql-on-a-vps.md').expect(200);
    expect(md.text).toMatch(
      /^# .+\n\n\*Verified with postgresql 17; debian 12, 13\. Written for postgresql 16 \(not checked here\)\.\*\n\n/,
    );
    // A tutorial every version of which a check ran has no "written for".
    const checked = await t.http.get('/guides/create-sudo-user').expect(200);
    expect(checked.text).toContain('<br>Verified with openssh 9.2, 10.0; debian 12, 13');
    expect(checked.text).not.toContain('Written for');
    const review = await t.http.get('/guides/hetzner-review.md').expect(200);
    expect(review.text).not.toContain('Verified with');
  });

  it("shows a provider's verdict, pros and cons and every plan as table rows, with Product and Review data", async () => {
    const p = rawProviders.providers.find((x: any) => x.id === 'linode');
    const res = await t.http.get('/providers/linode').expect(200);
    expect(res.text).toContain('<table>');
    for (const plan of p.plans) expect(res.text).toMatch(new RegExp(`<td>${plan.name}</td>`));
    for (const pro of p.pros)
      expect(res.text).toContain(pro.replace(/&/g, '&amp;').replace(/'/g, '&#39;').slice(0, 30));
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(res.text)![1]);
    expect(ld).toMatchObject({
      '@type': 'Product',
      review: { '@type': 'Review', reviewRating: { ratingValue: p.rating, bestRating: 5 } },
    });
  });

  it('links every URL of a provider page, other sites with rel="noopener" and its own pages without', async () => {
    const attr = (url: string) => url.replace(/&/g, '&amp;');
    for (const p of rawProviders.providers) {
      const res = await t.http.get(`/providers/${p.id}`).expect(200);
      const urls = [
        p.website,
        p.affiliateUrl,
        p.statusPageUrl,
        ...p.sources.map((s: any) => s.url),
        ...p.planLines.map((l: any) => l.source.url),
      ];
      for (const url of urls)
        expect([p.id, res.text.includes(`<a href="${attr(url)}" rel="noopener">${attr(url)}</a>`)]).toEqual([
          p.id,
          true,
        ]);
      expect(res.text).toContain('<a href="/plans">');
      expect(res.text).not.toMatch(/<a href="\/[^"]*" rel=/);
    }
  });

  it('puts a table that may be wider than a phone in a labelled, focusable region with a hint that it scrolls', async () => {
    const res = await t.http.get('/').expect(200);
    const region =
      /<p class="scroll-hint compact" id="(table-hint-\d+)">([^<]*)<\/p>\n<div class="table-wrap" role="region" tabindex="0" aria-label="([^"]*)" aria-describedby="([^"]*)"><table>/.exec(
        res.text,
      );
    expect(region).not.toBeNull();
    const [, id, hint, label, describedBy] = region!;
    expect([hint, label, describedBy]).toEqual([
      'If the table is cut off, scroll it sideways.',
      'Providers (table, scrolls sideways)',
      id,
    ]);
    // A narrow table (two columns) stays a plain scrolling box: no hint that would be untrue.
    const provider = await t.http.get('/providers/hetzner').expect(200);
    expect(provider.text).toContain('<div class="table-wrap"><table>\n<thead>\n<tr>\n<th>Area</th>');
  });

  it('shows a use case with its specs and each recommended provider', async () => {
    const u = rawUseCases.useCases[0];
    const res = await t.http.get(`/use-cases/${u.slug}`).expect(200);
    expect(res.text).toContain(`<h1>${u.title}</h1>`);
    for (const r of u.recommendedProviders) expect(res.text).toContain(`href="/providers/${r.id}"`);
  });

  describe('content negotiation', () => {
    it.each(['/', '/guides', '/guides/swap-file', '/providers/hetzner', '/use-cases/vpn', '/plans', '/plans/by-ram'])(
      'answers %s in markdown for Accept: text/markdown',
      async (path) => {
        const [htmlRes, mdRes] = await Promise.all([t.http.get(path), t.http.get(path).set('Accept', 'text/markdown')]);
        expect(htmlRes.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(mdRes.headers['content-type']).toBe('text/markdown; charset=utf-8');
        expect(mdRes.text).toMatch(/^# /);
        for (const res of [htmlRes, mdRes]) expect(res.headers.vary).toMatch(/Accept/);
        expect(mdRes.headers.etag).not.toBe(htmlRes.headers.etag);
        const file = await t.http.get(path === '/' ? '/index.md' : `${path}.md`);
        expect(file.text).toBe(mdRes.text);
      },
    );

    it.each([
      ['text/markdown;q=0.9, text/html', 'text/html'],
      ['text/html;q=0.5, text/markdown', 'text/markdown'],
      ['*/*', 'text/html'],
      ['application/json', 'text/html'],
    ])('honours q-values: Accept %j gets %s', async (accept, type) => {
      const res = await t.http.get('/providers/vultr').set('Accept', accept).expect(200);
      expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
    });

    it('revalidates each form by its own ETag', async () => {
      const md = await t.http.get('/guides/swap-file').set('Accept', 'text/markdown');
      await t.http
        .get('/guides/swap-file')
        .set('Accept', 'text/markdown')
        .set('If-None-Match', md.headers.etag)
        .expect(304);
      await t.http.get('/guides/swap-file').set('If-None-Match', md.headers.etag).expect(200);
    });
  });

  describe('the plans page', () => {
    const rates = JSON.parse(readFileSync('data/exchange-rates.json', 'utf8'));
    const rows = expectedPlanRows(rawProviders.providers, rates, TEST_BASE_URL);
    // The orders as the issue states them, written here rather than imported: no-commitment USD price
    // (plans needing a term last, by effective price), then provider id and plan name; the other sorts
    // ascend by their figure and break ties by that price order.
    const nullsLast = (a: number | null, b: number | null) =>
      a === null || b === null ? (a === null ? 1 : 0) - (b === null ? 1 : 0) : a - b;
    const byPrice = (a: any, b: any) =>
      nullsLast(a.monthToMonthPriceUsd, b.monthToMonthPriceUsd) ||
      a.priceUsd - b.priceUsd ||
      a.providerId.localeCompare(b.providerId) ||
      a.planName.localeCompare(b.planName);
    const perGb = (r: any) =>
      r.monthToMonthPriceUsd === null ? null : Math.round((r.monthToMonthPriceUsd / r.ramGb) * 100) / 100;
    const orders: [string, (a: any, b: any) => number][] = [
      ['/plans', byPrice],
      ['/plans/by-ram', (a, b) => a.ramGb - b.ramGb || byPrice(a, b)],
      ['/plans/by-vcpu', (a, b) => a.vcpus - b.vcpus || byPrice(a, b)],
      ['/plans/by-storage', (a, b) => a.storageGb - b.storageGb || byPrice(a, b)],
      ['/plans/by-price-per-gb-ram', (a, b) => nullsLast(perGb(a), perGb(b)) || byPrice(a, b)],
    ];
    /** Provider name and plan name of each body row, in page order. */
    const rowsOf = (page: string) =>
      [...page.matchAll(/<tr><td class="num">([^<]*)<\/td><td>([^<]*)<\/td><td><a href="[^"]*">([^<]*)<\/a>/g)].map(
        (m) => `${m[3]} ${m[2]}`,
      );

    it.each(orders)(
      '%s lists every plan in its order, with the no-commitment USD price first',
      async (path, compare) => {
        const res = await t.http.get(path).expect(200).expect('Content-Type', 'text/html; charset=utf-8');
        const expected = [...rows].sort(compare);
        expect(rowsOf(res.text)).toEqual(expected.map((r) => `${r.providerName} ${r.planName}`.replace(/&/g, '&amp;')));
        const firstPrice = /<tr><td class="num">([^<]*)<\/td>/.exec(res.text)![1];
        if (path === '/plans') expect(firstPrice).toBe(`$${expected[0].monthToMonthPriceUsd.toFixed(2)}`);
        expect(res.text).toContain(`aria-current="page" href="${path}"`);
        expect(res.text).toMatch(/<div class="table-wrap" role="region" aria-label="[^"]*scrolls[^"]*"/);
        for (const [other] of orders) expect(res.text).toContain(`href="${other}"`);
        const md = await t.http.get(`${path}.md`).expect(200).expect('Content-Type', 'text/markdown; charset=utf-8');
        expect(md.text).toMatch(/^# Every VPS plan/);
        expect(md.text.split('\n').filter((l) => l.startsWith('| $') || l.startsWith('| needs')).length).toBe(
          rows.length,
        );
        expect((await t.http.get(path).set('Accept', 'text/markdown')).text).toBe(md.text);
      },
    );

    it('puts plans that need a prepaid term last, saying so', async () => {
      const res = await t.http.get('/plans.md');
      const termOnly = rows.filter((r) => r.monthToMonthPrice === null);
      expect(termOnly.length).toBeGreaterThan(0);
      const lines = res.text.split('\n').filter((l) => l.startsWith('| $') || l.startsWith('| needs'));
      expect(lines.slice(-termOnly.length).every((l) => l.startsWith('| needs a '))).toBe(true);
    });

    it('links to the CSV and JSON downloads, and is linked from the home page and every provider page', async () => {
      const page = await t.http.get('/plans');
      expect(page.text).toContain('href="/api/plans.csv"');
      expect(page.text).toContain('href="/api/plans.json"');
      for (const path of ['/', ...rawProviders.providers.map((p: any) => `/providers/${p.id}`)]) {
        const res = await t.http.get(path);
        expect([
          path,
          res.text.includes(`<main>`) && /<main>[\s\S]*href="[^"]*\/plans"[\s\S]*<\/main>/.test(res.text),
        ]).toEqual([path, true]);
      }
    });

    it('answers an unknown sort with the 404 page, and takes no query string into account', async () => {
      await t.http.get('/plans/by-colour').expect(404).expect('Content-Type', 'text/html; charset=utf-8');
      const [plain, query] = await Promise.all([t.http.get('/plans'), t.http.get('/plans?sort=ram')]);
      expect(query.text).toBe(plain.text);
    });
  });

  describe('llms.txt', () => {
    it('follows the llmstxt.org format and links markdown forms that resolve', async () => {
      const res = await t.http.get('/llms.txt').expect(200).expect('Content-Type', 'text/plain; charset=utf-8');
      const lines = res.text.split('\n');
      expect(lines[0]).toBe('# vpsapi');
      expect(lines[2]).toMatch(/^> /);
      const sections = lines.filter((l) => l.startsWith('## '));
      expect(sections).toEqual(['## API', '## Providers', '## Use cases', '## Guides', '## Optional']);
      const links = [...res.text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\): .+$/gm)].map((m) => m[2]);
      for (const path of ['/api/plans.json', '/api/plans.csv', '/plans.md', '/api/changes.json'])
        expect(links).toContain(`${TEST_BASE_URL}${path}`);
      expect(res.text).toContain('get_dataset_changes');
      expect(links.length).toBeGreaterThanOrEqual(
        rawGuides.length + rawProviders.providers.length + rawUseCases.useCases.length,
      );
      for (const url of links) {
        const r = await t.http.get(url.replace(TEST_BASE_URL, ''));
        expect([url, r.status]).toEqual([url, 200]);
      }
    });

    it('serves every guide in llms-full.txt under its heading', async () => {
      const res = await t.http.get('/llms-full.txt').expect(200);
      for (const g of rawGuides) expect(res.text).toContain(`# ${g.title}\n`);
    });
  });

  describe('not found', () => {
    it('answers an unknown page with a 404 HTML page', async () => {
      const res = await t.http
        .get('/guides/no-such-guide')
        .expect(404)
        .expect('Content-Type', 'text/html; charset=utf-8');
      expect(res.text).toContain('<h1>Page not found</h1>');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    });

    it('answers in JSON when the client asks for JSON, and in markdown when it asks for markdown', async () => {
      const json = await t.http.get('/nothing/here').set('Accept', 'application/json').expect(404);
      expect(json.body.error.code).toBe('not_found');
      const md = await t.http.get('/nothing/here').set('Accept', 'text/markdown').expect(404);
      expect(md.text).toMatch(/^# Page not found/);
    });

    it('never reflects the requested path unescaped', async () => {
      const res = await t.http.get('/guides/%3Cscript%3Ealert(1)%3C%2Fscript%3E').expect(404);
      expect(res.text).not.toContain('<script>alert');
      expect(res.text).not.toContain('alert(1)');
    });
  });

  it('sends a strict Content-Security-Policy and no-sniff on pages', async () => {
    const res = await t.http.get('/');
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; style-src 'self' ${TEST_BASE_URL}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('carries CORS and the rate-limit headers on pages, and answers HEAD and 304', async () => {
    const res = await t.http.get('/guides');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['ratelimit-limit']).toBe('100000');
    const head = await t.http.head('/guides').expect(200);
    expect(head.headers.etag).toBe(res.headers.etag);
    await t.http.get('/guides').set('If-None-Match', res.headers.etag).expect(304);
  });
});

describe('dataset text in pages', () => {
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vpsapi-xss-'));
    await cp(DATA_DIR, dir, { recursive: true });
    const file = join(dir, 'providers.json');
    const data = JSON.parse(await readFile(file, 'utf8'));
    data.providers[0].name = 'Evil <script>alert("name")</script> Host';
    data.providers[0].pros[0] = '<img src=x onerror=alert(1)> and [a link](javascript:alert(2))';
    await writeFile(file, JSON.stringify(data));
    const guide = join(dir, 'guides', 'swap-file.md');
    const original = await readFile(guide, 'utf8');
    const injected = original.replace(
      /^(---\n[\s\S]*?\n---\n)/,
      '$1<iframe src="https://evil.example"></iframe>\n\nRead https://docs.example.org/a/very/long/path/that/needs/to/wrap?x=1&y=2 first, or (https://example.net/x).\n\n    curl https://in.code.example/\n\n',
    );
    expect(injected).not.toBe(original);
    await writeFile(guide, injected);
    t = await startTestApp({ DATA_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is escaped everywhere: no markup, no script URL survives', async () => {
    for (const path of ['/', '/providers/hetzner', '/guides/swap-file', '/guides', '/use-cases/docker-host']) {
      const res = await t.http.get(path).expect(200);
      expect([path, /<script>alert|<img src=x|<iframe|href="javascript:/i.test(res.text)]).toEqual([path, false]);
    }
    const provider = await t.http.get('/providers/hetzner');
    expect(provider.text).toContain('Evil &lt;script&gt;');
    expect((await t.http.get('/guides/swap-file')).text).toContain('&lt;iframe');
  });

  it('links URLs written as text in a guide, but not inside code', async () => {
    const guide = (await t.http.get('/guides/swap-file').expect(200)).text;
    const long = 'https://docs.example.org/a/very/long/path/that/needs/to/wrap?x=1&amp;y=2';
    expect(guide).toContain(
      `Read <a href="${long}" rel="noopener">${long}</a> first, or (<a href="https://example.net/x" rel="noopener">https://example.net/x</a>).`,
    );
    expect(guide).toContain('<pre><code>curl https://in.code.example/\n</code></pre>');
  });
});

describe('pages under a path prefix (PUBLIC_BASE_URL https://vpsapi.test/vps)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: `${TEST_BASE_URL}/vps` });
  });
  afterAll(() => t.close());

  it('links its stylesheet, navigation and in-text links same-origin under the prefix, and keeps the canonical link absolute', async () => {
    const home = await t.http.get('/').expect(200);
    expect(home.text).toContain('<link rel="canonical" href="https://vpsapi.test/vps/">');
    expect(home.text).toContain('<link rel="stylesheet" href="/vps/assets/site.css">');
    expect(home.text).toContain('<a href="/vps/plans">Plans</a>');
    expect(home.text).toContain('<a href="/vps/providers/hetzner">');
    const hrefs = [...home.text.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.filter((h) => h.startsWith('/') && !h.startsWith('/vps/'))).toEqual([]);
    expect(hrefs.filter((h) => h.startsWith(TEST_BASE_URL) && h !== 'https://vpsapi.test/vps/')).toEqual([]);
  });
});
