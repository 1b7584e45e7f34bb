import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { expectedPlanRows, priceAgeSummaryOf, STALE_DAYS } from './support/independent-figures';
import { OpenApiSchemas } from './support/openapi-schemas';
import { copyData, datasetEdits } from './support/operations';
import { rawMeta, rawProviders } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

const rates = JSON.parse(readFileSync('data/exchange-rates.json', 'utf8'));
const changelog = JSON.parse(readFileSync('data/changelog.json', 'utf8'));

// One app for both describes, on a copy of the embedded dataset that the reload test edits.
let dir: string;
let app: TestApp;
beforeAll(async () => {
  dir = await copyData();
  app = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '1000' });
});
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});
const edits = datasetEdits();

describe('the plan table', () => {
  let t: TestApp;
  let schemas: OpenApiSchemas;
  beforeAll(async () => {
    t = app;
    schemas = new OpenApiSchemas((await t.http.get('/openapi.json').expect(200)).body);
  });

  describe('GET /api/plans.json', () => {
    it('holds every plan of every provider as a flat row computed from the data files', async () => {
      const { body } = await t.http
        .get('/api/plans.json')
        .expect(200)
        .expect('Content-Type', 'application/json; charset=utf-8');
      const expected = expectedPlanRows(rawProviders.providers, rates, TEST_BASE_URL, changelog);
      expect(body).toEqual({
        version: rawMeta.version,
        lastUpdated: rawMeta.lastUpdated,
        // The oldest rate any row converts with (each row's own day).
        exchangeRatesDate: expected.map((row) => row.exchangeRatesDate).sort()[0],
        license: rawMeta.license,
        staleAfterDays: STALE_DAYS,
        priceAge: priceAgeSummaryOf(expected),
        count: expected.length,
        plans: expected,
      });
      expect(body.count).toBe(rawProviders.providers.reduce((n: number, p: any) => n + p.plans.length, 0));
    });

    it('matches its documented schema, and the schema catches a broken row', async () => {
      const { body } = await t.http.get('/api/plans.json');
      expect(schemas.errors('listPlans', 200, body)).toEqual([]);
      const broken = structuredClone(body);
      broken.plans[0].vcpus = 1.5;
      broken.plans[1].termMonths = 'twelve';
      delete broken.plans[2].priceUsd;
      expect(schemas.errors('listPlans', 200, broken).length).toBeGreaterThanOrEqual(3);
    });

    it('documents whole numbers as integers and nullable figures as such', () => {
      const { op } = schemas.operation('listPlans');
      expect(op.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/PlanTable',
      });
      const doc = (schemas as any).doc;
      const row = doc.components.schemas.PlanTableRow;
      expect(row.properties.vcpus.type).toEqual(['integer', 'null']);
      expect(row.properties.termMonths.type).toEqual(['integer', 'null']);
      expect(row.properties.monthToMonthPrice.type).toEqual(['number', 'null']);
      expect(doc.components.schemas.PlanTable.properties.count.type).toBe('integer');
      expect(row.required).toEqual(
        expect.arrayContaining(Object.keys(expectedPlanRows(rawProviders.providers, rates, '')[0])),
      );
    });

    it('is listed in the index', async () => {
      const { body } = await t.http.get('/api/index.json');
      expect(body.endpoints).toContainEqual(
        expect.objectContaining({ operationId: 'listPlans', method: 'GET', url: `${TEST_BASE_URL}/api/plans.json` }),
      );
    });
  });

  describe('GET /api/plans.csv', () => {
    /** A JSON value as the CSV writes it: null empty, booleans and numbers as JSON writes them, price history as "<version> <price>; …". */
    const asCsvField = (value: unknown) =>
      value === null
        ? ''
        : Array.isArray(value)
          ? value.map((p: any) => `${p.version} ${p.price}`).join('; ')
          : String(value);

    it('is RFC 4180 CSV offered as a file named after the dataset version', async () => {
      const res = await t.http
        .get('/api/plans.csv')
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c.toString('utf8')));
          r.on('end', () => done(null, text));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="vpsapi-plans-${rawMeta.version}.csv"`);
      const text: string = res.body;
      const records = text.split('\r\n');
      expect(records.at(-1)).toBe('');
      expect(records[0].split(',')).toEqual(
        Object.keys(expectedPlanRows(rawProviders.providers, rates, TEST_BASE_URL, changelog)[0]),
      );
      expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    });

    it('parses back to exactly the rows of plans.json, field by field', async () => {
      const [csv, json] = await Promise.all([t.http.get('/api/plans.csv'), t.http.get('/api/plans.json')]);
      const rows = parse(csv.text, { columns: true, record_delimiter: '\r\n' });
      expect(rows).toHaveLength(json.body.plans.length);
      const expected = json.body.plans.map((row: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, asCsvField(v)])),
      );
      expect(rows).toEqual(expected);
    });

    it('is documented in OpenAPI as an additional text/csv operation with JSON errors', () => {
      const { path, op } = schemas.operation('downloadPlansCsv');
      expect(path).toBe('/api/plans.csv');
      expect(Object.keys(op.responses['200'].content)).toEqual(['text/csv']);
      expect(Object.keys(op.responses['200'].headers)).toEqual(
        expect.arrayContaining(['ETag', 'Content-Disposition', 'RateLimit-Limit']),
      );
      expect(op.responses['404'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
    });

    it('is listed in the index', async () => {
      const { body } = await t.http.get('/api/index.json');
      expect(body.endpoints).toContainEqual(
        expect.objectContaining({ operationId: 'downloadPlansCsv', url: `${TEST_BASE_URL}/api/plans.csv` }),
      );
    });
  });

  describe('GET /api/changes.json', () => {
    it('lists the releases of changelog.json newest first, matching its documented schema', async () => {
      const { body } = await t.http.get('/api/changes.json').expect(200);
      expect(body).toEqual({
        version: rawMeta.version,
        count: changelog.releases.length,
        feed: `${TEST_BASE_URL}/changes.atom`,
        releases: [...changelog.releases].reverse(),
      });
      expect(body.releases.at(-1).summary).toBe('initial release');
      expect(schemas.errors('listDatasetChanges', 200, body)).toEqual([]);
      const broken = structuredClone(body);
      broken.releases[0].changes.plansRepriced = [{ providerId: 'x', planName: 'y', oldPrice: '1' }];
      expect(schemas.errors('listDatasetChanges', 200, broken).length).toBeGreaterThan(0);
    });

    it('and the Atom feed are listed in the index', async () => {
      const { body } = await t.http.get('/api/index.json');
      expect(body.endpoints).toContainEqual(
        expect.objectContaining({ operationId: 'listDatasetChanges', url: `${TEST_BASE_URL}/api/changes.json` }),
      );
      expect(body.changesFeed).toBe(`${TEST_BASE_URL}/changes.atom`);
    });

    it('and the Atom feed are linked from the pages', async () => {
      for (const path of ['/', '/plans', '/providers/hetzner', '/guides']) {
        const page = (await t.http.get(path)).text;
        expect([
          path,
          page.includes(
            `<link rel="alternate" type="application/atom+xml" title="vpsapi dataset releases" href="/changes.atom">`,
          ),
        ]).toEqual([path, true]);
      }
      expect((await t.http.get('/index.md')).text).toContain('[/api/changes.json](/api/changes.json)');
    });
  });

  describe('caching and headers, as for the five operations', () => {
    const paths = ['/api/plans.json', '/api/plans.csv', '/api/changes.json', '/changes.atom'];
    const apiPaths = paths.filter((p) => p.startsWith('/api/'));

    it.each(paths)(
      '%s carries a strong ETag, caching, CORS, the rate-limit headers and X-API-Version',
      async (path) => {
        const res = await t.http.get(path).expect(200);
        expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
        expect(res.headers['cache-control']).toBe('public, max-age=300');
        expect(res.headers['last-modified']).toMatch(/^\w{3}, \d{2} \w{3} \d{4} 00:00:00 GMT$/);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['x-api-version']).toBe(rawMeta.version);
        expect(res.headers['ratelimit-limit']).toBe('1000');
        expect(res.headers['ratelimit-policy']).toBe('1000;w=60');
        expect(Number(res.headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
        expect(Number(res.headers['content-length'])).toBe(res.text.length === 0 ? 0 : Buffer.byteLength(res.text));
      },
    );

    it.each(paths)('%s answers If-None-Match with 304 and no body, every time it is asked', async (path) => {
      const { headers } = await t.http.get(path);
      for (let i = 0; i < 2; i++) {
        const res = await t.http.get(path).set('If-None-Match', headers.etag).expect(304);
        expect(res.text).toBe('');
        expect(res.headers.etag).toBe(headers.etag);
      }
      await t.http.get(path).set('If-None-Match', '"stale"').expect(200);
    });

    it.each(paths)('%s answers HEAD with the GET headers and no body', async (path) => {
      const [get, head] = await Promise.all([t.http.get(path), t.http.head(path)]);
      expect(head.status).toBe(200);
      expect(head.text).toBeUndefined();
      for (const name of ['etag', 'content-type', 'content-length', 'cache-control', 'last-modified', 'x-api-version'])
        expect(head.headers[name]).toBe(get.headers[name]);
    });

    it.each(paths)('%s is compressed for clients that accept it', async (path) => {
      // Variants are compressed in the background the first time they are asked for.
      let encoding: string | undefined;
      for (let i = 0; i < 100 && encoding !== 'br'; i++) {
        encoding = (await request(t.server).get(path).set('Accept-Encoding', 'br').expect(200)).headers[
          'content-encoding'
        ];
        if (encoding !== 'br') await new Promise((r) => setTimeout(r, 50));
      }
      expect(encoding).toBe('br');
      const res = await request(t.server).get(path).set('Accept-Encoding', 'br');
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
    });

    it.each(apiPaths)('%s refuses writes with the error envelope', async (path) => {
      const res = await t.http.post(path).send({}).expect(405);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(res.body.error).toMatchObject({ code: 'method_not_allowed', status: 405 });
    });

    it('answers a near miss with the not_found envelope pointing to the index', async () => {
      const res = await t.http.get('/api/plans.json/').expect(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', status: 404 });
      expect(res.body.error.resolution).toContain('/api/index.json');
    });
  });
});

describe('a reload that changes a price', () => {
  let t: TestApp;
  beforeAll(() => {
    t = app;
  });

  it('shows up in plans.json, plans.csv and the plans page together', async () => {
    const planName = rawProviders.providers.find((p: any) => p.id === 'hetzner').plans[0].name;
    const before = await Promise.all(['/api/plans.json', '/api/plans.csv', '/plans'].map((path) => t.http.get(path)));
    // Hetzner's cheapest plan made cheaper still, so it also tops the page (the starting price stays the cheapest orderable one).
    await edits.edit(t, join(dir, 'providers.json'), (data) => {
      const hetzner = data.providers.find((p: any) => p.id === 'hetzner');
      hetzner.plans[0].price = 0.42;
      const orderable = hetzner.plans.filter((p: any) => p.availability?.orderable !== false);
      hetzner.startingPrice = Math.min(...orderable.map((p: any) => p.price));
    });

    const [json, csv, page] = await Promise.all(
      ['/api/plans.json', '/api/plans.csv', '/plans'].map((path) => t.http.get(path).expect(200)),
    );
    const usd = Math.round((0.42 / rates.rates.EUR) * rates.rates.USD * 100) / 100;
    const stale = expectedPlanRows(rawProviders.providers, rates, TEST_BASE_URL).find(
      (r: any) => r.providerId === 'hetzner' && r.planName === planName,
    )!.stale;
    expect(json.body.plans.find((r: any) => r.providerId === 'hetzner' && r.planName === planName)).toMatchObject({
      price: 0.42,
      priceUsd: usd,
      monthToMonthPrice: 0.42,
    });
    const csvRow = parse(csv.text, { columns: true }).find(
      (r: any) => r.providerId === 'hetzner' && r.planName === planName,
    );
    expect([csvRow.price, csvRow.priceUsd]).toEqual(['0.42', String(usd)]);
    expect(page.text).toMatch(
      new RegExp(`<tr><td class="num">\\$${usd.toFixed(2)}${stale ? ' \\(stale\\)' : ''}</td><td>${planName}</td>`),
    );
    // The history records releases, and this price is not released yet.
    expect(
      json.body.plans.find((r: any) => r.planName === planName).priceHistory.map((p: any) => p.price),
    ).not.toContain(0.42);
    before.forEach((res, i) => expect([i, res.headers.etag === [json, csv, page][i].headers.etag]).toEqual([i, false]));
  });
});
