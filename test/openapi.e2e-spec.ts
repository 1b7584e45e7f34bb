import { createConfig, lintFromString } from '@redocly/openapi-core';
import { OpenApiSchemas } from './support/openapi-schemas';
import { rawMeta, rawProviders } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

const OPERATIONS = ['getApiIndex', 'listProviders', 'getProvider', 'listGuides', 'listUseCases', 'listPlans', 'downloadPlansCsv', 'listDatasetChanges'];

describe('OpenAPI contract', () => {
  let t: TestApp;
  let doc: any;
  let schemas: OpenApiSchemas;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '250', RATE_LIMIT_WINDOW_SECONDS: '20' });
    doc = (await t.http.get('/openapi.json').expect(200)).body;
    schemas = new OpenApiSchemas(doc);
  });
  afterAll(() => t.close());

  it("passes Redocly's recommended ruleset with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');

    const broken = { ...doc, info: undefined, paths: { '/x': { get: { responses: { '200': {} } } } } };
    const brokenProblems = await lintFromString({ source: JSON.stringify(broken), absoluteRef: 'broken.json', config });
    expect(brokenProblems.filter((p) => p.severity === 'error').length).toBeGreaterThan(0);
  });

  it('carries none of the 3.0 idioms @nestjs/swagger writes', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"nullable":/);
    expect(text).not.toMatch(/"exclusiveM(in|ax)imum":(true|false)/);
    for (const schema of Object.values<any>(doc.components.schemas)) {
      for (const prop of Object.values<any>(schema.properties ?? {})) expect(prop).not.toHaveProperty('example');
    }
  });

  it('names the server, the license and a contact from the configuration and dataset', () => {
    expect(doc.servers).toEqual([{ url: TEST_BASE_URL }]);
    expect(doc.info).toMatchObject({
      version: rawMeta.version,
      license: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
      contact: { url: `${TEST_BASE_URL}/` },
    });
    expect(doc.info.description).toContain('250 requests per 20 seconds');
  });

  it("declares exactly the contract's five operations and the additive ones, each a GET", () => {
    const ops = Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => `${method} ${path} ${op.operationId}`));
    expect(ops.sort()).toEqual([
      'get /api/changes.json listDatasetChanges',
      'get /api/guides.json listGuides',
      'get /api/index.json getApiIndex',
      'get /api/plans.csv downloadPlansCsv',
      'get /api/plans.json listPlans',
      'get /api/providers.json listProviders',
      'get /api/providers/{providerId}.json getProvider',
      'get /api/use-cases.json listUseCases',
    ]);
  });

  it.each(OPERATIONS)('%s documents every status with the Error schema and every header', (operationId) => {
    const { op } = schemas.operation(operationId);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '304', '404', '405', '429', '500', '503']);
    for (const status of ['404', '405', '429', '500', '503']) {
      expect(op.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    }
    const headersOf = (status: string) => Object.keys(op.responses[status].headers);
    for (const status of Object.keys(op.responses)) {
      expect(headersOf(status)).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'X-API-Version', 'Access-Control-Allow-Origin']),
      );
    }
    expect(headersOf('200')).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'Last-Modified', 'Deprecation', 'Sunset', 'Link']));
    expect(headersOf('304')).toEqual(expect.arrayContaining(['ETag']));
    expect(headersOf('405')).toContain('Allow');
    expect(headersOf('429')).toContain('Retry-After');
    expect(headersOf('503')).toContain('Retry-After');
    for (const header of Object.values<any>(op.responses['200'].headers)) {
      expect(doc.components.headers[header.$ref.split('/').pop()]).toBeDefined();
    }
  });

  it('documents the configured policy in RateLimit-Policy', () => {
    expect(doc.components.headers['RateLimit-Policy'].schema.examples).toEqual(['250;w=20']);
  });

  it('describes properties from the DTOs (the swagger plugin metadata is loaded)', () => {
    const provider = doc.components.schemas.Provider;
    expect(provider.required).toEqual(expect.arrayContaining(['id', 'name', 'rating', 'startingPrice', 'currency', 'plans', 'url']));
    expect(provider.properties.rating).toMatchObject({ type: 'number', minimum: 0, maximum: 5 });
    expect(provider.properties.id.description).toBe('Stable, lowercase identifier; never changes.');
    expect(doc.components.schemas.Guide.properties.type.enum).toEqual(['review', 'comparison', 'workload', 'best-of', 'alternatives', 'tutorial']);
  });

  describe('every live response matches its documented schema', () => {
    const cases: [string, string, number][] = [
      ['getApiIndex', '/api/index.json', 200],
      ['listProviders', '/api/providers.json', 200],
      ...rawProviders.providers.map((p: any): [string, string, number] => ['getProvider', `/api/providers/${p.id}.json`, 200]),
      ['getProvider', '/api/providers/nope.json', 404],
      ['listGuides', '/api/guides.json', 200],
      ['listUseCases', '/api/use-cases.json', 200],
      ['listUseCases', '/api/use-cases.json/', 404],
    ];
    it.each(cases)('%s %s (%i)', async (operationId, path, status) => {
      const res = await t.http.get(path).expect(status);
      expect(schemas.errors(operationId, status, res.body)).toEqual([]);
    });

    it('405 answers match the Error schema', async () => {
      const res = await t.http.post('/api/guides.json').expect(405);
      expect(schemas.errors('listGuides', 405, res.body)).toEqual([]);
    });

    it('a body that breaks the contract is caught by the validator', async () => {
      const { body } = await t.http.get('/api/providers/hetzner.json');
      body.provider.rating = 'five';
      delete body.provider.plans;
      expect(schemas.errors('getProvider', 200, body).length).toBeGreaterThanOrEqual(2);
    });
  });
});
