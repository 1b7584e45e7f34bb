import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { rawProviders } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';

/*
 * The published contract (shared/CONTRACT.md, section 2, and issue 12's tables), written out here by
 * hand as JSON Schemas, independently of the DTOs and of the OpenAPI document. Every live answer of the
 * five operations must validate, and the OpenAPI document must declare the same type for every field
 * named here, so a refactor of the DTOs cannot silently change the contract.
 */
type Schema = Record<string, unknown>;
const str = { type: 'string', minLength: 1 };
const uri = { type: 'string', format: 'uri' };
const date = { type: 'string', format: 'date' };
const int = { type: 'integer' };
const num = { type: 'number' };
const strings = { type: 'array', items: { type: 'string' } };
/** An object whose listed fields are all required; other (additive) fields are allowed. */
const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});

const CONTRACT: Record<string, Schema> = {
  Plan: object({
    name: str,
    price: num,
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    cpu: str,
    ram: str,
    storage: str,
    bandwidth: str,
  }),
  Provider: object({
    id: str,
    name: str,
    rating: { type: 'number', minimum: 0, maximum: 5 },
    startingPrice: num,
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    billingCycle: str,
    locations: int,
    uptime: str,
    support: str,
    bestFor: strings,
    features: strings,
    pros: strings,
    cons: strings,
    verdict: str,
    url: uri,
    affiliateUrl: uri,
    statusPageUrl: uri,
    plans: { type: 'array', items: { $ref: 'Plan' } },
    self: uri,
  }),
  ProviderList: object(
    {
      version: date,
      lastUpdated: date,
      source: str,
      description: str,
      count: int,
      recommendations: { type: 'object', additionalProperties: { type: 'string' } },
      providers: { type: 'array', items: { $ref: 'Provider' } },
    },
    ['version', 'count', 'providers'],
  ),
  ProviderEnvelope: object({ version: date, provider: { $ref: 'Provider' } }),
  Guide: object(
    {
      slug: str,
      title: str,
      description: str,
      type: str,
      keywords: strings,
      published: date,
      readTimeMinutes: int,
      author: str,
      url: uri,
      markdownUrl: uri,
    },
    ['slug', 'title', 'description', 'type', 'url'],
  ),
  GuideList: object({ version: date, count: int, guides: { type: 'array', items: { $ref: 'Guide' } } }),
  // The contract makes every Spec field optional; issue 12 requires all four to be filled.
  Spec: object({ cpu: str, ram: str, storage: str, bandwidth: str }),
  UseCase: object(
    {
      slug: str,
      title: str,
      description: str,
      tags: strings,
      minimumSpec: { $ref: 'Spec' },
      recommendedSpec: { $ref: 'Spec' },
      startingAt: str,
      recommendedProviders: { type: 'array', items: object({ id: str, reason: str }) },
      url: uri,
    },
    ['slug', 'title', 'description', 'minimumSpec', 'recommendedSpec', 'url'],
  ),
  UseCaseList: object({ version: date, count: int, useCases: { type: 'array', items: { $ref: 'UseCase' } } }),
  ApiIndex: object(
    {
      name: str,
      version: date,
      description: str,
      documentation: uri,
      openapi: uri,
      llmsTxt: uri,
      authentication: { const: 'none' },
      rateLimit: object({ requests: int, windowSeconds: int, headers: strings }),
      endpoints: { type: 'array', items: object({ operationId: str, method: str, url: str, description: str }) },
    },
    ['name', 'version', 'endpoints'],
  ),
  Error: object({
    error: object({ code: str, message: str, status: int, resolution: str, documentation: uri }, [
      'code',
      'message',
      'status',
      'resolution',
    ]),
  }),
};

/** Where each contract resource lives in the OpenAPI document, when its name there differs. */
const OPENAPI_NAMES: Record<string, string> = { Error: 'ErrorEnvelope' };

describe('the published contract, checked against live answers', () => {
  let t: TestApp;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(CONTRACT)) ajv.addSchema({ $id: name, ...schema });

  const check = (resource: string, body: unknown) => {
    const validate = ajv.getSchema(resource)!;
    expect(validate(body) ? [] : validate.errors!.map((e) => `${resource}${e.instancePath} ${e.message}`)).toEqual([]);
  };

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1000', RATE_LIMIT_WINDOW_SECONDS: '30' });
  });
  afterAll(() => t.close());

  it('getApiIndex answers an ApiIndex', async () =>
    check('ApiIndex', (await t.http.get('/api/index.json').expect(200)).body));

  it('listProviders answers a ProviderList with every Provider field filled for all eight providers', async () => {
    const { body } = await t.http.get('/api/providers.json').expect(200);
    check('ProviderList', body);
    expect(body.providers).toHaveLength(8);
    expect(body.count).toBe(8);
  });

  it.each(rawProviders.providers.map((p: { id: string }) => p.id))(
    'getProvider answers a ProviderEnvelope for %s',
    async (id) => {
      const { body } = await t.http.get(`/api/providers/${id}.json`).expect(200);
      check('ProviderEnvelope', body);
      expect(body.provider.self).toMatch(new RegExp(`/api/providers/${id}\\.json$`));
    },
  );

  it('listGuides answers a GuideList whose author is the author id', async () => {
    const { body } = await t.http.get('/api/guides.json').expect(200);
    check('GuideList', body);
    for (const guide of body.guides) expect(guide.author).toMatch(/^[a-z0-9-]+$/);
  });

  it('listUseCases answers a UseCaseList with all four text fields of every spec', async () => {
    const { body } = await t.http.get('/api/use-cases.json').expect(200);
    check('UseCaseList', body);
  });

  it('an unknown provider and an unknown path answer the Error envelope', async () => {
    check('Error', (await t.http.get('/api/providers/nobody.json').expect(404)).body);
    check('Error', (await t.http.get('/api/nothing-here').expect(404)).body);
  });

  it('a client written from the contract works: arithmetic, string and list operations on the fixed fields', async () => {
    const { body } = await t.http.get('/api/providers.json');
    for (const provider of body.providers) {
      expect(Number.isInteger(provider.locations + 1)).toBe(true);
      expect(typeof provider.features.includes('IPv6')).toBe('boolean');
      expect(provider.statusPageUrl).toMatch(/^https?:\/\//);
      expect(provider.support.length).toBeGreaterThan(0);
    }
    const useCases = (await t.http.get('/api/use-cases.json')).body.useCases;
    for (const u of useCases) expect(u.minimumSpec.ram).toMatch(/^\d+(\.\d+)?(MB|GB)$/);
  });

  describe('the OpenAPI document', () => {
    let doc: Schema & { components: { schemas: Record<string, Schema> } };
    beforeAll(async () => {
      doc = (await t.http.get('/openapi.json').expect(200)).body;
    });

    /** The JSON type a property schema of the OpenAPI document declares ($ref and allOf resolve to objects). */
    const declaredType = (schema: Schema): string | undefined => {
      if (typeof schema.type === 'string') return schema.type;
      if (schema.$ref || schema.allOf) return 'object';
      if (Array.isArray(schema.enum)) return typeof schema.enum[0] === 'string' ? 'string' : undefined;
      if ('const' in schema) return typeof schema.const;
      return undefined;
    };
    const contractType = (schema: Schema): string =>
      schema.$ref ? 'object' : ((schema.type as string) ?? typeof schema.const);

    const fields = Object.entries(CONTRACT).flatMap(([resource, schema]) =>
      Object.entries(schema.properties as Record<string, Schema>).map(
        ([field, fieldSchema]) => [resource, field, fieldSchema] as const,
      ),
    );

    it.each(fields.map(([r, f, s]) => [`${r}.${f}`, r, f, s] as const))(
      'declares %s with the contract type',
      (_label, resource, field, expected) => {
        const component = doc.components.schemas[OPENAPI_NAMES[resource] ?? resource];
        expect(component).toBeDefined();
        const nested = resource === 'Error' ? undefined : component;
        const property = (nested ?? component).properties as Record<string, Schema>;
        expect(property).toHaveProperty(field);
        expect(declaredType(property[field])).toBe(contractType(expected));
        if (expected.type === 'array') {
          const items = (expected.items as Schema) ?? {};
          expect(declaredType((property[field].items as Schema) ?? {})).toBe(contractType(items));
        }
        if (expected.format) expect(property[field].format).toBe(expected.format);
      },
    );

    it('declares the Error body fields with the contract types', () => {
      const body = doc.components.schemas.ErrorBody.properties as Record<string, Schema>;
      for (const [field, expected] of Object.entries(
        (CONTRACT.Error.properties as Record<string, Schema>).error.properties as Record<string, Schema>,
      )) {
        expect([field, declaredType(body[field])]).toEqual([field, contractType(expected)]);
      }
    });

    it('declares that no operation needs authentication', () => {
      expect(doc.security).toEqual([]);
    });
  });
});
