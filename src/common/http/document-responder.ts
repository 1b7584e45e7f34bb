import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import fresh from 'fresh';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contextOf } from '../../request/request-context.js';
import { routeTemplate } from '../../observability/route-template.js';
import { prefersMarkdown } from './negotiation.js';
import { HttpProblem } from '../errors/http-problem.js';
import { CACHE_CONTROL, httpDate } from './cache-policy.js';
import { CommonHeaders } from './common-headers.js';
import { ContentEncodings, type Variant } from './content-encoding.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { FastPaths } from './fast-paths.js';
import type { Sendable } from './sendable.js';

type Headers = [string, string][];
/** The common and a document's headers as flat name, value lists: for a 304, and for a 200 (with Content-Type and -Length). */
type FlatHeaders = { cacheControl: string | undefined; common: readonly string[]; notModified: readonly string[]; ok: readonly string[] };

/**
 * Writes a precomputed body with its validators: ETag, Last-Modified, caching and deprecation
 * headers; picks a precompressed variant by Accept-Encoding; answers a matching conditional request
 * with 304 before touching the body; sends no body for HEAD. Header lists are computed once per
 * document and variant. What a route sends with `sendRemembered` is remembered for its path (FastPaths).
 */
@Injectable()
export class DocumentResponder {
  private readonly identityHeaders = new WeakMap<Sendable, Headers>();
  private readonly variantHeaders = new WeakMap<Variant, Headers>();
  private readonly flatHeaders = new WeakMap<object, FlatHeaders>();

  constructor(
    private readonly fastPaths: FastPaths,
    private readonly encodings: ContentEncodings,
    private readonly common: CommonHeaders,
  ) {}

  /** Sends `doc` as the answer to `req`; `cacheControl` overrides the default policy. Nothing is remembered. */
  send(req: Request, res: Response, doc: Sendable, options: { cacheControl?: string } = {}): void {
    this.write(req, res, doc, options.cacheControl);
  }

  /**
   * Sends `doc` and remembers it for the request's path, so the front door answers later requests of
   * that path itself (FastPaths). A route opts in by calling this: only for an answer that depends on
   * nothing but the path and the dataset version (content coding and conditional requests are handled
   * per request). Requests with a query string are never remembered nor answered from memory.
   */
  sendRemembered(req: Request, res: Response, doc: Sendable, options: { cacheControl?: string } = {}): void {
    this.write(req, res, doc, options.cacheControl);
    this.fastPaths.remember(req, { route: routeTemplate(req), pick: () => doc, cacheControl: options.cacheControl });
  }

  /** Sends the form of a page the client prefers (Accept), and remembers both forms for its path, chosen per request. */
  sendRememberedPage(req: Request, res: Response, forms: { html: Sendable; markdown: Sendable }): void {
    const pick = (r: IncomingMessage) => (prefersMarkdown(r) ? forms.markdown : forms.html);
    this.write(req, res, pick(req));
    this.fastPaths.remember(req, { route: routeTemplate(req), pick });
  }

  /**
   * Writes a document: the variant the client accepts (406 if none), 304 for a matching If-None-Match,
   * no body for HEAD. Headers already set on `res` (request id, rate limit) stay; the common and the
   * document's own are written with them in one writeHead, as the front door writes them.
   */
  write(req: Request, res: Response, doc: Sendable, cacheControl?: string): void {
    const variant = this.encodings.choose(req.headers['accept-encoding'], doc);
    if (variant === null) throw notAcceptable();
    this.writeHeadOnce(req, res, { doc, variant, cacheControl }, this.common.flat(), []);
  }

  /**
   * Writes a document with one writeHead: `common` (the headers every response carries, a flat
   * name, value list that changes only with the dataset version), then the document's own headers
   * (which win over common ones of the same name, as setHeader would have it), precomputed per
   * variant and status, then `dynamic` (request id, rate limit), a flat list the caller owns. The
   * caller has chosen the variant (`undefined` for identity).
   */
  writeHeadOnce(
    req: IncomingMessage,
    res: ServerResponse,
    answer: { doc: Sendable; variant: Variant | undefined; cacheControl: string | undefined },
    common: readonly string[],
    dynamic: string[],
  ): void {
    const { doc, variant } = answer;
    const flat = this.flatOf(answer, common);
    const ifNoneMatch = req.headers['if-none-match'];
    const etag = variant ? variant.etag : doc.etag;
    // Only the ETag decides: Last-Modified has a day's resolution, too coarse to revalidate against.
    const notModified = ifNoneMatch !== undefined && matches(ifNoneMatch, etag);
    const fixed = notModified ? flat.notModified : flat.ok;
    for (let i = 0; i < fixed.length; i++) dynamic.push(fixed[i]);
    const body = variant ? variant.body : doc.body;
    contextOf(req).sentBytes = notModified ? 0 : body.length;
    res.writeHead(notModified ? 304 : 200, dynamic);
    res.end(notModified || req.method === 'HEAD' ? undefined : body);
  }

  private flatOf({ doc, variant, cacheControl }: { doc: Sendable; variant: Variant | undefined; cacheControl: string | undefined }, common: readonly string[]): FlatHeaders {
    const key: object = variant ?? doc;
    let flat = this.flatHeaders.get(key);
    if (!flat || flat.cacheControl !== cacheControl || flat.common !== common) {
      const own = (variant ? this.headersOfVariant(doc, variant) : this.headersOf(doc)).map(([name, value]): [string, string] =>
        name === 'Cache-Control' && cacheControl ? [name, cacheControl] : [name, value],
      );
      const overridden = new Set(own.map(([name]) => name.toLowerCase()));
      const notModified: string[] = [];
      for (let i = 0; i < common.length; i += 2) if (!overridden.has(common[i].toLowerCase())) notModified.push(common[i], common[i + 1]);
      notModified.push(...own.flat());
      const body = variant ? variant.body : doc.body;
      flat = { cacheControl, common, notModified, ok: [...notModified, 'Content-Type', doc.contentType, 'Content-Length', String(body.length)] };
      this.flatHeaders.set(key, flat);
    }
    return flat;
  }

  private headersOf(doc: Sendable): Headers {
    let headers = this.identityHeaders.get(doc);
    if (!headers) {
      const extra = doc.headers ?? [];
      const vary = extra.find(([name]) => name === 'Vary')?.[1];
      headers = [['ETag', doc.etag], ['Cache-Control', CACHE_CONTROL], ['Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding']];
      if (doc.lastModified) headers.push(['Last-Modified', httpDate(doc.lastModified)]);
      headers.push(...deprecationHeaders(doc.deprecations ?? []));
      headers.push(...extra.filter(([name]) => name !== 'Vary').map(([name, value]): [string, string] => [name, value]));
      this.identityHeaders.set(doc, headers);
    }
    return headers;
  }

  private headersOfVariant(doc: Sendable, variant: Variant): Headers {
    let headers = this.variantHeaders.get(variant);
    if (!headers) {
      headers = this.headersOf(doc).map(([name, value]): [string, string] => [name, name === 'ETag' ? variant.etag : value]);
      headers.push(['Content-Encoding', variant.encoding]);
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
