import { Injectable } from '@nestjs/common';
import Negotiator from 'negotiator';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Sendable } from './sendable.js';

const brotli = promisify(brotliCompress);

/** The smallest brotli window (log2 bytes, within brotli's 10 to 24) that holds a document of `bytes`. */
export const windowBits = (bytes: number) =>
  Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 1))),
  );
const gz = promisify(gzip);

export type Encoding = 'br' | 'gzip';

interface Wanted {
  codings: Encoding[];
  identity: boolean;
}

/** A compressed form of a document, with its own strong ETag. */
export interface Variant {
  body: Buffer;
  etag: string;
  encoding: Encoding;
}

/** Below this size compression saves too little to be worth a variant. */
export const MIN_BYTES = 512;
/** Preference when the client values several codings equally. */
const PREFERRED = ['br', 'gzip', 'identity'];
/** Accept-Encoding values seen in practice repeat; their outcome is cached (bounded). */
export const MAX_CACHED_HEADERS = 256;
/** Longer headers are negotiated every time: a cache entry should not cost more than the work it saves. */
export const MAX_CACHED_HEADER_LENGTH = 200;

/**
 * Precompressed variants of documents and the choice among them. Each document is compressed once
 * (brotli at quality 11, gzip at level 9), in the background on the libuv threadpool the first time it
 * is asked for, one compression at a time, and a variant is kept only when it is smaller. A request never waits for compression:
 * until a variant is ready the identity form is sent.
 */
@Injectable()
export class ContentEncodings {
  /** Each document's variants, or the compression under way (queued or running). */
  private readonly variants = new WeakMap<Sendable, Partial<Record<Encoding, Variant>> | Promise<void>>();
  private readonly choices = new Map<string, Wanted>();

  /**
   * The best variant of `doc` for the request's Accept-Encoding; undefined for identity; `null` when
   * the client refuses identity and no acceptable variant exists (406).
   */
  choose(acceptEncoding: string | undefined, doc: Sendable): Variant | undefined | null {
    if (!acceptEncoding) return undefined;
    const { codings, identity } = this.wanted(acceptEncoding);
    const ready = codings.length > 0 ? this.variantsOf(doc) : undefined;
    for (const encoding of codings) {
      const variant = ready?.[encoding];
      if (variant) return variant;
    }
    return identity ? undefined : null;
  }

  /** How many Accept-Encoding values have their outcome cached; bounded, because clients choose the headers. */
  get cachedHeaderCount(): number {
    return this.choices.size;
  }

  /**
   * Compressions run one after another, brotli then gzip: each holds its compressor's working memory
   * (brotli's match finder above all), and side by side, while a fresh instance's documents were first
   * asked for, they raised its peak RSS by about 8 MB.
   */
  private queue: Promise<void> = Promise.resolve();

  /** Starts compressing `doc` (after those already queued) if that has not begun; resolves when its variants are ready. */
  precompress(doc: Sendable): Promise<void> {
    const known = this.variants.get(doc);
    if (known instanceof Promise) return known;
    if (known !== undefined || doc.body.length < MIN_BYTES) return Promise.resolve();
    const done = this.queue.then(() => this.compress(doc));
    this.variants.set(doc, done);
    this.queue = done.catch(() => undefined);
    return done;
  }

  private async compress(doc: Sendable): Promise<void> {
    const br = await brotli(doc.body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: doc.body.length,
        // A window no larger than the document compresses it the same, and quality 11 sizes its
        // match finder by the window: 16 MB per compression at the default 4 MB window, kept by the
        // allocator afterwards (peak RSS rose by tens of MB while documents were first compressed).
        [constants.BROTLI_PARAM_LGWIN]: windowBits(doc.body.length),
      },
    });
    const gzipped = await gz(doc.body, { level: 9 });
    const tag = (suffix: string) => `${doc.etag.slice(0, -1)}-${suffix}"`;
    const ready: Partial<Record<Encoding, Variant>> = {};
    if (br.length < doc.body.length) ready.br = { body: br, etag: tag('br'), encoding: 'br' };
    if (gzipped.length < doc.body.length) ready.gzip = { body: gzipped, etag: tag('gz'), encoding: 'gzip' };
    this.variants.set(doc, ready);
  }

  private variantsOf(doc: Sendable): Partial<Record<Encoding, Variant>> | undefined {
    const known = this.variants.get(doc);
    if (known === undefined) {
      // A failed compression leaves the document sent as it is.
      this.precompress(doc).catch(() => undefined);
      return undefined;
    }
    return known instanceof Promise ? undefined : known;
  }

  /** Codings the client accepts, best first (q-values honoured, ties broken br > gzip), and whether identity is. */
  private wanted(header: string): Wanted {
    const cached = this.choices.get(header);
    if (cached) return cached;
    // negotiator 1.x takes the preferred order as a second argument; its published types predate it.
    const encodings = Negotiator.prototype.encodings as (
      this: Negotiator,
      available: string[],
      options: { preferred: string[] },
    ) => string[];
    const accepted = encodings.call(new Negotiator({ headers: { 'accept-encoding': header } }), PREFERRED, {
      preferred: PREFERRED,
    });
    const wanted = {
      codings: accepted.filter((e): e is Encoding => e === 'br' || e === 'gzip'),
      identity: accepted.includes('identity'),
    };
    if (this.choices.size < MAX_CACHED_HEADERS && header.length <= MAX_CACHED_HEADER_LENGTH)
      this.choices.set(header, wanted);
    return wanted;
  }
}
