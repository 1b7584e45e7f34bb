import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { startTestApp, TEST_BASE_URL, type TestApp } from './support/test-app';

/** superagent: collect the body as bytes whatever its type. */
const binary = (
  res: NodeJS.ReadableStream & { setEncoding?: unknown },
  done: (e: Error | null, body: Buffer) => void,
) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

// One app with the default settings serves every test here.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('Swagger UI at /docs', () => {
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

  it('points Swagger UI at the OpenAPI document on the origin the browser reached', async () => {
    const res = await t.http
      .get('/docs/swagger-initializer.js')
      .expect(200)
      .expect('Content-Type', 'text/javascript; charset=utf-8');
    expect(res.text).toContain('url: "openapi.json",');
  });

  it('answers 404 for a file it does not serve, without touching the file system', async () => {
    await t.http.get('/docs/index.html').expect(404);
    await t.http.get('/docs/..%2Fpackage.json').expect(404);
    await t.http.get('/docs/swagger-ui.css.map').expect(404);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__'])
      await t.http.get(`/docs/${name}`).expect(404);
  });

  it('serves the swagger-ui-dist files byte for byte, read on first request, with the same ETag each time', async () => {
    const dir = getAbsoluteFSPath();
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']) {
      const first = await t.http.get(`/docs/${name}`).buffer(true).parse(binary).expect(200);
      expect((first.body as Buffer).equals(readFileSync(join(dir, name)))).toBe(true);
      const again = await t.http.get(`/docs/${name}`).expect(200);
      expect(again.headers.etag).toBe(first.headers.etag);
      await t.http.get(`/docs/${name}`).set('If-None-Match', first.headers.etag).expect(304);
    }
  });
});

describe('Swagger UI security headers', () => {
  it('sends a CSP that allows only its own scripts and the API origin', async () => {
    const res = await t.http.get('/docs').expect(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self' https://vpsapi.test;");
    expect(res.headers['content-security-policy']).toContain("connect-src 'self' https://vpsapi.test;");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-eval');
  });
});
