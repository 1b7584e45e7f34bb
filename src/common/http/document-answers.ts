import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import fresh from 'fresh';
import { HttpProblem } from '../errors/http-problem.js';
import { BytesReplyAdapter } from './bytes-reply.adapter.js';
import { CACHE_CONTROL, httpDate } from './cache-policy.js';
import { ContentEncodings, type Variant } from './content-encoding.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { isSendable, type Sendable } from './sendable.js';

type Headers = readonly (readonly [string, string])[];

/**
 * Turns a document a handler returns (a precomputed `Sendable`: bytes, strong ETag, type) into the
 * answer, inside Nest's response handling (ResponseInterceptor calls it on every handler's result): picks the precompressed variant Accept-Encoding asks for
 * (406 when the client refuses every form), sets the document's headers (ETag, Last-Modified, caching,
 * Vary, deprecation headers and its own), answers a matching If-None-Match with a bodiless 304, and
 * otherwise hands Nest the bytes, with their type and length (BytesReplyAdapter writes them; Node sends
 * no body for HEAD). Header lists are
 * built once per document and variant. Any other value a handler returns passes untouched.
 */
@Injectable()
export class DocumentAnswers implements OnApplicationBootstrap {
  private readonly identityHeaders = new WeakMap<Sendable, Headers>();
  private readonly variantHeaders = new WeakMap<Variant, Headers>();

  constructor(
    private readonly encodings: ContentEncodings,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** The bytes an answer returns are written by BytesReplyAdapter; under another adapter, no start. */
  onApplicationBootstrap(): void {
    if (!(this.adapterHost.httpAdapter instanceof BytesReplyAdapter))
      throw new Error('DocumentAnswers needs the application created with BytesReplyAdapter (app.factory.ts)');
  }

  /** What Nest sends for a handler's result: a document's bytes (or nothing, for a 304); any other value as it is. */
  answerOf(req: Request, res: Response, result: unknown): unknown {
    return isSendable(result) ? this.answer(req, res, result) : result;
  }

  private answer(req: Request, res: Response, doc: Sendable): Buffer | undefined {
    const variant = this.encodings.choose(req.headers['accept-encoding'], doc);
    if (variant === null) throw notAcceptable();
    for (const [name, value] of variant ? this.headersOfVariant(doc, variant) : this.headersOf(doc))
      res.setHeader(name, value);
    const ifNoneMatch = req.headers['if-none-match'];
    // Only the ETag decides: Last-Modified has a day's resolution, too coarse to revalidate against.
    if (ifNoneMatch !== undefined && matches(ifNoneMatch, variant ? variant.etag : doc.etag)) {
      res.status(304);
      return undefined;
    }
    const body = variant ? variant.body : doc.body;
    res.setHeader('Content-Type', doc.contentType);
    res.setHeader('Content-Length', body.length);
    // The bytes themselves: Nest's reply (BytesReplyAdapter) ends the response with them.
    return body;
  }

  /** The headers a document is always sent with; later entries of a name win, as setHeader has it. */
  private headersOf(doc: Sendable): Headers {
    let headers = this.identityHeaders.get(doc);
    if (!headers) {
      const extra = doc.headers ?? [];
      const vary = extra.find(([name]) => name === 'Vary')?.[1];
      const list: [string, string][] = [
        ['ETag', doc.etag],
        ['Cache-Control', CACHE_CONTROL],
        ['Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding'],
      ];
      if (doc.lastModified) list.push(['Last-Modified', httpDate(doc.lastModified)]);
      list.push(...deprecationHeaders(doc.deprecations ?? []));
      list.push(...extra.filter(([name]) => name !== 'Vary').map(([name, value]): [string, string] => [name, value]));
      headers = [...new Map(list.map((header) => [header[0].toLowerCase(), header])).values()];
      this.identityHeaders.set(doc, headers);
    }
    return headers;
  }

  private headersOfVariant(doc: Sendable, variant: Variant): Headers {
    let headers = this.variantHeaders.get(variant);
    if (!headers) {
      headers = [
        ...this.headersOf(doc).map(([name, value]): [string, string] => [name, name === 'ETag' ? variant.etag : value]),
        ['Content-Encoding', variant.encoding],
      ];
      this.variantHeaders.set(variant, headers);
    }
    return headers;
  }
}

/**
 * Whether If-None-Match names the current ETag (weak comparison, `*`, lists), as RFC 9110 §13.1.2 has
 * an origin server evaluate it. The request's Cache-Control is deliberately not passed to `fresh`:
 * `no-cache` there is addressed to caches on the way, and the Fetch standard adds it to every request
 * that carries its own If-None-Match, so honouring it would deny 304s to every fetch() client.
 */
const matches = (ifNoneMatch: string, etag: string) => fresh({ 'if-none-match': ifNoneMatch }, { etag });

function notAcceptable(): HttpProblem {
  return new HttpProblem(
    406,
    'not_acceptable',
    'No content coding the client accepts is available.',
    'Accept identity, gzip or br in Accept-Encoding (or send no Accept-Encoding at all).',
  );
}
