import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { run } from './support/processes.js';
import { rawRequest } from './support/raw-request.js';
import { rawProviders, rawUseCases } from './support/raw-data.js';
import { startTestApp, type TestApp } from './support/test-app.js';
// Not followed by the project's tsc (the client's types exist only once generated; see below).
import { callEveryOperation, type Observations } from './typed-client/client';

/*
 * What a TypeScript user of the API does: generate types from the served /openapi.json with
 * openapi-typescript, write a client with openapi-fetch, type-check it with `tsc --strict`, run it.
 * The client (test/typed-client/client.ts) calls every operation, the HEAD form of each and a 304
 * revalidation; it compiles only while the document declares what it uses.
 */
const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'test-results', 'typed-client');
const CLIENT = join(ROOT, 'test', 'typed-client', 'client.ts');
const node = (script: string, args: string[]) =>
  run(process.execPath, [join(ROOT, 'node_modules', script), ...args], {}, 120_000);

/** Generates `<dir>/vpsapi.ts` from `doc` and type-checks the client against it; tsc's output. */
async function typeCheckClientAgainst(doc: unknown, dir: string): Promise<{ code: number | null; output: string }> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
  const generated = await node('openapi-typescript/bin/cli.js', [
    join(dir, 'openapi.json'),
    '-o',
    join(dir, 'vpsapi.ts'),
  ]);
  if (generated.code !== 0) throw new Error(`openapi-typescript failed: ${generated.stderr}`);
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'ES2023',
      lib: ['ES2023', 'DOM'],
      types: ['node'],
      allowImportingTsExtensions: true,
      // Only the libraries' own declarations are skipped; the generated types are a .ts file and checked.
      skipLibCheck: true,
      paths: { 'vpsapi-openapi': ['./vpsapi.ts'] },
    },
    files: [CLIENT, join(dir, 'vpsapi.ts')],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const checked = await node('typescript/bin/tsc', ['-p', join(dir, 'tsconfig.json')]);
  return { code: checked.code, output: checked.stdout + checked.stderr };
}

/** Headers that differ between two answers by nature: the time, the request id, the count. */
const VOLATILE = new Set([
  'date',
  'x-request-id',
  'ratelimit-remaining',
  'ratelimit-reset',
  'connection',
  'keep-alive',
]);
const stable = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !VOLATILE.has(name.toLowerCase())));

describe('a typed client generated from the served document (openapi-typescript, openapi-fetch)', () => {
  let t: TestApp;
  let doc: any;
  let seen: Observations;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1000', RATE_LIMIT_WINDOW_SECONDS: '60' });
    doc = (await t.http.get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('compiles with tsc --strict against the types generated from /openapi.json', async () => {
    const { code, output } = await typeCheckClientAgainst(doc, join(OUT, 'served'));
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 180_000);

  it('does not compile against the document without the HEAD operations, If-None-Match and the enums', async () => {
    const old = structuredClone(doc);
    for (const item of Object.values<any>(old.paths)) {
      delete item.head;
      item.get.parameters = item.get.parameters.filter((p: any) => !p.$ref);
      for (const p of item.get.parameters) delete p.schema.enum;
    }
    const schemas = old.components.schemas;
    delete schemas.UseCase.properties.slug.enum;
    delete schemas.ProviderList.properties.recommendations.properties;
    delete schemas.ProviderList.properties.recommendations.required;
    const { code, output } = await typeCheckClientAgainst(old, join(OUT, 'without-fixes'));
    expect(code).not.toBe(0);
    // The HEAD calls, the typed If-None-Match header, the recommendations key and the enums each fail.
    const errors = output.split('\n').filter((line) => line.includes('error TS'));
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Argument of type '"\/api\/index\.json"' is not assignable to parameter of type 'never'/),
        expect.stringMatching(/Type '\{ 'If-None-Match': string; \}' is not assignable/),
        expect.stringMatching(/Type 'string' is not assignable to type '"hetzner" \| /),
        expect.stringMatching(/Unused '@ts-expect-error' directive/),
      ]),
    );
  }, 180_000);

  describe('run against the app', () => {
    beforeAll(async () => {
      seen = await callEveryOperation(t.baseUrl);
    }, 60_000);

    it('calls every operation of the document, GET and HEAD', () => {
      const documented = Object.values<any>(doc.paths).flatMap((item) =>
        Object.values<any>(item).map((op) => op.operationId),
      );
      const called = new Set(Object.keys(seen.calls).map((key) => key.split(' ')[0]));
      expect([...called].sort()).toEqual([...documented].sort());
      expect(documented.filter((id: string) => id.endsWith('Head'))).toHaveLength(8);
    });

    it('reads typed 200 bodies that agree with the dataset', () => {
      const ids = rawProviders.providers.map((p: { id: string }) => p.id);
      expect(seen.providerIds).toEqual(ids);
      expect(seen.providersById).toEqual(
        Object.fromEntries(rawProviders.providers.map((p: { id: string; name: string }) => [p.id, p.name])),
      );
      expect(seen.bestOverall).toBe(rawProviders.recommendations.bestOverall);
      expect(seen.useCaseSlugs).toEqual(rawUseCases.useCases.map((u: { slug: string }) => u.slug));
      for (const slug of seen.bestForSlugs) expect(seen.useCaseSlugs).toContain(slug);
      expect(seen.planRows).toBe(
        rawProviders.providers.reduce((n: number, p: { plans: unknown[] }) => n + p.plans.length, 0),
      );
      expect(seen.cheapestWorkloadUsd).toBeGreaterThan(0);
      expect(seen.guideWords).toBeGreaterThan(0);
      expect(seen.csvHeader).toMatch(/^providerId,providerName,planName,/);
      expect(seen.releases).toBeGreaterThan(0);
      expect(seen.endpointCount).toBe(8);
      for (const [operation, call] of Object.entries<{
        status: number;
        headers: Record<string, string>;
        body: string | null;
      }>(seen.calls))
        expect([operation, call.status]).toEqual([operation, 200]);
    });

    it('gets from every HEAD the status and headers of its GET, and no body', () => {
      const heads = Object.entries<{ status: number; headers: Record<string, string>; body: string | null }>(
        seen.calls,
      ).filter(([key]) => key.split(' ')[0].endsWith('Head'));
      expect(heads).toHaveLength(7 + rawProviders.providers.length);
      for (const [key, head] of heads) {
        const get = seen.calls[key.replace('Head', '')];
        expect([key, head.body]).toEqual([key, '']);
        expect([key, stable(head.headers)]).toEqual([key, stable(get.headers)]);
        expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
      }
    });

    it('revalidates with the typed If-None-Match header: 304, no body, the same ETag', () => {
      expect(seen.revalidation).toEqual({
        etag: expect.stringMatching(/^"[\w-]+"$/),
        status: 304,
        etagAfter: seen.revalidation.etag,
        body: '',
      });
    });
  });

  describe('HEAD on the wire', () => {
    /** Every documented path, with each provider id for the template. */
    const paths = () =>
      Object.keys(doc.paths).flatMap((path) =>
        path.includes('{providerId}')
          ? rawProviders.providers.map((p: { id: string }) => path.replace('{providerId}', p.id))
          : [path],
      );

    it.each([
      ['a remembered document', ''],
      ['an unknown provider (404)', '/api/providers/nope.json'],
      ['a malformed percent-encoding (400)', '/api/providers/%E0%A4%A.json'],
    ])('answers HEAD like GET for %s, with no body', async (_label, only) => {
      for (const path of only ? [only] : paths()) {
        const get = await rawRequest(`${t.baseUrl}${path}`, { 'accept-encoding': 'identity' });
        const head = await rawRequest(`${t.baseUrl}${path}`, { 'accept-encoding': 'identity' }, 'HEAD');
        expect([path, head.status, head.body.length]).toEqual([path, get.status, 0]);
        expect([path, stable(head.headers)]).toEqual([path, stable(get.headers)]);
      }
    });

    it('answers a HEAD revalidation 304 and a HEAD without an acceptable coding 406, with no body', async () => {
      const { headers } = await rawRequest(`${t.baseUrl}/api/guides.json`, { 'accept-encoding': 'identity' }, 'HEAD');
      const notModified = await rawRequest(
        `${t.baseUrl}/api/guides.json`,
        { 'accept-encoding': 'identity', 'if-none-match': String(headers.etag) },
        'HEAD',
      );
      expect([notModified.status, notModified.body.length]).toEqual([304, 0]);
      const refused = await rawRequest(`${t.baseUrl}/api/guides.json`, { 'accept-encoding': 'identity;q=0' }, 'HEAD');
      expect([refused.status, refused.body.length, refused.headers['content-type']]).toEqual([
        406,
        0,
        'application/json; charset=utf-8',
      ]);
    });
  });
});
