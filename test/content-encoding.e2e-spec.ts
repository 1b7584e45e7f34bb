import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { rawRequest, waitForEncoding, type RawResponse } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';
import { scaled } from './support/time';

/** How long the variants may take to appear: brotli at quality 11, on two cores other suites share. */
const COMPRESSION_WAIT_MS = 20_000;

describe('precompressed responses', () => {
  let t: TestApp;
  let plain: RawResponse;
  /** The exact bytes on the wire: no client-side decoding. */
  const raw = (path: string, headers: Record<string, string>, method = 'GET') =>
    rawRequest(`${t.baseUrl}${path}`, headers, method);
  beforeAll(
    async () => {
      t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
      plain = await raw('/api/providers.json', { 'accept-encoding': 'identity' });
      // Variants are compressed once, in the background, the first time they are asked for.
      await waitForEncoding(`${t.baseUrl}/api/providers.json`, 'br', COMPRESSION_WAIT_MS);
    },
    scaled(COMPRESSION_WAIT_MS + 10_000),
  );
  afterAll(() => t.close());

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)(
    'serves %s bytes that decode to the identity body, with their own ETag and length',
    async (encoding, decode) => {
      const res = await raw('/api/providers.json', { 'accept-encoding': encoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(plain.body.length);
      expect(decode(res.body).equals(plain.body)).toBe(true);
      expect(res.headers.etag).not.toBe(plain.headers.etag);
      await t.http
        .get('/api/providers.json')
        .set('Accept-Encoding', encoding)
        .set('If-None-Match', res.headers.etag)
        .expect(304);
      const head = await raw('/api/providers.json', { 'accept-encoding': encoding }, 'HEAD');
      expect(head.headers['content-length']).toBe(res.headers['content-length']);
      expect(head.body.length).toBe(0);
    },
  );

  it('honours q-values and falls back to identity for unknown codings', async () => {
    expect(
      (await raw('/api/providers.json', { 'accept-encoding': 'br;q=0.2, gzip;q=0.8' })).headers['content-encoding'],
    ).toBe('gzip');
    const identity = await raw('/api/providers.json', { 'accept-encoding': 'deflate, x-unknown' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain.body)).toBe(true);
    expect(Number(identity.headers['content-length'])).toBe(plain.body.length);
  });

  it('does not answer 304 to an ETag of another coding', async () => {
    const br = await raw('/api/providers.json', { 'accept-encoding': 'br' });
    await t.http
      .get('/api/providers.json')
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', br.headers.etag)
      .expect(200);
  });

  it('answers 406 when identity is refused and nothing acceptable exists', async () => {
    const res = await t.http.get('/api/providers.json').set('Accept-Encoding', 'identity;q=0, deflate').expect(406);
    expect(res.body.error.code).toBe('not_acceptable');
  });
});
