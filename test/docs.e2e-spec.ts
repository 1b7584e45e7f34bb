import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

describe('Swagger UI at /docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves the page, which loads only scripts and styles it serves itself', async () => {
    const res = await t.http.get('/docs').expect(200).expect('Content-Type', 'text/html; charset=utf-8');
    const refs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual([
      'docs/favicon-32x32.png',
      'docs/swagger-initializer.js',
      'docs/swagger-ui-bundle.js',
      'docs/swagger-ui-standalone-preset.js',
      'docs/swagger-ui.css',
    ]);
    expect(res.text).not.toMatch(/<script>(?!<\/script>)/);
    for (const ref of refs) {
      const asset = await t.http.get(`/${ref}`).expect(200);
      expect(Number(asset.headers['content-length'])).toBeGreaterThan(100);
      expect(asset.headers.etag).toBeDefined();
    }
  });

  it('points Swagger UI at the OpenAPI document of this deployment', async () => {
    const res = await t.http.get('/docs/swagger-initializer.js').expect(200).expect('Content-Type', 'text/javascript; charset=utf-8');
    expect(res.text).toContain(`url: "${TEST_BASE_URL}/openapi.json"`);
  });

  it('answers 404 for a file it does not serve, without touching the file system', async () => {
    await t.http.get('/docs/index.html').expect(404);
    await t.http.get('/docs/..%2Fpackage.json').expect(404);
    await t.http.get('/docs/swagger-ui.css.map').expect(404);
  });
});

describe('Swagger UI security headers', () => {
  it('sends a CSP that allows only its own scripts and the API origin', async () => {
    const t = await startTestApp();
    try {
      const res = await t.http.get('/docs').expect(200);
      expect(res.headers['content-security-policy']).toContain("script-src 'self' https://vpsapi.test;");
      expect(res.headers['content-security-policy']).toContain("connect-src 'self' https://vpsapi.test;");
      expect(res.headers['content-security-policy']).not.toContain('unsafe-eval');
    } finally {
      await t.close();
    }
  });
});
