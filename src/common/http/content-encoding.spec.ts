import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Negotiator from 'negotiator';
import { randomBytes } from 'node:crypto';
import {
  brotliCompress,
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  gunzipSync,
  gzip,
  gzipSync,
} from 'node:zlib';
import { JsonDocument } from '../../dataset/json-document';
import {
  ContentEncodings,
  MAX_CACHED_HEADER_LENGTH,
  MAX_CACHED_HEADERS,
  MIN_BYTES,
  windowBits,
} from './content-encoding';
import type { Sendable } from './sendable';

// The real compressors, wrapped so a test can count how often a document is compressed.
jest.mock('node:zlib', () => {
  const actual = jest.requireActual<typeof import('node:zlib')>('node:zlib');
  return { ...actual, brotliCompress: jest.fn(actual.brotliCompress), gzip: jest.fn(actual.gzip) };
});

describe(windowBits.name, () => {
  it('is the smallest window holding the document, within brotli bounds', () => {
    expect([1, 1024, 1025, 4921, 127_965, 2 ** 30].map(windowBits)).toEqual([10, 11, 11, 13, 17, 24]);
  });

  it('compresses real documents as small as the default 4 MB window does', () => {
    for (const file of ['providers.json', 'use-cases.json', join('guides', 'swap-file.md')]) {
      const body = readFileSync(join(__dirname, '..', '..', '..', 'data', file));
      const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
      const fitted = brotliCompressSync(body, {
        params: { ...params, [constants.BROTLI_PARAM_LGWIN]: windowBits(body.length) },
      });
      const wide = brotliCompressSync(body, { params });
      expect(brotliDecompressSync(fitted).equals(body)).toBe(true);
      expect(fitted.length).toBeLessThanOrEqual(wide.length * 1.01);
    }
  });
});

describe(ContentEncodings.name, () => {
  const doc = new JsonDocument(
    { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `provider ${i}`, plans: ['a', 'b', 'c'] })) },
    '2026-02-06',
  );
  let encodings: ContentEncodings;
  beforeEach(async () => {
    encodings = new ContentEncodings();
    await encodings.precompress(doc);
  });

  it('makes br and gzip variants that decompress to the identity bytes, each with its own strong ETag', () => {
    const br = encodings.choose('br', doc)!;
    const gz = encodings.choose('gzip', doc)!;
    expect(brotliDecompressSync(br.body).equals(doc.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(doc.body)).toBe(true);
    expect(br.body.length).toBeLessThan(doc.body.length);
    expect(new Set([doc.etag, br.etag, gz.etag]).size).toBe(3);
    expect(br.etag).toMatch(/^"[A-Za-z0-9_-]+-br"$/);
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.9, br;q=0.9', 'br'],
    ['deflate', undefined],
    ['compress, x-custom', undefined],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['identity;q=0, gzip', 'gzip'],
    ['br;q=abc, gzip', 'gzip'],
  ])('answers Accept-Encoding %j with %s', (header, expected) => {
    expect(encodings.choose(header, doc)?.encoding).toBe(expected);
  });

  it('refuses (null) when identity is excluded and nothing else is acceptable', () => {
    expect(encodings.choose('identity;q=0, deflate', doc)).toBeNull();
    expect(encodings.choose('*;q=0', doc)).toBeNull();
  });

  it('keeps no variant for a body too small to gain', async () => {
    const tiny = new JsonDocument({ a: 1 }, '2026-02-06');
    await encodings.precompress(tiny);
    expect(encodings.choose('br, gzip', tiny)).toBeUndefined();
  });

  it('sends identity until the variants are ready, and never compresses twice', () => {
    const fresh = new ContentEncodings();
    const spy = jest.spyOn(fresh, 'precompress');
    expect(fresh.choose('br', doc)).toBeUndefined();
    expect(fresh.choose('br', doc)).toBeUndefined();
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('compresses a document once: asking again neither withdraws nor replaces its ready variants', async () => {
    const first = encodings.choose('br', doc);
    expect(first?.encoding).toBe('br');
    const again = encodings.precompress(doc);
    expect(encodings.choose('br', doc)).toBe(first);
    await again;
    expect(encodings.choose('br', doc)).toBe(first);
    expect(encodings.choose('gzip', doc)?.etag).toMatch(/-gz"$/);
  });

  it('compresses a document once however often and however concurrently it is asked for', async () => {
    const fresh = new ContentEncodings();
    const once = new JsonDocument(
      { items: Array.from({ length: 100 }, (_, i) => ({ id: i, note: 'compressed once' })) },
      '2026-02-06',
    );
    const compressionsOf = (fn: unknown) =>
      jest.mocked(fn as (...args: unknown[]) => void).mock.calls.filter(([input]) => input === once.body).length;
    fresh.choose('br', once);
    await Promise.all([fresh.precompress(once), fresh.precompress(once)]);
    await fresh.precompress(once);
    fresh.choose('gzip', once);
    expect([compressionsOf(brotliCompress), compressionsOf(gzip)]).toEqual([1, 1]);
  });
});

describe(`${ContentEncodings.name} Accept-Encoding cache`, () => {
  const doc = new JsonDocument(
    { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `provider ${i}` })) },
    '2026-02-06',
  );

  it('stays at its bound after 10,000 distinct Accept-Encoding values, and still answers each one right', async () => {
    const encodings = new ContentEncodings();
    await encodings.precompress(doc);
    expect(MAX_CACHED_HEADERS).toBeLessThan(10_000);
    for (let i = 0; i < 10_000; i++) {
      const header = i % 2 === 0 ? `x-client-${i}, gzip` : `br, gzip;q=0.${(i % 9) + 1}, x-client-${i}`;
      expect(encodings.choose(header, doc)?.encoding).toBe(i % 2 === 0 ? 'gzip' : 'br');
    }
    expect(encodings.cachedHeaderCount).toBe(MAX_CACHED_HEADERS);
  });

  it('caches a header up to its length limit and negotiates a longer one every time', () => {
    const encodings = new ContentEncodings();
    const padded = (length: number) => `gzip, x-${'a'.repeat(length - 'gzip, x-'.length)}`;
    encodings.choose(padded(MAX_CACHED_HEADER_LENGTH), doc);
    expect(encodings.cachedHeaderCount).toBe(1);
    encodings.choose(padded(MAX_CACHED_HEADER_LENGTH + 1), doc);
    expect(encodings.cachedHeaderCount).toBe(1);
  });
});

describe(`${ContentEncodings.name} variants`, () => {
  const sendable = (body: Buffer): Sendable => ({ body, etag: '"test"', contentType: 'application/json' });
  const compressionsOf = (fn: unknown, body: Buffer) =>
    jest.mocked(fn as (...args: unknown[]) => void).mock.calls.filter(([input]) => input === body).length;

  it('compresses at the strongest settings: brotli quality 11 in a window fitted to the document, gzip level 9', async () => {
    const doc = sendable(
      Buffer.from(JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `plan ${i}` })) })),
    );
    const encodings = new ContentEncodings();
    await encodings.precompress(doc);
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: doc.body.length,
      [constants.BROTLI_PARAM_LGWIN]: windowBits(doc.body.length),
    };
    expect(encodings.choose('br', doc)!.body.equals(brotliCompressSync(doc.body, { params }))).toBe(true);
    expect(encodings.choose('gzip', doc)!.body.equals(gzipSync(doc.body, { level: 9 }))).toBe(true);
  });

  it(`makes variants from ${MIN_BYTES} bytes on, and none for a smaller body`, async () => {
    const encodings = new ContentEncodings();
    const small = sendable(Buffer.alloc(MIN_BYTES - 1, 'a'));
    const enough = sendable(Buffer.alloc(MIN_BYTES, 'a'));
    await Promise.all([encodings.precompress(small), encodings.precompress(enough)]);
    expect(encodings.choose('br', small)).toBeUndefined();
    expect(compressionsOf(brotliCompress, small.body)).toBe(0);
    expect(encodings.choose('br', enough)?.encoding).toBe('br');
    expect(encodings.choose('gzip', enough)?.encoding).toBe('gzip');
  });

  it('compresses one document at a time, in the order they were first asked for, each ready when its turn ends', async () => {
    const encodings = new ContentEncodings();
    const docs = [1, 2, 3].map((n) => sendable(Buffer.alloc(8192 * n, String(n))));
    const actual = jest.requireActual<typeof import('node:zlib')>('node:zlib');
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const counted =
      (real: (body: Buffer, options: object, cb: (e: Error | null, r: Buffer) => void) => void) =>
      (body: Buffer, options: object, cb: (e: Error | null, r: Buffer) => void) => {
        running++;
        most = Math.max(most, running);
        order.push(body.length / 8192);
        real(body, options, (e, r) => {
          running--;
          cb(e, r);
        });
      };
    jest.mocked(brotliCompress).mockImplementation(counted(actual.brotliCompress as never) as never);
    jest.mocked(gzip).mockImplementation(counted(actual.gzip as never) as never);
    try {
      const first = encodings.precompress(docs[0]);
      const rest = Promise.all([encodings.precompress(docs[1]), encodings.precompress(docs[2])]);
      await first;
      expect(encodings.choose('br', docs[0])?.encoding).toBe('br');
      await rest;
      expect(most).toBe(1);
      expect(order).toEqual([1, 1, 2, 2, 3, 3]);
      for (const doc of docs) expect(encodings.choose('gzip', doc)?.encoding).toBe('gzip');
    } finally {
      jest.mocked(brotliCompress).mockImplementation(actual.brotliCompress as never);
      jest.mocked(gzip).mockImplementation(actual.gzip as never);
    }
  });

  it('keeps no variant that is not smaller than the identity body', async () => {
    const encodings = new ContentEncodings();
    const random = sendable(randomBytes(4096));
    await encodings.precompress(random);
    expect(compressionsOf(brotliCompress, random.body)).toBe(1);
    expect(encodings.choose('br', random)).toBeUndefined();
    expect(encodings.choose('gzip', random)).toBeUndefined();
  });

  it('does not compress for a client that accepts no compressed coding', () => {
    const encodings = new ContentEncodings();
    const doc = sendable(Buffer.alloc(4096, 'b'));
    for (const header of ['identity', 'deflate', 'x-unknown, identity'])
      expect(encodings.choose(header, doc)).toBeUndefined();
    expect([compressionsOf(brotliCompress, doc.body), compressionsOf(gzip, doc.body)]).toEqual([0, 0]);
  });

  it('refuses (null) a client that excludes identity while the variants are still being made', () => {
    const encodings = new ContentEncodings();
    const doc = sendable(Buffer.alloc(4096, 'c'));
    expect(encodings.choose('identity;q=0, br', doc)).toBeNull();
    expect(encodings.choose('identity;q=0, br, gzip', doc)).toBeNull();
  });

  it('negotiates each Accept-Encoding value once and reuses the outcome', () => {
    const encodings = new ContentEncodings();
    const doc = sendable(Buffer.alloc(100, 'd'));
    const negotiate = jest.spyOn(Negotiator.prototype, 'encodings');
    try {
      for (let i = 0; i < 3; i++) encodings.choose('gzip, x-once', doc);
      expect(negotiate).toHaveBeenCalledTimes(1);
    } finally {
      negotiate.mockRestore();
    }
  });
});
