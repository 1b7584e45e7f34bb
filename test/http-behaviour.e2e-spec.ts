import request from 'supertest';
import { ProvidersService } from '../src/providers/providers.service';
import { rawMeta, rawProviders } from './support/raw-data';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

const VALID_IDS = rawProviders.providers.map((p: any) => p.id).join(', ');

describe('HTTP behaviour', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const expectEnvelope = (res: request.Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      error: {
        code,
        message: expect.any(String),
        status,
        resolution: expect.any(String),
        documentation: `${TEST_BASE_URL}/docs`,
      },
    });
    expect(res.text).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
  };

  describe('common headers on every kind of response', () => {
    const kinds: [string, () => request.Test, number][] = [
      ['200 GET', () => t.http.get('/api/providers.json'), 200],
      ['304 revalidation', () => t.http.get('/api/providers.json').set('If-None-Match', '*'), 304],
      ['HEAD', () => t.http.head('/api/guides.json'), 200],
      [
        'OPTIONS preflight',
        () =>
          t.http
            .options('/api/providers.json')
            .set('Origin', 'https://app.test')
            .set('Access-Control-Request-Method', 'GET'),
        204,
      ],
      ['404 unknown /api/ path', () => t.http.get('/api/nothing.json'), 404],
      ['404 unknown provider', () => t.http.get('/api/providers/aws.json'), 404],
      ['404 outside /api/', () => t.http.get('/no/such/page'), 404],
      ['405 write method', () => t.http.delete('/api/providers.json'), 405],
      ['400 malformed percent-encoding', () => t.http.get('/api/providers/%E0%A4%A.json'), 400],
      ['OpenAPI document', () => t.http.get('/openapi.json'), 200],
      ['Swagger UI', () => t.http.get('/docs'), 200],
    ];

    it.each(kinds)('%s carries CORS and X-API-Version, never X-Powered-By', async (_name, send, status) => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['x-api-version']).toBe(rawMeta.version);
      expect(res.headers['x-powered-by']).toBeUndefined();
      const exposed = res.headers['access-control-expose-headers'].split(/,\s*/);
      for (const name of [
        'ETag',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Retry-After',
        'X-API-Version',
        'Deprecation',
        'Sunset',
        'Link',
      ]) {
        expect(exposed).toContain(name);
      }
    });
  });

  describe('caching', () => {
    it('sends a strong ETag, Cache-Control, Last-Modified and Content-Length', async () => {
      const res = await t.http.get('/api/providers.json').expect(200);
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      // The day the prices were last verified (meta.json lastUpdated), as an HTTP date.
      expect(res.headers['last-modified']).toBe(new Date(`${rawMeta.lastUpdated}T00:00:00Z`).toUTCString());
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    });

    it('gives each document its own ETag, stable across requests', async () => {
      const paths = [
        '/api/index.json',
        '/api/providers.json',
        '/api/providers/hetzner.json',
        '/api/providers/vultr.json',
        '/api/guides.json',
        '/api/use-cases.json',
      ];
      const first = await Promise.all(paths.map((p) => t.http.get(p)));
      const second = await Promise.all(paths.map((p) => t.http.get(p)));
      const etags = first.map((r) => r.headers.etag);
      expect(new Set(etags).size).toBe(paths.length);
      expect(second.map((r) => r.headers.etag)).toEqual(etags);
    });

    it.each([
      ['the exact tag', (etag: string) => etag],
      ['the weak form', (etag: string) => `W/${etag}`],
      ['a list containing it', (etag: string) => `"nope", ${etag}, "other"`],
      ['*', () => '*'],
    ])('answers If-None-Match with %s by 304 and no body', async (_name, value) => {
      const { headers } = await t.http.get('/api/providers/linode.json');
      const res = await t.http.get('/api/providers/linode.json').set('If-None-Match', value(headers.etag)).expect(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(headers.etag);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers['content-type']).toBeUndefined();
    });

    it('answers 304 to fetch(), which adds Cache-Control: no-cache to every request carrying If-None-Match', async () => {
      // Identity: the compressed variants of a path appear after its first request, with ETags of their own.
      const identity = { 'Accept-Encoding': 'identity' };
      for (const path of ['/api/use-cases.json', '/api/use-cases.json', '/guides/swap-file']) {
        // Bodies are read to the end: an unread one holds its connection open past the app's close.
        const first = await fetch(`${t.baseUrl}${path}`, { headers: identity });
        await first.arrayBuffer();
        const again = await fetch(`${t.baseUrl}${path}`, {
          headers: { ...identity, 'If-None-Match': first.headers.get('etag')! },
        });
        await again.arrayBuffer();
        expect(again.status).toBe(304);
      }
      await t.http
        .get('/api/providers/vultr.json')
        .set('Cache-Control', 'no-cache')
        .set('Pragma', 'no-cache')
        .set('If-None-Match', '*')
        .expect(304);
    });

    it('answers 200 with the body for a stale ETag', async () => {
      const res = await t.http.get('/api/providers/linode.json').set('If-None-Match', '"stale"').expect(200);
      expect(res.body.provider.id).toBe('linode');
    });

    it('does not revalidate on If-Modified-Since alone: a day is too coarse', async () => {
      await t.http.get('/api/guides.json').set('If-Modified-Since', 'Fri, 06 Feb 2026 00:00:00 GMT').expect(200);
    });
  });

  describe('HEAD', () => {
    it.each([
      '/api/index.json',
      '/api/providers.json',
      '/api/providers/contabo.json',
      '/api/guides.json',
      '/api/use-cases.json',
      '/openapi.json',
    ])('answers %s with the GET headers and no body', async (path) => {
      const [get, head] = await Promise.all([t.http.get(path), t.http.head(path)]);
      expect(head.status).toBe(200);
      expect(head.text).toBeUndefined();
      for (const name of [
        'etag',
        'content-type',
        'content-length',
        'cache-control',
        'last-modified',
        'x-api-version',
      ]) {
        expect(head.headers[name]).toBe(get.headers[name]);
      }
    });
  });

  describe('OPTIONS', () => {
    it('answers a preflight with 204 allowing GET, HEAD and OPTIONS', async () => {
      const res = await t.http
        .options('/api/providers/hetzner.json')
        .set('Origin', 'https://app.test')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'If-None-Match')
        .expect(204);
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toMatch(/If-None-Match/);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(res.text).toBe('');
    });
  });

  describe('errors', () => {
    it('answers an unknown /api/ path with not_found pointing to the index', async () => {
      const res = await t.http.get('/api/pricing.json');
      expectEnvelope(res, 404, 'not_found');
      expect(res.body.error.resolution).toContain(`${TEST_BASE_URL}/api/index.json`);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('answers an unknown provider id with the valid ids and the list endpoint', async () => {
      const res = await t.http.get('/api/providers/aws.json');
      expectEnvelope(res, 404, 'not_found');
      expect(res.body.error.resolution).toContain(VALID_IDS);
      expect(res.body.error.resolution).toContain(`${TEST_BASE_URL}/api/providers.json`);
    });

    it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s with 405 and Allow', async (method) => {
      const res = await (t.http as any)[method.toLowerCase()]('/api/providers.json');
      expectEnvelope(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    });

    it('refuses a write with a malformed JSON body with 405, not a parse error', async () => {
      const res = await t.http
        .post('/api/providers/hetzner.json')
        .set('Content-Type', 'application/json')
        .send('{"broken":');
      expectEnvelope(res, 405, 'method_not_allowed');
    });

    it('refuses a write to an unknown /api/ path with 405 too: the whole API is read-only', async () => {
      expectEnvelope(await t.http.put('/api/whatever'), 405, 'method_not_allowed');
    });

    it.each([
      ['dot-dot segments', '/api/providers/../providers.json'],
      ['encoded traversal', '/api/providers/%2e%2e%2f%2e%2e%2fpackage.json'],
      ['encoded traversal to the data dir', '/api/providers/%2e%2e%2fmeta.json'],
      ['a NUL byte', '/api/providers/hetzner%00.json'],
      ['a 5000-character id', `/api/providers/${'a'.repeat(5000)}.json`],
      ['an uppercase id', '/api/providers/HETZNER.json'],
      ['a mixed-case id', '/api/providers/Hetzner.json'],
      ['a trailing slash', '/api/providers.json/'],
      ['a trailing slash on a provider', '/api/providers/hetzner.json/'],
      ['an uppercase extension', '/api/providers/hetzner.JSON'],
      ['an uppercase prefix', '/API/providers.json'],
      ['a double slash', '/api//providers.json'],
      ['a backslash', '/api/providers/..%5Cmeta.json'],
    ])('answers odd paths (%s) with 404 and the envelope', async (_name, path) => {
      // supertest sends the path as written; nothing is resolved against the file system.
      expectEnvelope(await t.http.get(path), 404, 'not_found');
    });

    it('answers malformed percent-encoding with 400 bad_request', async () => {
      const res = await t.http.get('/api/providers/%zz.json');
      expectEnvelope(res, 400, 'bad_request');
    });

    it('keeps serving after odd input', async () => {
      await t.http.get('/api/providers/%zz.json');
      await t.http.get(`/api/providers/${'x'.repeat(10000)}.json`);
      await t.http.get('/api/providers/hetzner.json').expect(200);
    });

    it('turns an unexpected failure into a generic 500 with a request id and no internals', async () => {
      const path = '/api/providers/digitalocean.json';
      const spy = jest.spyOn(ProvidersService.prototype, 'get').mockImplementation(() => {
        throw new Error('secret internal detail at /srv/app/db.ts:42');
      });
      try {
        const res = await t.http.get(path);
        expect(spy).toHaveBeenCalledWith('digitalocean');
        expectEnvelope(res, 500, 'internal_error');
        expect(res.text).not.toContain('secret');
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(res.body.error.resolution).toContain(res.headers['x-request-id']);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        spy.mockRestore();
        // The failure was not remembered: the next request reaches the restored service.
        await t.http.get(path).expect(200);
      } finally {
        spy.mockRestore();
      }
    });
  });
});

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each(['/api/providers.json', '/api/nothing', '/guides/swap-file', '/docs', '/openapi.json', '/no/page'])(
    "sets helmet's headers on %s",
    async (path) => {
      const res = await t.http.get(path);
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'cross-origin-resource-policy': 'cross-origin',
        'x-permitted-cross-domain-policies': 'none',
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it('sets them on MCP answers too', async () => {
    const res = await t.http.get('/mcp');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
