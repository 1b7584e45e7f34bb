import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_DIR } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';

describe('deprecation headers', () => {
  let dir: string;
  let t: TestApp;

  beforeAll(async () => {
    // A fixture dataset that withdraws Provider.affiliateUrl.
    dir = await mkdtemp(join(tmpdir(), 'vpsapi-deprecation-'));
    await cp(DATA_DIR, dir, { recursive: true });
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
    meta.deprecations = [
      {
        field: 'Provider.affiliateUrl',
        deprecatedAt: '2026-02-01',
        sunsetAt: '2026-08-01',
        link: 'https://vpsapi.test/changes/affiliate-url',
      },
    ];
    await writeFile(join(dir, 'meta.json'), JSON.stringify(meta));
    t = await startTestApp({ DATA_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['/api/providers.json', '/api/providers/hetzner.json'])(
    'announces the withdrawn field on %s',
    async (path) => {
      const res = await t.http.get(path).expect(200);
      expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 1, 1) / 1000}`);
      expect(res.headers.sunset).toBe('Sat, 01 Aug 2026 00:00:00 GMT');
      expect(res.headers.link).toBe('<https://vpsapi.test/changes/affiliate-url>; rel="deprecation"; type="text/html"');
    },
  );

  it('keeps the headers on a 304 revalidation', async () => {
    const { headers } = await t.http.get('/api/providers.json');
    const res = await t.http.get('/api/providers.json').set('If-None-Match', headers.etag).expect(304);
    expect(res.headers.deprecation).toBe(headers.deprecation);
  });

  it.each(['/api/guides.json', '/api/use-cases.json', '/api/index.json'])(
    'leaves %s, which does not carry the field, alone',
    async (path) => {
      const res = await t.http.get(path).expect(200);
      expect(res.headers.deprecation).toBeUndefined();
      expect(res.headers.sunset).toBeUndefined();
      expect(res.headers.link).toBeUndefined();
    },
  );
});

describe('without deprecations (the embedded dataset)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('sends no deprecation headers', async () => {
    const res = await t.http.get('/api/providers.json').expect(200);
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
  });
});
