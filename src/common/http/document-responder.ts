import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import fresh from 'fresh';
import { CACHE_CONTROL, httpDate } from './cache-policy.js';
import { deprecationHeaders } from './deprecation-headers.js';
import type { Sendable } from './sendable.js';

/**
 * Writes a precomputed body with its validators: ETag, Last-Modified, caching and deprecation
 * headers; answers a matching conditional request with 304 before touching the body; sends no body
 * for HEAD. Header lists are computed once per document.
 */
@Injectable()
export class DocumentResponder {
  private readonly headerCache = new WeakMap<Sendable, [string, string][]>();

  /** Sends `doc` as the answer to `req`; `cacheControl` overrides the default policy. */
  send(req: Request, res: Response, doc: Sendable, options: { cacheControl?: string } = {}): void {
    for (const [name, value] of this.headersOf(doc)) res.setHeader(name, value);
    if (options.cacheControl) res.setHeader('Cache-Control', options.cacheControl);
    // Only the ETag decides: Last-Modified has a day's resolution, too coarse to revalidate against.
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch && fresh({ 'if-none-match': ifNoneMatch, 'cache-control': req.headers['cache-control'] }, { etag: doc.etag })) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', doc.contentType);
    res.setHeader('Content-Length', doc.body.length);
    res.end(req.method === 'HEAD' ? undefined : doc.body);
  }

  private headersOf(doc: Sendable): [string, string][] {
    let headers = this.headerCache.get(doc);
    if (!headers) {
      headers = [['ETag', doc.etag], ['Cache-Control', CACHE_CONTROL]];
      if (doc.lastModified) headers.push(['Last-Modified', httpDate(doc.lastModified)]);
      headers.push(...deprecationHeaders(doc.deprecations ?? []));
      headers.push(...(doc.headers ?? []).map(([name, value]): [string, string] => [name, value]));
      this.headerCache.set(doc, headers);
    }
    return headers;
  }
}
