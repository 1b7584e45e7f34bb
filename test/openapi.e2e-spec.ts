import { Socket } from 'node:net';
import { OpenApiSchemas } from './support/openapi-schemas.js';
import { rawRequest } from './support/raw-request.js';
import { rawMeta, rawProviders, rawUseCases } from './support/raw-data.js';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app.js';
import { scaled } from './support/time';

const GET_OPERATIONS = [
  'getApiIndex',
  'listProviders',
  'getProvider',
  'listGuides',
  'listUseCases',
  'listPlans',
  'downloadPlansCsv',
  'listDatasetChanges',
];
const OPERATIONS = [...GET_OPERATIONS, ...GET_OPERATIONS.map((id) => `${id}Head`)];
/** Every status the service can answer a GET or HEAD under /api/ with (see README, Errors). */
const STATUSES = ['200', '301', '304', '400', '404', '405', '406', '408', '429', '431', '500', '503'];
const ERROR_STATUSES = STATUSES.filter((s) => Number(s) >= 400);
const PROVIDER_IDS = rawProviders.providers.map((p: { id: string }) => p.id);

/**
 * Properties typed `number` whose values are decimal by nature (money, ratings, sizes in GB or TB,
 * factors, percentages), even where today's data happens to hold only whole ones. Any other `number`
 * whose live values are all whole should be an `integer`.
 */
const DECIMAL_BY_NATURE = new Set([
  'BackupsAddOn.percentOfPlanPrice',
  'BackupOption.percentOfPlanPrice',
  'BackupsAddOn.pricesByPlan.*',
  'PlanTableRow.storageGb',
  'Plan.setupFee',
  'PlanLine.setupFee',
  'Spec.ramGb',
]);

/** The raw answer to bytes written straight to a socket (for what no HTTP client sends). */
function sendRaw(baseUrl: string, payload: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let data = '';
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
    socket.connect(Number(new URL(baseUrl).port), '127.0.0.1', () => socket.end(payload));
  });
}

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

  it("declares exactly the contract's five operations and the additive ones, each a GET with its HEAD form", () => {
    const ops = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).map(([method, op]) => `${method} ${path} ${op.operationId}`),
    );
    const gets = [
      ['/api/changes.json', 'listDatasetChanges'],
      ['/api/guides.json', 'listGuides'],
      ['/api/index.json', 'getApiIndex'],
      ['/api/plans.csv', 'downloadPlansCsv'],
      ['/api/plans.json', 'listPlans'],
      ['/api/providers.json', 'listProviders'],
      ['/api/providers/{providerId}.json', 'getProvider'],
      ['/api/use-cases.json', 'listUseCases'],
    ];
    expect(ops.sort()).toEqual(gets.flatMap(([path, id]) => [`get ${path} ${id}`, `head ${path} ${id}Head`]).sort());
  });

  it.each(OPERATIONS)('%s documents every status with the Error schema and every header', (operationId) => {
    const { op } = schemas.operation(operationId);
    const head = operationId.endsWith('Head');
    expect(Object.keys(op.responses).sort()).toEqual(STATUSES);
    for (const status of ERROR_STATUSES) {
      if (head) expect([status, op.responses[status].content]).toEqual([status, undefined]);
      else
        expect(op.responses[status].content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/ErrorEnvelope',
        });
    }
    if (head) expect(op.responses['200'].content).toBeUndefined();
    const headersOf = (status: string) => Object.keys(op.responses[status].headers);
    for (const status of Object.keys(op.responses)) {
      expect(headersOf(status)).toEqual(
        expect.arrayContaining([
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          'RateLimit-Policy',
          'X-API-Version',
          'Access-Control-Allow-Origin',
        ]),
      );
    }
    expect(headersOf('200')).toEqual(
      expect.arrayContaining(['ETag', 'Cache-Control', 'Last-Modified', 'Deprecation', 'Sunset', 'Link']),
    );
    expect(headersOf('301')).toContain('Location');
    expect(headersOf('304')).toEqual(expect.arrayContaining(['ETag']));
    expect(headersOf('405')).toContain('Allow');
    expect(headersOf('429')).toContain('Retry-After');
    expect(headersOf('503')).toContain('Retry-After');
    for (const header of Object.values<any>(op.responses['200'].headers)) {
      expect(doc.components.headers[header.$ref.split('/').pop()]).toBeDefined();
    }
  });

  it.each(OPERATIONS)('%s declares the If-None-Match request header', (operationId) => {
    const { op } = schemas.operation(operationId);
    expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/IfNoneMatch' });
    expect(doc.components.parameters.IfNoneMatch).toMatchObject({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      schema: { type: 'string' },
    });
  });

  it('gives the HEAD form the parameters and response headers of its GET', () => {
    for (const item of Object.values<any>(doc.paths)) {
      expect(item.head.parameters).toEqual(item.get.parameters);
      for (const [status, response] of Object.entries<any>(item.get.responses))
        expect([status, item.head.responses[status].headers]).toEqual([status, response.headers]);
    }
  });

  it('lists the dataset provider ids as the enum of the providerId path parameter, with an example', () => {
    for (const operationId of ['getProvider', 'getProviderHead']) {
      const parameter = schemas.operation(operationId).op.parameters.find((p: any) => p.name === 'providerId');
      expect(parameter).toMatchObject({
        in: 'path',
        required: true,
        example: 'hetzner',
        schema: { type: 'string', enum: PROVIDER_IDS },
      });
    }
  });

  it('declares the fixed vocabularies from the dataset: provider ids, use-case slugs, bestFor, the recommendation keys', () => {
    const s = doc.components.schemas;
    const slugs = rawUseCases.useCases.map((u: { slug: string }) => u.slug);
    expect(s.Provider.properties.id.enum).toEqual(PROVIDER_IDS);
    expect(s.PlanTableRow.properties.providerId.enum).toEqual(PROVIDER_IDS);
    expect(s.UseCaseProvider.properties.id.enum).toEqual(PROVIDER_IDS);
    expect(s.UseCase.properties.slug.enum).toEqual(slugs);
    expect(s.Provider.properties.bestFor.items).toMatchObject({ type: 'string', enum: slugs });
    const recommendations = s.ProviderList.properties.recommendations;
    const keys = [...Object.keys(rawProviders.recommendations), 'bestBudget'];
    expect(Object.keys(recommendations.properties).sort()).toEqual(keys.sort());
    expect(recommendations.required.sort()).toEqual(keys.sort());
    for (const key of keys)
      expect(recommendations.properties[key]).toMatchObject({
        type: 'string',
        enum: PROVIDER_IDS,
        description: expect.any(String),
      });
    expect(recommendations.additionalProperties).toEqual({ type: 'string' });
  });

  it('declares plan and provider currencies as ISO 4217 codes and startingAtUsd as a described number', () => {
    const s = doc.components.schemas;
    for (const [schema, field] of [
      ['Plan', 'currency'],
      ['Provider', 'currency'],
      ['PlanTableRow', 'currency'],
    ]) {
      expect([schema, s[schema].properties[field]]).toEqual([
        schema,
        expect.objectContaining({ type: 'string', pattern: '^[A-Z]{3}$' }),
      ]);
    }
    expect(s.UseCase.properties.startingAtUsd).toMatchObject({
      type: 'number',
      description: expect.stringContaining('US dollars'),
    });
    expect(s.UseCase.required).toEqual(expect.arrayContaining(['startingAt', 'startingAtUsd']));
  });

  it('documents the configured policy in RateLimit-Policy', () => {
    expect(doc.components.headers['RateLimit-Policy'].schema.examples).toEqual(['250;w=20']);
  });

  it('describes properties from the DTOs (the swagger plugin metadata is loaded)', () => {
    const provider = doc.components.schemas.Provider;
    expect(provider.required).toEqual(
      expect.arrayContaining(['id', 'name', 'rating', 'startingPrice', 'currency', 'plans', 'url']),
    );
    expect(provider.properties.rating).toMatchObject({ type: 'number', minimum: 0, maximum: 5 });
    expect(provider.properties.id.description).toBe('Stable, lowercase identifier; never changes.');
    expect(doc.components.schemas.Guide.properties.type.enum).toEqual([
      'review',
      'comparison',
      'workload',
      'best-of',
      'alternatives',
      'tutorial',
    ]);
  });

  it('types every whole-number field integer: a number field whose live values are all whole is decimal by nature', async () => {
    /** `Schema.property` of every number-typed property seen, and whether any of its values had a fraction. */
    const fractional = new Map<string, boolean>();
    /** The component a schema names (directly or as Nest's single allOf), if any. */
    const componentOf = (schema: any): string | undefined =>
      schema.$ref
        ? schema.$ref.split('/').pop()
        : schema.allOf?.length === 1
          ? componentOf(schema.allOf[0])
          : undefined;
    const resolve = (schema: any): any => (componentOf(schema) ? doc.components.schemas[componentOf(schema)!] : schema);
    const walk = (schema: any, value: unknown, name: string) => {
      const s = resolve(schema);
      if (value === null || value === undefined) return;
      // A schema that lists the JSON types a value may take (a changelog's old and new values) declares
      // no structure below it: a number there must be allowed by one of the branches, and nothing deeper is typed.
      if (Array.isArray(s.oneOf) && !s.type) {
        const branches = s.oneOf.map((o: any) => o.type);
        if (typeof value === 'number')
          expect([name, branches.includes('number') || branches.includes('integer')]).toEqual([name, true]);
        return;
      }
      if (Array.isArray(value)) return value.forEach((v) => walk(s.items ?? {}, v, name));
      if (typeof value === 'object') {
        const owner = componentOf(schema) ?? name;
        for (const [key, v] of Object.entries(value)) {
          if (s.properties?.[key]) walk(s.properties[key], v, `${owner}.${key}`);
          else walk(s.additionalProperties ?? {}, v, `${owner}.*`);
        }
        return;
      }
      const types = [s.type].flat();
      if (typeof value === 'number' && types.includes('number'))
        fractional.set(name, (fractional.get(name) ?? false) || !Number.isInteger(value));
      if (typeof value === 'number')
        expect([name, types.includes('number') || types.includes('integer')]).toEqual([name, true]);
    };
    for (const operationId of GET_OPERATIONS) {
      const { path, op } = schemas.operation(operationId);
      const schema = op.responses['200'].content['application/json']?.schema;
      if (!schema) continue;
      for (const id of path.includes('{providerId}') ? PROVIDER_IDS : ['']) {
        walk(schema, (await t.http.get(path.replace('{providerId}', id)).expect(200)).body, operationId);
      }
    }
    const wholeOnly = [...fractional]
      .filter(([name, hasFraction]) => !hasFraction && !DECIMAL_BY_NATURE.has(name))
      .map(([name]) => name);
    expect(wholeOnly.sort()).toEqual([]);
    expect(fractional.size).toBeGreaterThan(10);
  });

  describe('every live response matches its documented schema', () => {
    const cases: [string, string, number][] = [
      ['getApiIndex', '/api/index.json', 200],
      ['listProviders', '/api/providers.json', 200],
      ...rawProviders.providers.map((p: any): [string, string, number] => [
        'getProvider',
        `/api/providers/${p.id}.json`,
        200,
      ]),
      ['getProvider', '/api/providers/nope.json', 404],
      ['listGuides', '/api/guides.json', 200],
      ['listUseCases', '/api/use-cases.json', 200],
      ['listUseCases', '/api/use-cases.json/', 404],
    ];
    it.each(cases)('%s %s (%i)', async (operationId, path, status) => {
      const res = await t.http.get(path).expect(status);
      expect(schemas.errors(operationId, status, res.body)).toEqual([]);
    });

    it('400 (malformed percent-encoding), 406 (no acceptable coding) and 431 (oversized headers) are documented and match the Error schema', async () => {
      const malformed = await t.http.get('/api/providers/%E0%A4%A.json').expect(400);
      expect(schemas.errors('getProvider', 400, malformed.body)).toEqual([]);
      const refused = await rawRequest(`${t.baseUrl}/api/providers.json`, { 'accept-encoding': 'identity;q=0' });
      expect(refused.status).toBe(406);
      expect(schemas.errors('listProviders', 406, JSON.parse(refused.body.toString()))).toEqual([]);
      const reply = await sendRaw(
        t.baseUrl,
        `GET /api/index.json HTTP/1.1\r\nHost: x\r\n${'X-Big: y\r\n'.repeat(5000)}\r\n`,
      );
      expect(reply).toMatch(/^HTTP\/1\.1 431 /);
      expect(schemas.errors('getApiIndex', 431, JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)))).toEqual([]);
    });

    it(
      '301 (HTTPS required), 429 (over the limit) and 503 (maintenance) are documented and match their schema',
      async () => {
        // One app for the three: the service decides the limit first, then HTTPS, then maintenance, so a
        // plain request is redirected, one forwarded as HTTPS by the (trusted) proxy meets the maintenance,
        // and the third request is over the limit of two.
        const strict = await startTestApp({
          REQUIRE_HTTPS: 'true',
          TRUST_PROXY: 'loopback',
          MAINTENANCE_MODE: 'true',
          RATE_LIMIT_REQUESTS: '2',
        });
        try {
          const redirected = await strict.http.get('/api/guides.json').expect(301);
          expect(redirected.headers.location).toBe('https://vpsapi.test/api/guides.json');
          expect(schemas.operation('listGuides').op.responses['301'].content).toBeUndefined();
          const unavailable = await strict.http.get('/api/guides.json').set('X-Forwarded-Proto', 'https').expect(503);
          expect(schemas.errors('listGuides', 503, unavailable.body)).toEqual([]);
          const limited = await strict.http.get('/api/guides.json').set('X-Forwarded-Proto', 'https').expect(429);
          expect(schemas.errors('listGuides', 429, limited.body)).toEqual([]);
        } finally {
          await strict.close();
        }
      },
      scaled(60_000),
    );

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
